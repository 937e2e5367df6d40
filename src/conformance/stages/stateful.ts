// Stage stateful: the description's rules that need more than one call. Each holds whatever state
// the service starts from: the identifiers a deployment takes once are new on every run, and a
// thread's outcome is judged against the answer before it.
import { normalizeErrorCode } from '../../core/error-codes.ts';
import { examplePair as pair, examplePairs } from '../../core/examples.ts';
import { schemaValidator } from '../../core/validators/all.ts';
import {
  answerOf,
  check,
  runs,
  send,
  type CheckOutcome,
  type CheckResult,
  type CheckSpec,
  type Stage,
  type SuiteContext,
} from '../stage-runtime.ts';
import { pairRequest, type PairRequest } from '../pairs.ts';
import { prepare, substitute } from '../vars.ts';

const lists = [
  'resolved_threads',
  'not_existing_threads',
  'already_resolved_threads',
  'not_resolved_due_to_system_error',
] as const;
type CloseResult = Record<(typeof lists)[number], number[]>;

async function call(ctx: SuiteContext, request: PairRequest): Promise<{ status: number; body: any; text: string }> {
  const { answer, error } = await send(ctx, request);
  if (!answer) throw new Error(`no answer from ${request.method} ${request.url}: ${error}`);
  return answer;
}

/** Which list each identifier is in; throws when one is missing, extra or in two lists. */
function partition(ids: number[], result: CloseResult): Map<number, string> {
  const faults: string[] = [];
  const where = new Map<number, string>();
  for (const list of lists) {
    if (!Array.isArray(result?.[list])) throw new Error(`${list} is missing or not a list`);
    for (const id of result[list]) {
      if (where.has(id)) faults.push(`${id} is in ${where.get(id)} and ${list}`);
      where.set(id, list);
    }
  }
  for (const id of new Set(ids)) if (!where.has(id)) faults.push(`${id} is in no list`);
  for (const id of where.keys()) if (!ids.includes(id)) faults.push(`${id} was not sent`);
  const counts = lists.reduce((n, l) => n + result[l].length, 0);
  if (counts !== new Set(ids).size) faults.push(`${counts} entries for ${new Set(ids).size} distinct identifiers`);
  if (faults.length) throw new Error(faults.join('; '));
  return where;
}

/** A stateful check: what it is, and its body, given what earlier checks of the stage found. */
interface Rule {
  spec: CheckSpec;
  run(ctx: SuiteContext, found: { firstClose?: Map<number, string> }): Promise<CheckOutcome>;
}

