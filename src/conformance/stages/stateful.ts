// Stage stateful: the description's rules that need more than one call, read from the document's
// keys (policy.ts): a value a deployment takes once is refused the second time, also after other
// requests; every identifier is in one list of the answer, and where `x-sent-again` says when sent
// again; the account without balance is refused every time, the one with balance accepted every
// time. Each holds whatever state the service starts from: the values taken once are new on every
// run, and the second close is judged against the answer to the first. Every answer is a case,
// judged by the registry of checks (checks.ts): a rule says only what the document allows at each step.
import { normalizeErrorCode } from '../../core/error-codes.ts';
import { documentOperations, examplePairs, type ExamplePair, type Operation } from '../../core/examples.ts';
import { errorStatuses, examplePointer } from '../expectations.ts';
import type { Expectation } from '../case.ts';
import {
  check,
  noAnswer,
  runs,
  send,
  verdict,
  type CheckOutcome,
  type CheckResult,
  type CheckSpec,
  type Stage,
  type SuiteContext,
} from '../stage-runtime.ts';
import { pairRequest, type PairRequest } from '../pairs.ts';
import { listedOnce, sentAgain, takenOnce } from '../policy.ts';
import { prepare, substitute } from '../vars.ts';
import type { Answer } from '../transport.ts';

/** One step of a rule: the request, what the document allows as its answer (given the answer, for "any error"), and the fields a success must have. */
interface Step {
  operation: Operation;
  request: PairRequest;
  expectation: Expectation | ((answer: Answer) => Expectation);
  fields?: Record<string, unknown>;
}

type Outcome = CheckOutcome & { last?: Answer };

/** Sends each step in turn and judges each answer; the rule fails at the first step whose answer fails. */
async function steps(ctx: SuiteContext, all: Step[], expected: string): Promise<Outcome> {
  let last: Answer | undefined;
  let outcome: CheckOutcome | undefined;
  for (const [i, step] of all.entries()) {
    const sent = await send(ctx, step.request);
    const at = `step ${i + 1} of ${all.length}`;
    if (!sent.answer) return noAnswer(step.request, expected, `${at}: ${sent.error}`);
    last = sent.answer;
    const expectation = typeof step.expectation === 'function' ? step.expectation(sent.answer) : step.expectation;
    const { operation, request, fields } = step;
    outcome = verdict({ operation, request, expectation, ...(fields ? { fields } : {}) }, sent.answer, ctx.profile);
    if (!outcome.ok) return { ...outcome, expected, actual: `${at}: ${outcome.actual}` };
  }
  return { ...outcome!, expected, last };
}

const accepted = (op: Operation): Expectation => ({
  allowed: [{ status: 200 }],
  kind: 'described',
  basis: `${op.pointer}/responses/200`,
});

/** The named examples of `op` that the document says are accepted, each sendable alone. */
const successes = (op: Operation) =>
  examplePairs().filter(
    (p) => p.operation.operationId === op.operationId && p.paired && p.status === 200 && !p.trigger.sendTwice,
  );

/** The example's request for this run: values substituted, values taken once new, the credentials given. */
const requestOf = (ctx: SuiteContext, example: ExamplePair, credentials?: 'no-balance') =>
  pairRequest(
    ctx.server,
    credentials ? { ...example, trigger: { ...example.trigger, credentials } } : example,
    ctx.credentials,
    () => prepare(example, ctx.values).body,
  );

/** A rule: what it is, and its body, given what the rules before it found. */
interface Rule {
  spec: CheckSpec;
  run(ctx: SuiteContext, found: Map<string, Outcome>): Promise<CheckOutcome>;
}

/**
 * A value taken once (`x-taken-once`) sent again is refused: with the code the document gives for
 * it, or, where that code is this contract's decision, under the default profile with any error
 * (the description: "an error code is returned").
 */
