// Stage stateful: the description's rules that need more than one call (the stage's description lists them), read from
// the document's keys (policy.ts). Each holds whatever state the service starts from: the values taken once are new on
// every run, and the second close is judged against the answer to the first. Every answer is a case for the judge (the
// context's `judged`): a rule says only what the document allows at each step.
import { normalizeErrorCode } from '../../core/error-codes.ts';
import { documentOperations, examplePairs, successExamples } from '../../core/examples.ts';
import type { ExamplePair, Operation } from '../../core/examples.ts';
import { anyError, exampleExpectation, examplePointer, statusExpectation } from '../document/expectations.ts';
import { planStage, type Planned, type SuiteContext } from '../suite/context.ts';
import { fails, type Answer, type Expectation, type Outcome } from '../ground/model.ts';
import { pairRequest, type PairRequest } from '../document/pairs.ts';
import { listedOnce, sentAgain, takenOnce, takenOnceBy } from '../document/policy.ts';
import { missingFixtures, prepare, preparedRequest, substitute, withFreshIdentifiers } from '../suite/vars.ts';
import { pointBasis } from '../../core/open-points.ts';

/** One step of a rule: the request, what the document allows as its answer, and the fields a success must have. */
type Step = { request: PairRequest; expectation: Expectation; fields?: Record<string, unknown> };
type Ruled = Outcome & { last?: Answer };
type Holds = Pick<Expectation, 'kind' | 'basis'>;

/** Sends each step in turn and has each answer judged; the rule fails at the first step whose answer fails. */
async function steps(ctx: SuiteContext, operation: Operation, all: Step[], expected: string): Promise<Ruled> {
  let ruled: Ruled | undefined;
  for (const [i, step] of all.entries()) {
    const sent = await ctx.send(step.request);
    const outcome = ctx.judged({ operation, ...step }, sent);
    // A step still answered 429 leaves the rule unjudged: the steps after it would read a state it did not make.
    if (fails(outcome) || outcome.skipped)
      return { ...outcome, expected, actual: `step ${i + 1} of ${all.length}: ${outcome.actual}` };
    ruled = { ...outcome, expected, last: sent.answer ?? undefined };
  }
  return ruled!;
}

const accepted = (op: Operation) => statusExpectation(op, 200);
const pairsOf = (op: Operation) => examplePairs().filter((p) => p.operation.operationId === op.operationId);

/** How many requests with the same value taken once are sent at the same time. */
const concurrent = 5;

/** The example's request for this run: values substituted, values taken once new, the credentials given. */
const requestOf = (ctx: SuiteContext, example: ExamplePair, credentials?: 'no-balance') =>
  preparedRequest(ctx, credentials ? { ...example, trigger: { ...example.trigger, credentials } } : example).request;

/** A check of this stage: the rule, the kind and basis of what it holds, and its body. */
const rule = (op: Operation, name: string, { kind, basis }: Holds, run: () => Promise<Ruled>): Planned => ({
  name: `${op.operationId}: ${name}`,
  kind,
  basis,
  covers: { operationId: op.operationId },
  // The last answer a rule read stays with the rule: the report holds the verdict.
  run: () => run().then(({ last: _, ...outcome }: Ruled) => outcome),
});