/** The answer to the second of two identical sends, after a first one that must succeed. */
async function twice(ctx: SuiteContext, request: PairRequest) {
  const first = await call(ctx, request);
  const second = await call(ctx, request);
  return {
    first,
    second,
    answer: answerOf(second.status, second.body),
    actual: `first ${first.status} ${first.text.slice(0, 200)}, then ${second.status} ${second.text.slice(0, 200)}`,
  };
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

const rules = (profile: SuiteContext['profile']): Rule[] => [
  {
    spec: {
      stage: 'stateful',
      name: 'a reused requestId is rejected with requestId-is-not-unique',
      kind: 'described',
      basis: '#/components/schemas/RequestId/description',
    },
    async run(ctx) {
      const request = scheduledRequest(ctx);
      const { first, second, answer, actual } = await twice(ctx, request);
      const ok =
        first.status === 200 &&
        second.status === 400 &&
        normalizeErrorCode(second.body?.title ?? '') === 'requestId-is-not-unique';
      return { ok, request, expected: 'first 200, then 400 requestId-is-not-unique', actual, answer };
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
      const ids = [...new Set(threadIds(ctx))];
      const request = closeRequest(ctx, ids);
      const res = await call(ctx, request);
      const answer = answerOf(res.status, res.body);
      if (res.status !== 200)
        return { ok: false, request, expected: '200', actual: `${res.status} ${res.text.slice(0, 300)}`, answer };
      const schema = schemaValidator('ThreadsCloseResult')(res.body);
      if (!schema.valid)
        return { ok: false, request, expected: 'a ThreadsCloseResult', actual: schema.errors.join('; '), answer };
      found.firstClose = partition(ids, res.body as CloseResult);
      return { ok: true, request, expected: 'each identifier in one list', actual: JSON.stringify(res.body), answer };
    },
  },
  {
    spec: {
      stage: 'stateful',
      name: 'closing closed threads again reports them as already resolved; unknown ones stay unknown',
      kind: 'described',
      basis: threadsPointer,
    },
    async run(ctx, found) {
      if (!found.firstClose) throw new Error('the first close failed');
      const ids = threadIds(ctx);
      const request = closeRequest(ctx, ids);
      const res = await call(ctx, request);
      const second = partition(ids, res.body as CloseResult);
      const wrong = [...found.firstClose]
        .filter(([, list]) => list !== 'not_resolved_due_to_system_error')
        .map(
          ([id, list]) =>
            [
              id,
              list === 'not_existing_threads' ? 'not_existing_threads' : 'already_resolved_threads',
              second.get(id),
            ] as const,
        )
        .filter(([, want, got]) => want !== got);
      return {
        ok: res.status === 200 && wrong.length === 0,
        request,
        expected: 'closed threads in already_resolved_threads, unknown ones in not_existing_threads',
        actual: wrong.length
          ? wrong.map(([id, want, got]) => `${id} in ${got}, expected ${want}`).join('; ')
          : JSON.stringify(res.body),
        answer: answerOf(res.status, res.body),
      };
    },
  },
  subscriberTwice(profile),
  {
    spec: {
      stage: 'stateful',
      name: 'a requestId used earlier is still refused after other requests',
      kind: 'described',
      basis: '#/components/schemas/RequestId/description',
    },
    async run(ctx) {
      const first = scheduledRequest(ctx);
      const before = await call(ctx, first);
      // Other accepted requests in between, each with a requestId of its own.
      for (const name of successExamples().slice(1))
        await call(
          ctx,
          pairRequest(
            ctx.server,
            pair('scheduleCascade', name),
            ctx.credentials,
            () => prepare(pair('scheduleCascade', name), ctx.values).body,
          ),
        );
      const again = await call(ctx, first);
      const ok =
        before.status === 200 &&
        again.status === 400 &&
        normalizeErrorCode(again.body?.title ?? '') === 'requestId-is-not-unique';
      return {
        ok,
        request: first,
        expected: 'first 200, then, after other requests, 400 requestId-is-not-unique',
        actual: `first ${before.status}, then ${again.status} ${again.text.slice(0, 200)}`,
        answer: answerOf(again.status, again.body),
      };
    },
  },
  {
    spec: {
      stage: 'stateful',
      name: 'the account without balance is refused every time, on every channel',
      kind: 'described',
      basis: '#/paths/~1api~1cascade~1schedule/post/responses/400/content/application~1json/examples/outOfBalance',
    },
    async run(ctx) {
      if (!ctx.credentials.apiKeyNoBalance)
        throw new Error('no API key of an account without balance (--api-key-no-balance)');
      // Each accepted example (every channel and content kind) twice: a balance checked once per key, or per channel,
      // shows.
      return everySuccessExampleTwice(
        ctx,
        'no-balance',
        (res) => res.status === 400 && normalizeErrorCode(res.body?.title ?? '') === 'out-of-balance',
        '400 out-of-balance',
        'each refused',
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
    async run(ctx) {
      return everySuccessExampleTwice(ctx, undefined, (res) => res.status === 200, '200', 'each accepted');
    },
  },
];

/**
 * Sends every accepted example of schedule cascade twice, with the credentials given; each answer must pass `right`.
 */
async function everySuccessExampleTwice(
  ctx: SuiteContext,
  credentials: 'no-balance' | undefined,
  right: (res: Awaited<ReturnType<typeof call>>) => boolean,
  expected: string,
  allRight: string,
): Promise<CheckOutcome> {
  const wrong: string[] = [];
  let last: PairRequest | undefined;
  let answer = '';
  for (const name of [...successExamples(), ...successExamples()]) {
    const example = pair('scheduleCascade', name);
    last = pairRequest(
      ctx.server,
      credentials ? { ...example, trigger: { ...example.trigger, credentials } } : example,
      ctx.credentials,
      () => prepare(example, ctx.values).body,
    );
    const res = await call(ctx, last);
    answer = answerOf(res.status, res.body);
    if (!right(res)) wrong.push(`${name}: ${res.status} ${res.text.slice(0, 120)}`);
  }
  return {
    ok: wrong.length === 0,
    request: last!,
    expected: `${expected} for each of ${successExamples().length} requests, twice`,
    actual: wrong.length ? wrong.join('; ') : allRight,
    answer,
  };
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
  return {
    spec: strict
      ? {
          stage: 'stateful',
          name: 'a subscriber created twice is rejected the second time with subscriber-already-exists',
          kind: 'decision',
          basis: '#/paths/~1api~1subscribers~1create/post/responses/400',
        }
      : {
          stage: 'stateful',
          name: 'a subscriber created twice is rejected the second time',
          kind: 'described',
          basis:
            '#/components/schemas/SubscriberAddress/properties/address/description, #/paths/~1api~1subscribers~1create/post/description',
        },
    async run(ctx) {
      const created = pair('createSubscriber', 'createdBlacklisted');
      const { body } = prepare(created, ctx.values); // a fresh external identifier on every run
      const request = pairRequest(ctx.server, created, ctx.credentials, () => body);
      const { first, second, answer, actual } = await twice(ctx, request);
      const refused = strict
        ? second.status === 400 && second.body?.title === 'subscriber-already-exists'
        : second.status >= 400 && schemaValidator('Problem')(second.body).valid;
      return {
        ok: first.status === 200 && refused,
        request,
        expected: `first 200, then ${strict ? '400 subscriber-already-exists' : 'an error with a problem body'}`,
        actual,
        answer,
      };
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
    const found: { firstClose?: Map<number, string> } = {};
    const results: CheckResult[] = [];
    for (const rule of selected(ctx)) results.push(await check(ctx, rule.spec, () => rule.run(ctx, found)));
    return results;
  },
};
