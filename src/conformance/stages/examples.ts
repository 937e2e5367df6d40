// Stage examples: every named example pair is sent and its status, content type, `title`, body
// schema and (for a success) the example's fields are checked. Where the description allows
// another answer than the example's, the default profile accepts it (expectations.ts); where the
// example needs a starting state the suite cannot know (an open thread), the check holds for any.
import { examplePairs, validRequestBody, type ExamplePair } from '../../core/examples.ts';
import {
  check,
  noAnswer,
  runs,
  send,
  sendCase,
  verdict,
  type CheckOutcome,
  type CheckResult,
  type Stage,
  type SuiteContext,
} from '../stage-runtime.ts';
import { pairExpectation } from '../expectations.ts';
import { pairCase, pairRequest, type PairRequest } from '../pairs.ts';
import { prepare } from '../vars.ts';
import type { Answer } from '../transport.ts';

const selected = (ctx: SuiteContext) => examplePairs().filter((p) => runs(ctx, pairExpectation(p, ctx.profile).kind));

type CloseResult = Record<'resolved_threads' | 'already_resolved_threads', unknown[]>;

/**
 * A close-threads success that closes threads: with the state unknown, a thread the example says is open may have been
 * closed before.
 */
const closesThreads = (pair: ExamplePair) =>
  pair.operation.operationId === 'closeThreads' &&
  pair.status === 200 &&
  ((pair.response as CloseResult).resolved_threads?.length ?? 0) > 0;

export const examplesStage: Stage = {
  name: 'examples',
  description: 'every named request/response example pair of the document',
  count: (ctx) => selected(ctx).length,
  async run(ctx: SuiteContext): Promise<CheckResult[]> {
    const results: CheckResult[] = [];
    for (const pair of selected(ctx)) {
      const expectation = pairExpectation(pair, ctx.profile);
      const unknownState = !ctx.mock && !ctx.stateKnown && closesThreads(pair);
      const covers = {
        operationId: pair.operation.operationId,
        status: pair.status,
        code: (pair.response as { title?: string })?.title,
        example: pair.name,
        ...(unknownState
          ? {
              needsReset:
                'a thread the example closes may have been closed before this stage: resolved or already resolved was accepted',
            }
          : {}),
      };
      const spec = {
        stage: 'examples',
        name: `${pair.operation.operationId} ${pair.status} ${pair.name}`,
        kind: expectation.kind,
        basis: expectation.basis,
        covers,
      };
      results.push(await check(ctx, spec, () => (ctx.mock ? askMock(ctx, pair) : sendPair(ctx, pair, unknownState))));
    }
    return results;
  },
};

/**
 * A mock is asked for the example by name, with a request it accepts (the operation's own path, method, credentials and
 * a valid body).
 */
async function askMock(ctx: SuiteContext, pair: ExamplePair): Promise<CheckOutcome> {
  const body = validRequestBody(pair);
  const request = pairRequest(ctx.server, { ...pair, trigger: {} }, ctx.credentials, () => body);
  return judged(ctx, pair, request, pair.response, { prefer: `code=${pair.status}, example=${pair.name}` });
}

async function sendPair(ctx: SuiteContext, pair: ExamplePair, unknownState: boolean): Promise<CheckOutcome> {
  const { body, expected } = prepare(pair, ctx.values);
  const request = pairRequest(ctx.server, pair, ctx.credentials, () => body);
  if (pair.trigger.sendTwice) {
    // The first send makes the state the example is about (a requestId or a subscriber used before); its answer is not
    // judged.
    const first = await send(ctx, request);
    if (!first.answer) return noAnswer(request, 'an answer to the first of two sends', first.error);
  }
  if (!unknownState) return judged(ctx, pair, request, expected);
  return closeFromUnknownState(ctx, pair, request, expected as CloseResult);
}

/** Sends the request (or takes the answer given) and judges it against what the document allows for the pair. */
function judged(
  ctx: SuiteContext,
  pair: ExamplePair,
  request: PairRequest,
  expected: unknown,
  headers: Record<string, string> = {},
  given?: Answer,
): Promise<CheckOutcome> | CheckOutcome {
  const c = pairCase(pair, request, pairExpectation(pair, ctx.profile), expected);
  return given ? verdict(c, given) : sendCase(ctx, c, headers);
}

/**
 * Closing threads the example says are open, when the suite cannot know that they still are (no
 * reset hook): each may come back resolved or already resolved (the description's state table),
 * and must come back already resolved when the same request is sent again.
 */
async function closeFromUnknownState(
  ctx: SuiteContext,
  pair: ExamplePair,
  request: PairRequest,
  expected: CloseResult,
): Promise<CheckOutcome> {
  const { answer, error } = await send(ctx, request);
  if (!answer) return noAnswer(request, '200', error);
  const closedBefore = new Set(
    Array.isArray((answer.body as CloseResult)?.already_resolved_threads)
      ? (answer.body as CloseResult).already_resolved_threads
      : [],
  );
  const opened = expected.resolved_threads;
  const widened = {
    ...expected,
    resolved_threads: opened.filter((id) => !closedBefore.has(id)),
    already_resolved_threads: [...expected.already_resolved_threads, ...opened.filter((id) => closedBefore.has(id))],
  };
  const first = await judged(ctx, pair, request, widened, {}, answer);
  if (!first.ok) return first;
  const again = await send(ctx, request);
  if (!again.answer) return noAnswer(request, 'an answer to the second close', again.error);
  // Sent again, every thread the example closes is already resolved.
  const closed = {
    ...expected,
    resolved_threads: [],
    already_resolved_threads: [...expected.already_resolved_threads, ...opened],
  };
  const second = await judged(ctx, pair, request, closed, {}, again.answer);
  return second.ok
    ? first
    : { ...second, expected: `${first.expected}; sent again, ${opened.join(', ')} in already_resolved_threads` };
}
