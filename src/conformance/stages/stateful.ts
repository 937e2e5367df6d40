// Stage stateful: the description's rules that need more than one call. Each holds whatever state
// the service starts from: the identifiers a deployment takes once are new on every run, and a
// thread's outcome is judged against the answer before it. Every answer is a case, judged by the
// registry of checks (checks.ts): a rule says only what the document allows at each step.
import { examplePair as pair, examplePairs, type ExamplePair } from '../../core/examples.ts';
import { errorStatuses } from '../expectations.ts';
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
import { prepare, substitute } from '../vars.ts';
import type { Answer } from '../transport.ts';

const lists = [
  'resolved_threads',
  'not_existing_threads',
  'already_resolved_threads',
  'not_resolved_due_to_system_error',
] as const;
type CloseResult = Record<(typeof lists)[number], number[]>;

/** One step of a rule: the request, what the document allows as its answer (given the answer, for "any error"), and the fields a success must have. */
interface Step {
  example: ExamplePair;
  request: PairRequest;
  expectation: Expectation | ((answer: Answer) => Expectation);
  fields?: Record<string, unknown>;
}

/** Sends each step in turn and judges each answer; the rule fails at the first step whose answer fails. */
async function steps(ctx: SuiteContext, all: Step[], expected: string): Promise<CheckOutcome & { last?: Answer }> {
  let last: Answer | undefined;
  let outcome: CheckOutcome | undefined;
  for (const [i, step] of all.entries()) {
    const sent = await send(ctx, step.request);
    const at = `step ${i + 1} of ${all.length}`;
    if (!sent.answer) return noAnswer(step.request, expected, `${at}: ${sent.error}`);
    last = sent.answer;
    outcome = verdict(
      {
        operation: step.example.operation,
        request: step.request,
        expectation: typeof step.expectation === 'function' ? step.expectation(sent.answer) : step.expectation,
        ...(step.fields ? { fields: step.fields } : {}),
      },
      sent.answer,
    );
    if (!outcome.ok) return { ...outcome, expected, actual: `${at}: ${outcome.actual}` };
  }
  return { ...outcome!, expected, last };
}

const accepted = (example: ExamplePair): Expectation => ({
  allowed: [{ status: 200 }],
  kind: 'described',
  basis: `${example.operation.pointer}/responses/200`,
});
const refusedWith = (code: string, basis: string): Expectation => ({
  allowed: [{ status: 400, code }],
  kind: 'described',
  basis,
});

/** What a rule found for the rules after it: the first close's outcome and answer. */
interface Found {
  firstClose?: CheckOutcome & { last?: Answer };
}

/** A stateful check: what it is, and its body, given what earlier checks of the stage found. */
interface Rule {
  spec: CheckSpec;
  run(ctx: SuiteContext, found: Found): Promise<CheckOutcome>;
}

const threadExamples = ['resolved', 'notExisting', 'alreadyResolved', 'notResolvedDueToSystemError'];
const threadIds = (ctx: SuiteContext) =>
  threadExamples.flatMap(
    (name) => substitute(pair('closeThreads', name).requestBody as { threadIds: number[] }, ctx.values).threadIds,
  );
const closeRequest = (ctx: SuiteContext, ids: number[]) =>
  pairRequest(ctx.server, pair('closeThreads', 'resolved'), ctx.credentials, () => ({ threadIds: ids }));
/** The request of the `scheduled` example with a requestId of its own (the same at each send of this request). */
const scheduledRequest = (ctx: SuiteContext) => {
  const scheduled = pair('scheduleCascade', 'scheduled');
  return pairRequest(ctx.server, scheduled, ctx.credentials, () => prepare(scheduled, ctx.values).body);
};
const threadsPointer = '#/paths/~1api~1v1~1threads~1close/post/responses/200';

const requestIdBasis = '#/components/schemas/RequestId/description';