// A value taken once (`x-taken-once`) sent again is refused: with the document's code for it, or, where that code is
// this contract's decision, under the default profile with any error (the description: "an error code is returned").
function takenOnceRules(ctx: SuiteContext, op: Operation): Planned[] {
  const once = takenOnce(op);
  const [first, ...others] = successExamples(op);
  if (!once || !first) return [];
  const own = normalizeErrorCode(once.code);
  const example = pairsOf(op).find(
    (p) => normalizeErrorCode(String((p.response as { title?: unknown })?.title)) === own,
  );
  const exact = example !== undefined && (example.kind === 'described' || ctx.profile === 'strict');
  const basis = `${op.pointer}/x-taken-once (a value used before is refused: any error, as a problem body)`;
  // Any error passes where no code is held, whatever its status.
  const refused: Expectation = exact
    ? { allowed: [{ status: example.status, code: once.code }], kind: example.kind, basis: examplePointer(example) }
    : { ...anyError(op, basis, 'described'), otherErrors: true };
  const then = exact ? `${example.status} ${once.code}` : 'an error with a problem body';
  // The value used, other accepted requests (each with values of its own), then the value again.
  const twice = (between: ExamplePair[]) => {
    const request = requestOf(ctx, first);
    const others = between.map((other) => ({ request: requestOf(ctx, other), expectation: accepted(op) }));
    const all = [{ request, expectation: accepted(op) }, ...others, { request, expectation: refused }];
    return steps(ctx, op, all, `first 200, then${others.length ? ', after other requests,' : ''} ${then}`);
  };
  // The same value in requests sent at once: one is accepted and every other refused (a check-then-store race shows).
  const atOnce = async (): Promise<Ruled> => {
    const request = requestOf(ctx, first);
    const answers = await Promise.all(Array.from({ length: concurrent }, () => ctx.send(request)));
    // The first success (or the first answer) must be a success, every other a refusal, each judged by the registry:
    // an acceptance too many is the same cause as a value accepted twice one after the other.
    const winner = answers.findIndex((a) => a.answer && a.answer.status < 300);
    const expected = `one 200 of ${concurrent} sent at once, then ${then}`;
    for (const [i, sent] of answers.entries()) {
      const expectation = i === Math.max(0, winner) ? accepted(op) : refused;
      const outcome = ctx.judged({ operation: op, request, expectation }, sent);
      if (fails(outcome))
        return { ...outcome, expected, actual: `answer ${i + 1} of ${concurrent}: ${outcome.actual}` };
    }
    return { request, expected, actual: `one accepted, ${concurrent - 1} refused` };
  };
  const code = exact ? ` with ${once.code}` : '';
  return [
    rule(op, `the same ${once.field} sent twice is refused the second time${code}`, refused, () => twice([])),
    rule(op, `the same ${once.field} in ${concurrent} requests sent at once is accepted once${code}`, refused, atOnce),
    ...(others.length
      ? [rule(op, `a ${once.field} used earlier is still refused after other requests`, refused, () => twice(others))]
      : []),
  ];
}

// Which values of a request a deployment takes once is an open point where `x-taken-once` picks one item of a list
// (`unique-addresses`): strict holds the decision, that a request sharing every other value is accepted.
function sharedValueRule(ctx: SuiteContext, op: Operation): Planned[] {
  const by = takenOnceBy(op);
  const [first] = successExamples(op);
  if (!by || !first) return [];
  const own = by.fields[by.point.decision];
  const body = prepare(first, ctx.values).body;
  const again = withFreshIdentifiers(op.operationId, body, { status: 200 }, [own]);
  const sends = [body, again].map((b) => ({
    request: pairRequest(ctx.server, first, ctx.credentials, b),
    expectation: accepted(op),
  }));
  const holds: Holds = { kind: 'decision', basis: pointBasis(by.point) };
  return [
    rule(op, `a request sharing every value but ${own} with an accepted one is accepted`, holds, () =>
      steps(ctx, op, sends, 'both 200'),
    ),
  ];
}