function takenOnceRules(op: Operation, profile: SuiteContext['profile']): Rule[] {
  const once = takenOnce(op);
  const [first, ...others] = successes(op);
  if (!once || !first) return [];
  const example = examplePairs().find(
    (p) =>
      p.operation.operationId === op.operationId &&
      normalizeErrorCode(String((p.response as { title?: unknown })?.title)) === normalizeErrorCode(once.code),
  );
  const exact = example !== undefined && (example.kind === 'described' || profile === 'strict');
  const refused: Expectation = exact
    ? { allowed: [{ status: example.status, code: once.code }], kind: example.kind, basis: examplePointer(example) }
    : {
        allowed: errorStatuses(op).map((status) => ({ status })),
        kind: 'described',
        basis: `${op.pointer}/x-taken-once (a value used before is refused: any error, as a problem body)`,
      };
  // Any error passes where no code is held: the one that came, when it is an error.
  const refusal = (answer: Answer): Expectation =>
    exact || answer.status < 400 ? refused : { ...refused, allowed: [{ status: answer.status }] };
  const then = exact ? `${refused.allowed[0]!.status} ${once.code}` : 'an error with a problem body';
  const rules: Rule[] = [
    {
      spec: {
        stage: 'stateful',
        name: `${op.operationId}: the same ${once.field} sent twice is refused the second time${exact ? ` with ${once.code}` : ''}`,
        kind: refused.kind,
        basis: refused.basis,
        covers: { operationId: op.operationId },
      },
      run(ctx) {
        const request = requestOf(ctx, first);
        return steps(
          ctx,
          [
            { operation: op, request, expectation: accepted(op) },
            { operation: op, request, expectation: refusal },
          ],
          `first 200, then ${then}`,
        );
      },
    },
  ];
  if (others.length > 0)
    rules.push({
      spec: {
        stage: 'stateful',
        name: `${op.operationId}: a ${once.field} used earlier is still refused after other requests`,
        kind: refused.kind,
        basis: refused.basis,
        covers: { operationId: op.operationId },
      },
      run(ctx) {
        const request = requestOf(ctx, first);
        // Other accepted requests in between, each with values of its own.
        const between = others.map((other) => ({
          operation: op,
          request: requestOf(ctx, other),
          expectation: accepted(op),
        }));
        return steps(
          ctx,
          [
            { operation: op, request, expectation: accepted(op) },
            ...between,
            { operation: op, request, expectation: refusal },
          ],
          `first 200, then, after other requests, ${then}`,
        );
      },
    });
  return rules;
}

/**
 * Every identifier sent is in one list of the answer (`x-lists-each-once`), and sent again each
 * is where `x-sent-again` says; one in a list it does not name (a system error) is not sent again.
 */
function listRules(op: Operation): Rule[] {
  const field = listedOnce(op, 200);
  const again = sentAgain(op, 200);
  if (!field) return [];
  const basis = `${op.pointer}/responses/200`;
  const template = successes(op)[0]!;
  const idsOf = (ctx: SuiteContext) => [
    ...new Set(
      successes(op).flatMap(
        (p) => substitute((p.requestBody as Record<string, unknown[]>)[field] ?? [], ctx.values) as unknown[],
      ),
    ),
  ];
  const sending = (ctx: SuiteContext, ids: unknown[]) =>
    pairRequest(ctx.server, template, ctx.credentials, () => ({ [field]: ids }));
  const rules: Rule[] = [
    {
      spec: {
        stage: 'stateful',
        name: `${op.operationId}: every identifier of ${field} is reported in exactly one list`,
        kind: 'described',
        basis,
        covers: { operationId: op.operationId },
      },
      async run(ctx, found) {
        const outcome = await steps(
          ctx,
          [{ operation: op, request: sending(ctx, idsOf(ctx)), expectation: accepted(op) }],
          'each identifier in one list',
        );
        found.set(op.operationId, outcome);
        return outcome;
      },
    },
  ];
  if (again)
    rules.push({
      spec: {
        stage: 'stateful',
        name: `${op.operationId}: the same ${field} sent again, each identifier is where the document says (${Object.entries(
          again,
        )
          .map(([from, to]) => `${from} -> ${to}`)
          .join(', ')})`,
        kind: 'described',
        basis: `${basis}/x-sent-again`,
        covers: { operationId: op.operationId },
      },
      async run(ctx, found) {
        const first = found.get(op.operationId);
        if (!first) throw new Error('the first send did not run');
        // This rule reads the first send's answer: where that failed, it fails with the same faults.
        if (!first.ok) return first;
        const lists = first.last!.body as Record<string, unknown[]>;
        const fields: Record<string, unknown[]> = Object.fromEntries(Object.values(again).map((to) => [to, []]));
        for (const [from, to] of Object.entries(again)) fields[to]!.push(...(lists[from] ?? []));
        for (const from of Object.keys(again)) fields[from] ??= [];
        const ids = idsOf(ctx).filter((id) => Object.entries(again).some(([from]) => lists[from]?.includes(id)));
        return steps(
          ctx,
          [{ operation: op, request: sending(ctx, ids), expectation: accepted(op), fields }],
          'each identifier in the list x-sent-again names',
        );
      },
    });
  return rules;
}

