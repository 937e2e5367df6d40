// Stage stateful: the description's rules that need more than one call.
import { normalizeErrorCode } from '../../core/codes.ts';
import { examplePairs, type ExamplePair } from '../../core/examples.ts';
import { schemaValidator } from '../../core/validators/all.ts';
import { check, describeRequest, readAnswer, replay, runs, send, type CheckResult, type Stage, type SuiteContext } from '../context.ts';
import { pairRequest, type PairRequest } from '../pairs.ts';
import { prepare, substitute } from '../vars.ts';

const lists = ['resolved_threads', 'not_existing_threads', 'already_resolved_threads', 'not_resolved_due_to_system_error'] as const;
type CloseResult = Record<(typeof lists)[number], number[]>;

function pair(operationId: string, name: string): ExamplePair {
  const found = examplePairs().find((p) => p.operation.operationId === operationId && p.name === name);
  if (!found) throw new Error(`the document has no example ${operationId}/${name}`);
  return found;
}

async function call(ctx: SuiteContext, request: PairRequest): Promise<{ status: number; body: any; text: string }> {
  const { response, error } = await send(ctx, request);
  if (!response) throw new Error(`no answer from ${request.method} ${request.url}: ${error}`);
  return readAnswer(response);
}

/** Which list each identifier is in; throws when one is missing, extra or in two lists. */
function partition(ids: number[], result: CloseResult): Map<number, string> {
  const problems: string[] = [];
  const where = new Map<number, string>();
  for (const list of lists) {
    if (!Array.isArray(result?.[list])) throw new Error(`${list} is missing or not a list`);
    for (const id of result[list]) {
      if (where.has(id)) problems.push(`${id} is in ${where.get(id)} and ${list}`);
      where.set(id, list);
    }
  }
  for (const id of new Set(ids)) if (!where.has(id)) problems.push(`${id} is in no list`);
  for (const id of where.keys()) if (!ids.includes(id)) problems.push(`${id} was not sent`);
  const counts = lists.reduce((n, l) => n + result[l].length, 0);
  if (counts !== new Set(ids).size) problems.push(`${counts} entries for ${new Set(ids).size} distinct identifiers`);
  if (problems.length) throw new Error(problems.join('; '));
  return where;
}

export const statefulStage: Stage = {
  name: 'stateful',
  description: 'rules that need more than one call: a reused requestId, closing closed threads, one list per identifier',
  async run(ctx: SuiteContext): Promise<CheckResult[]> {
    const stage = 'stateful';
    const results: CheckResult[] = [];
    const closeRequest = (threadIds: number[]) => pairRequest(ctx.server, pair('closeThreads', 'resolved'), ctx.credentials, () => ({ threadIds }));
    const threadIds = ['resolved', 'notExisting', 'alreadyResolved', 'notResolvedDueToSystemError'].flatMap(
      (name) => substitute(pair('closeThreads', name).requestBody as { threadIds: number[] }, ctx.values).threadIds,
    );

    results.push(await check(ctx, stage, 'a reused requestId is rejected with requestId-is-not-unique', 'described', undefined, async () => {
      const scheduled = pair('scheduleCascade', 'scheduled');
      const { body } = prepare(scheduled, ctx.values);
      const request = pairRequest(ctx.server, scheduled, ctx.credentials, () => body);
      const first = await call(ctx, request);
      const second = await call(ctx, request);
      const ok = first.status === 200 && second.status === 400 && normalizeErrorCode(second.body?.title ?? '') === 'requestId-is-not-unique';
      return { ok, request: describeRequest(request), replay: replay(ctx, request), expected: 'first 200, then 400 requestId-is-not-unique', actual: `first ${first.status} ${first.text.slice(0, 200)}, then ${second.status} ${second.text.slice(0, 200)}` };
    }));

    let firstClose: Map<number, string> | undefined;
    // Distinct identifiers: how a repeated one is reported is a decision (the repeatedId example).
    results.push(await check(ctx, stage, 'every identifier is reported in exactly one of the four lists', 'described', undefined, async () => {
      const ids = [...new Set(threadIds)];
      const request = closeRequest(ids);
      const res = await call(ctx, request);
      if (res.status !== 200) return { ok: false, request: describeRequest(request), replay: replay(ctx, request), expected: '200', actual: `${res.status} ${res.text.slice(0, 300)}` };
      const schema = schemaValidator('ThreadsCloseResult')(res.body);
      if (!schema.valid) return { ok: false, request: describeRequest(request), replay: replay(ctx, request), expected: 'a ThreadsCloseResult', actual: schema.errors.join('; ') };
      firstClose = partition(ids, res.body as CloseResult);
      return { ok: true, request: describeRequest(request), replay: replay(ctx, request), expected: 'each identifier in one list', actual: JSON.stringify(res.body) };
    }));

    results.push(await check(ctx, stage, 'closing closed threads again reports them as already resolved; unknown ones stay unknown', 'described', undefined, async () => {
      if (!firstClose) throw new Error('the first close failed');
      const request = closeRequest(threadIds);
      const res = await call(ctx, request);
      const second = partition(threadIds, res.body as CloseResult);
      const wrong = [...firstClose]
        .filter(([, list]) => list !== 'not_resolved_due_to_system_error')
        .map(([id, list]) => [id, list === 'not_existing_threads' ? 'not_existing_threads' : 'already_resolved_threads', second.get(id)] as const)
        .filter(([, want, got]) => want !== got);
      return {
        ok: res.status === 200 && wrong.length === 0,
        request: describeRequest(request), replay: replay(ctx, request),
        expected: 'closed threads in already_resolved_threads, unknown ones in not_existing_threads',
        actual: wrong.length ? wrong.map(([id, want, got]) => `${id} in ${got}, expected ${want}`).join('; ') : JSON.stringify(res.body),
      };
    }));

    if (runs(ctx, 'decision')) results.push(await check(ctx, stage, 'a subscriber created twice is rejected the second time', 'decision', undefined, async () => {
      const created = pair('createSubscriber', 'createdBlacklisted');
      const { body } = prepare(created, ctx.values);
      const request = pairRequest(ctx.server, created, ctx.credentials, () => body);
      const first = await call(ctx, request);
      const second = await call(ctx, request);
      return {
        ok: first.status === 200 && second.status === 400 && second.body?.title === 'subscriber-already-exists',
        request: describeRequest(request), replay: replay(ctx, request),
        expected: 'first 200, then 400 subscriber-already-exists',
        actual: `first ${first.status}, then ${second.status} ${second.text.slice(0, 200)}`,
      };
    }));
    return results;
  },
};