const rules = (profile: SuiteContext['profile']): Rule[] => [
  {
    spec: {
      stage: 'stateful',
      name: 'a reused requestId is rejected with requestId-is-not-unique',
      kind: 'described',
      basis: requestIdBasis,
    },
    run(ctx) {
      const example = pair('scheduleCascade', 'scheduled');
      const request = scheduledRequest(ctx);
      return steps(
        ctx,
        [
          { example, request, expectation: accepted(example) },
          { example, request, expectation: refusedWith('requestId-is-not-unique', requestIdBasis) },
        ],
        'first 200, then 400 requestId-is-not-unique',
      );
    },
  },
  {
    // Distinct identifiers: how a repeated one is reported is a decision (the repeatedId example).
    spec: {
      stage: 'stateful',
      name: 'every identifier is reported in exactly one of the four lists',
      kind: 'described',
      basis: threadsPointer,
    },
    async run(ctx, found) {
      const example = pair('closeThreads', 'resolved');
      const request = closeRequest(ctx, [...new Set(threadIds(ctx))]);
      found.firstClose = await steps(
        ctx,
        [{ example, request, expectation: accepted(example) }],
        'each identifier in one list',
      );
      return found.firstClose;
    },
  },
  {
    spec: {
      stage: 'stateful',
      name: 'closing closed threads again reports them as already resolved; unknown ones stay unknown',
      kind: 'described',
      basis: threadsPointer,
    },
    run(ctx, found) {
      if (!found.firstClose) throw new Error('the first close did not run');
      // This rule reads the first close's answer: where that failed, it fails with the same faults.
      if (!found.firstClose.ok) return Promise.resolve(found.firstClose);
      const first = found.firstClose.last!.body as CloseResult;
      const example = pair('closeThreads', 'resolved');
      // Closed now or before: already resolved; unknown: still unknown; a system error may have closed it or not.
      const unsure = first.not_resolved_due_to_system_error;
      const fields = {
        resolved_threads: [],
        not_existing_threads: first.not_existing_threads,
        already_resolved_threads: [...first.resolved_threads, ...first.already_resolved_threads],
      };
      const request = closeRequest(
        ctx,
        [...new Set(threadIds(ctx))].filter((id) => !unsure.includes(id)),
      );
      return steps(
        ctx,
        [{ example, request, expectation: accepted(example), fields }],
        'closed threads in already_resolved_threads, unknown ones in not_existing_threads',
      );
    },
  },
  subscriberTwice(profile),
  {
    spec: {
      stage: 'stateful',
      name: 'a requestId used earlier is still refused after other requests',
      kind: 'described',
      basis: requestIdBasis,
    },
    run(ctx) {
      const example = pair('scheduleCascade', 'scheduled');
      const first = scheduledRequest(ctx);
      // Other accepted requests in between, each with a requestId of its own.
      const between = successExamples()
        .slice(1)
        .map((name): Step => {
          const other = pair('scheduleCascade', name);
          const request = pairRequest(ctx.server, other, ctx.credentials, () => prepare(other, ctx.values).body);
          return { example: other, request, expectation: accepted(other) };
        });
      return steps(
        ctx,
        [
          { example, request: first, expectation: accepted(example) },
          ...between,
          { example, request: first, expectation: refusedWith('requestId-is-not-unique', requestIdBasis) },
        ],
        'first 200, then, after other requests, 400 requestId-is-not-unique',
      );
    },
  },
  {
    spec: {
      stage: 'stateful',
      name: 'the account without balance is refused every time, on every channel',
      kind: 'described',
      basis: '#/paths/~1api~1cascade~1schedule/post/responses/400/content/application~1json/examples/outOfBalance',
    },
    run(ctx) {
      if (!ctx.credentials.apiKeyNoBalance)
        throw new Error('no API key of an account without balance (--api-key-no-balance)');
      // Each accepted example (every channel and content kind) twice: a balance checked once per key, or per channel,
      // shows.
      const basis =
        '#/paths/~1api~1cascade~1schedule/post/responses/400/content/application~1json/examples/outOfBalance';
      return everySuccessExampleTwice(
        ctx,
        'no-balance',
        () => refusedWith('out-of-balance', basis),
        '400 out-of-balance',
      );
    },
  },
  {
    spec: {
      stage: 'stateful',
      name: 'the account with balance is accepted every time',
      kind: 'described',
      basis: '#/paths/~1api~1cascade~1schedule/post/responses/200',
    },
    run(ctx) {
      return everySuccessExampleTwice(ctx, undefined, accepted, '200');
    },
  },
];