/**
 * The account without balance (an example sent with `credentials: no-balance`) is refused every
 * time, on every accepted request twice (a balance checked once per key, or per channel, shows),
 * and the account with balance accepted every time.
 */
function balanceRules(op: Operation): Rule[] {
  const refused = examplePairs().find(
    (p) => p.operation.operationId === op.operationId && p.trigger.credentials === 'no-balance',
  );
  const all = [...successes(op), ...successes(op)];
  if (!refused || all.length === 0) return [];
  const title = (refused.response as { title?: string }).title;
  const noBalance: Expectation = {
    allowed: [{ status: refused.status, ...(title ? { code: title } : {}) }],
    kind: refused.kind,
    basis: examplePointer(refused),
  };
  const times = `for each of ${all.length / 2} requests, twice`;
  return [
    {
      spec: {
        stage: 'stateful',
        name: `${op.operationId}: the account without balance is refused every time, on every channel`,
        kind: refused.kind,
        basis: noBalance.basis,
        covers: { operationId: op.operationId },
      },
      run(ctx) {
        if (!ctx.credentials.apiKeyNoBalance)
          throw new Error('no API key of an account without balance (--api-key-no-balance)');
        const sends = all.map((p) => ({
          operation: op,
          request: requestOf(ctx, p, 'no-balance'),
          expectation: noBalance,
        }));
        return steps(ctx, sends, `${refused.status} ${title ?? ''} ${times}`);
      },
    },
    {
      spec: {
        stage: 'stateful',
        name: `${op.operationId}: the account with balance is accepted every time`,
        kind: 'described',
        basis: `${op.pointer}/responses/200`,
        covers: { operationId: op.operationId },
      },
      run(ctx) {
        const sends = all.map((p) => ({ operation: op, request: requestOf(ctx, p), expectation: accepted(op) }));
        return steps(ctx, sends, `200 ${times}`);
      },
    },
  ];
}

const rules = (profile: SuiteContext['profile']): Rule[] =>
  documentOperations().flatMap((op) => [...takenOnceRules(op, profile), ...listRules(op), ...balanceRules(op)]);

const selected = (ctx: SuiteContext) => rules(ctx.profile).filter((r) => runs(ctx, r.spec.kind));

export const statefulStage: Stage = {
  name: 'stateful',
  description:
    'rules that need more than one call: a value taken once refused the second time (also after other requests), one list per identifier and where each goes when sent again, the account without balance refused every time, the one with balance accepted every time',
  count: (ctx) => selected(ctx).length,
  async run(ctx: SuiteContext): Promise<CheckResult[]> {
    const found = new Map<string, Outcome>();
    const results: CheckResult[] = [];
    for (const rule of selected(ctx)) results.push(await check(ctx, rule.spec, () => rule.run(ctx, found)));
    return results;
  },
};