// Every identifier sent is in one list of the answer (`x-lists-each-once`), and sent again each is where `x-sent-again`
// says: a list it names alone holds exactly those identifiers (a state that stays, such as a thread whose closing failed
// staying open, shows as its identifiers never in it); one in a list it does not name is not sent again.
function listRules(ctx: SuiteContext, op: Operation): Planned[] {
  const field = listedOnce(op, 200);
  if (!field) return [];
  const again = sentAgain(op, 200);
  // Not a fixture the deployment lacks: an identifier of its own may stand there.
  const sent = successExamples(op)
    .filter((p) => missingFixtures(p, ctx.values).length === 0)
    .flatMap((p) => (p.requestBody as Record<string, unknown[]>)[field] ?? []);
  const ids = [...new Set(substitute(sent, ctx.values))];
  const sending = (sent: unknown[], fields?: Record<string, unknown[]>): Promise<Ruled> => {
    const request = pairRequest(ctx.server, successExamples(op)[0]!, ctx.credentials, { [field]: sent });
    const expected = fields ? 'each identifier in the list x-sent-again names' : 'each identifier in one list';
    return steps(ctx, op, [{ request, expectation: accepted(op), fields }], expected);
  };
  let first: Promise<Ruled> | undefined;
  const listed = rule(op, `every identifier of ${field} is reported in exactly one list`, accepted(op), () => {
    first = sending(ids);
    return first;
  });
  if (!again) return [listed];
  const moves = Object.entries(again);
  const where = moves.map(([from, to]) => `${from} -> ${to.join(' or ')}`).join(', ');
  // This rule reads the first send's answer: where that failed, it fails with the same faults (not judged: neither).
  const resend = async (): Promise<Ruled> => {
    const outcome = await first;
    if (!outcome) throw new Error('the first send did not run');
    if (fails(outcome) || outcome.skipped) return outcome;
    const lists = outcome.last!.body as Record<string, unknown[]>;
    // A list that may receive identifiers from a list with several destinations holds an unknown part of them.
    const open = new Set(moves.flatMap(([, to]) => (to.length > 1 ? to : [])));
    const fields: Record<string, unknown[]> = {};
    for (const [from, [to, ...more]] of moves)
      if (!more.length) fields[to!] = [...(fields[to!] ?? []), ...(lists[from] ?? [])];
    for (const [from] of moves) fields[from] ??= [];
    for (const list of open) delete fields[list];
    const moved = ids.filter((id) => moves.some(([from]) => lists[from]?.includes(id)));
    return sending(moved, fields);
  };
  const says = `the same ${field} sent again, each identifier is where the document says (${where})`;
  return [listed, rule(op, says, { kind: 'described', basis: `${op.pointer}/responses/200/x-sent-again` }, resend)];
}

// The account without balance (an example with `credentials: no-balance`) is refused every time, each accepted request
// sent twice (a balance checked once per key, or per channel, shows); the one with balance accepted every time.
function balanceRules(ctx: SuiteContext, op: Operation): Planned[] {
  const refused = pairsOf(op).find((p) => p.trigger.credentials === 'no-balance');
  const all = [...successExamples(op), ...successExamples(op)];
  if (!refused || all.length === 0) return [];
  const noBalance = exampleExpectation(refused);
  const times = `for each of ${all.length / 2} requests, twice`;
  return [
    rule(op, 'the account without balance is refused every time, on every channel', noBalance, () => {
      if (!ctx.credentials.apiKeyNoBalance)
        throw new Error('no API key of an account without balance (--api-key-no-balance)');
      const sends = all.map((p) => ({ request: requestOf(ctx, p, 'no-balance'), expectation: noBalance }));
      return steps(ctx, op, sends, `${refused.status} ${noBalance.allowed[0]!.code ?? ''} ${times}`);
    }),
    rule(op, 'the account with balance is accepted every time', accepted(op), () => {
      const sends = all.map((p) => ({ request: requestOf(ctx, p), expectation: accepted(op) }));
      return steps(ctx, op, sends, `200 ${times}`);
    }),
  ];
}

export const statefulStage = planStage(
  'stateful',
  'rules that need more than one call: a value taken once refused the second time (also after other requests, and when sent at once), one list per identifier and where each goes when sent again, the account without balance refused every time, the one with balance accepted every time',
  (ctx) =>
    documentOperations().flatMap((op) => [
      ...takenOnceRules(ctx, op),
      ...sharedValueRule(ctx, op),
      ...listRules(ctx, op),
      ...balanceRules(ctx, op),
    ]),
);