/** Sends every accepted example of schedule cascade twice, with the credentials given; each answer as `expectation` says. */
function everySuccessExampleTwice(
  ctx: SuiteContext,
  credentials: 'no-balance' | undefined,
  expectation: (example: ExamplePair) => Expectation,
  expected: string,
): Promise<CheckOutcome> {
  const all = [...successExamples(), ...successExamples()].map((name): Step => {
    const example = pair('scheduleCascade', name);
    const request = pairRequest(
      ctx.server,
      credentials ? { ...example, trigger: { ...example.trigger, credentials } } : example,
      ctx.credentials,
      () => prepare(example, ctx.values).body,
    );
    return { example, request, expectation: expectation(example) };
  });
  return steps(ctx, all, `${expected} for each of ${successExamples().length} requests, twice`);
}

/** The named examples of schedule cascade that the document says are accepted. */
const successExamples = () =>
  examplePairs()
    .filter((p) => p.operation.operationId === 'scheduleCascade' && p.paired && p.status === 200)
    .map((p) => p.name);

/**
 * The address of type EXT_USER_ID is the subscriber's unique identifier, and a failure "returns an
 * error code": the second creation must fail. Its status and code are this contract's decision.
 */
function subscriberTwice(profile: SuiteContext['profile']): Rule {
  const strict = profile === 'strict';
  const created = pair('createSubscriber', 'createdBlacklisted');
  const second: Expectation = strict
    ? {
        allowed: [{ status: 400, code: 'subscriber-already-exists' }],
        kind: 'decision',
        basis: '#/paths/~1api~1subscribers~1create/post/responses/400',
      }
    : {
        allowed: errorStatuses(created.operation).map((status) => ({ status })),
        kind: 'described',
        basis:
          '#/components/schemas/SubscriberAddress/properties/address/description, #/paths/~1api~1subscribers~1create/post/description ("returns an error code": any error, as a problem body)',
      };
  // Described, any error status passes: the one that came, when it is an error.
  const refused = (answer: Answer): Expectation =>
    strict || answer.status < 400 ? second : { ...second, allowed: [{ status: answer.status }] };
  return {
    spec: {
      stage: 'stateful',
      name: `a subscriber created twice is rejected the second time${strict ? ' with subscriber-already-exists' : ''}`,
      kind: second.kind,
      basis: second.basis,
    },
    run(ctx) {
      const { body } = prepare(created, ctx.values); // a fresh external identifier on every run
      const request = pairRequest(ctx.server, created, ctx.credentials, () => body);
      return steps(
        ctx,
        [
          { example: created, request, expectation: accepted(created) },
          { example: created, request, expectation: refused },
        ],
        `first 200, then ${strict ? '400 subscriber-already-exists' : 'an error with a problem body'}`,
      );
    },
  };
}

const selected = (ctx: SuiteContext) => rules(ctx.profile).filter((r) => runs(ctx, r.spec.kind));

export const statefulStage: Stage = {
  needs: [
    ...threadExamples.map((name) => ['closeThreads', name] as const),
    ['scheduleCascade', 'scheduled'],
    ['createSubscriber', 'createdBlacklisted'],
  ],
  name: 'stateful',
  description:
    'rules that need more than one call: a reused requestId (also after other requests), closing closed threads, one list per identifier, a subscriber created twice, the account without balance refused every time, the one with balance accepted every time',
  count: (ctx) => selected(ctx).length,
  async run(ctx: SuiteContext): Promise<CheckResult[]> {
    const found: Found = {};
    const results: CheckResult[] = [];
    for (const rule of selected(ctx)) results.push(await check(ctx, rule.spec, () => rule.run(ctx, found)));
    return results;
  },
};
