// Stage examples: every named example pair is sent; its status, content type, `title`, body schema and (for a success)
// the example's fields are checked. Where the description allows another answer than the example's the default profile
// accepts it (expectations.ts); where the example needs a state the suite cannot know (an open thread), any holds.
import { examplePairs, validRequestBody, type ExamplePair } from '../../core/examples.ts';
import { planStage, type Sent, type SuiteContext } from '../suite/context.ts';
import type { Outcome } from '../ground/model.ts';
import { pairExpectation } from '../document/expectations.ts';
import { pairCase, pairRequest, type PairRequest } from '../document/pairs.ts';
import { missingFixtures, preparedRequest } from '../suite/vars.ts';
import { sentAgain } from '../document/policy.ts';

type Lists = Record<string, unknown[]>;

// The lists a send moves identifiers from (`x-sent-again`: to another list when the same request is sent again), where a
// success lists some: with the state unknown, an earlier send (an earlier run) may have moved them already.
function moving(pair: ExamplePair): Array<[string, string]> {
  const again = pair.status < 300 ? sentAgain(pair.operation, pair.status) : undefined;
  return Object.entries(again ?? {}).flatMap(([from, lists]) =>
    lists
      .filter((to) => from !== to && ((pair.response as Lists)?.[from]?.length ?? 0) > 0)
      .map((to): [string, string] => [from, to]),
  );
}

export const examplesStage = planStage('examples', 'every named request/response example pair of the document', (ctx) =>
  // A pair whose fixture the deployment lacks is not exercised (the coverage says which vars key would).
  examplePairs()
    .filter((pair) => missingFixtures(pair, ctx.values).length === 0)
    .map((pair) => {
      const expectation = pairExpectation(pair, ctx.profile);
      const moves = moving(pair);
      const unknownState = !ctx.mock && !ctx.stateKnown && moves.length > 0;
      const either = moves.map(([from, to]) => `${from} may be in ${to} after an earlier send: either was accepted`);
      return {
        name: `${pair.operation.operationId} ${pair.status} ${pair.name}`,
        kind: expectation.kind,
        basis: expectation.basis,
        covers: {
          operationId: pair.operation.operationId,
          status: pair.status,
          code: (pair.response as { title?: string })?.title,
          example: pair.name,
          ...(unknownState ? { needsReset: `an identifier the example lists in ${either.join('; ')}` } : {}),
        },
        run: () => (ctx.mock ? askMock(ctx, pair) : sendPair(ctx, pair, unknownState ? moves : [])),
      };
    }),
);

// A mock is asked for the example by name, with a request it accepts (its path, method, credentials, a valid body).
function askMock(ctx: SuiteContext, pair: ExamplePair): Promise<Outcome> {
  const request = pairRequest(ctx.server, { ...pair, trigger: {} }, ctx.credentials, validRequestBody(pair));
  const prefer = `code=${pair.status}, example=${pair.name}`;
  return ctx.sendCase(caseOf(ctx, pair, request, pair.response), { prefer });
}

async function sendPair(ctx: SuiteContext, pair: ExamplePair, moves: Array<[string, string]>): Promise<Outcome> {
  // The dredd stage sent this very request in this run: its answer is judged here, not asked for again.
  const earlier = pair.trigger.sendTwice ? undefined : ctx.sentExamples.get(pair);
  const { request, expected } = earlier ?? preparedRequest(ctx, pair);
  const judged = (fields: unknown, sent: Sent) => ctx.judged(caseOf(ctx, pair, request, fields), sent);
  // The first of two sends makes the state the example is about (a value used before): only the rules over time judge it.
  const first = pair.trigger.sendTwice ? await ctx.send(request) : undefined;
  if (first && !first.answer) return { ...judged(expected, first), expected: 'an answer to the first of two sends' };
  const got = earlier ? { answer: earlier.answer, overTime: [] } : await ctx.send(request);
  const sent = { ...got, overTime: [...(first?.overTime ?? []), ...got.overTime] };
  if (!moves.length || !sent.answer) return judged(expected, sent);
  // The send moves identifiers between lists and the state is unknown (no reset hook): each may come back in its list
  // or where an earlier send moved it. Where a send moves it is the stateful stage's rule (`x-sent-again`).
  const lists = (sent.answer.body ?? {}) as Lists;
  const widened = { ...(expected as Lists) };
  for (const [from, to] of moves) {
    const movedBefore = new Set(Array.isArray(lists[to]) ? lists[to] : []);
    widened[from] = (expected as Lists)[from]!.filter((id) => !movedBefore.has(id));
    widened[to] = [...(widened[to] ?? []), ...(expected as Lists)[from]!.filter((id) => movedBefore.has(id))];
  }
  return judged(widened, sent);
}

/** The case of a pair's request: the answers the document allows for the pair, and the fields `expected` holds. */
const caseOf = (ctx: SuiteContext, pair: ExamplePair, request: PairRequest, expected: unknown) =>
  pairCase(pair, request, pairExpectation(pair, ctx.profile), expected);
