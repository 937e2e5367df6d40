// Stage examples: every named example pair is sent and its status, content type, `title`, body
// schema and (for a success) the example's fields are checked.
import { examplePairs, validRequestBody } from '../../core/examples.ts';
import { check, describeRequest, replay, runs, send, type CheckResult, type Stage, type SuiteContext } from '../context.ts';
import { judgePair, pairRequest } from '../pairs.ts';
import { prepare } from '../vars.ts';

export const examplesStage: Stage = {
  name: 'examples',
  description: 'every named request/response example pair of the document',
  async run(ctx: SuiteContext): Promise<CheckResult[]> {
    const results: CheckResult[] = [];
    for (const pair of examplePairs().filter((p) => runs(ctx, p.kind))) {
      results.push(
        await check(ctx, 'examples', `${pair.operation.operationId} ${pair.status} ${pair.name}`, pair.kind, { operationId: pair.operation.operationId, status: pair.status, code: (pair.response as { title?: string })?.title, example: pair.name }, async () => {
          // A mock is asked for the example by name, with a request it accepts (the operation's own
          // path, method, credentials and a valid body), and answers the example as written.
          const { body, expected } = ctx.mock ? { body: validRequestBody(pair), expected: pair.response } : prepare(pair, ctx.values);
          const request = ctx.mock
            ? pairRequest(ctx.server, { ...pair, trigger: {} }, ctx.credentials, () => body)
            : pairRequest(ctx.server, pair, ctx.credentials, () => body);
          const prefer: Record<string, string> = ctx.mock ? { prefer: `code=${pair.status}, example=${pair.name}` } : {};
          const { response, error } = await send(ctx, request, prefer);
          if (!response) return { ok: false, request: describeRequest(request), replay: replay(ctx, request), expected: `${pair.status}`, actual: `no answer: ${error}` };
          const verdict = await judgePair(pair, response, expected);
          return {
            ok: verdict.ok,
            request: describeRequest(request), replay: replay(ctx, request),
            expected: `${pair.status}${(pair.response as { title?: string })?.title ? ` ${(pair.response as { title: string }).title}` : ''}`,
            actual: verdict.ok ? `${verdict.status}` : `${verdict.status} ${JSON.stringify(verdict.body)?.slice(0, 300)}: ${verdict.problems.join('; ')}`,
          };
        }),
      );
    }
    return results;
  },
};
