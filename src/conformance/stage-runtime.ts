// What every stage gets and reports, and the runtime it checks with: sending a request (its
// timeout and the run's deadline), `check`, and the curl replay of a failure.
import type { ExamplePair, ExpectationKind } from '../core/examples.ts';
import { apiKeyHeader } from '../core/meta.ts';
import { describeAllowed, type Case, type Credentials, type Fault, type Profile } from './case.ts';
import { answerOf, judge } from './checks.ts';
import { AnswerTooLarge, clientHeaders, exchange, type Answer, type HttpRequest as PairRequest } from './transport.ts';
import type { RecordedExchange } from './traffic/exchange.ts';
import { route } from './request-checks.ts';
import { callerOf, type SequenceRun } from './sequence-checks.ts';

export type { Profile } from './case.ts';

export interface CallbackOptions {
  /** Where the receiver listens. */
  host: string;
  port: number;
  /** The URL the service posts to, when it differs from the listening address (a tunnel, a proxy). */
  publicUrl?: string;
  /** How long to wait for the callbacks (default: the first documented retry delay plus 10 s). */
  windowMs?: number;
}

export interface SuiteContext {
  server: string;
  credentials: Credentials;
  values: Record<string, unknown>;
  seed: number;
  /** Generated requests per operation in the generated stage. */
  generated: number;
  /** Where the callbacks stage listens for the service's status callbacks (--callbacks). */
  callbacks?: CallbackOptions;
  /** Against a mock: ask for each example with `Prefer: code=..., example=...`. */
  mock: boolean;
  profile: Profile;
  log(line: string): void;
  /** Longest wait for one answer, body included. */
  timeoutMs: number;
  /** Fires when the whole run's time is up, at `deadlineAt` (epoch ms). */
  deadline: AbortSignal;
  deadlineAt: number;
  /** The current stage's traffic, for failing fast, and its checks as they end (runSuite resets it per stage). */
  stage: {
    name?: string;
    answered: number;
    networkFailures: number;
    sent: number;
    checks: CheckResult[];
    /** What the rules over time found in the current check's exchanges: `check` adds them to its verdict. */
    sequenceFaults: Fault[];
  };
  /**
   * True when a reset hook put the service in the examples' state before this stage: only then can
   * a check know that a thread is open. Without it every check must hold whatever state it finds.
   */
  stateKnown: boolean;
  /** The example requests the dredd stage sent in this run, with their answers: the examples stage judges these. */
  sentExamples: Map<ExamplePair, { request: PairRequest; expected: unknown; answer: Answer }>;
  /** Stop at the first failed check: its stage ends there, and no stage runs after it (--bail). */
  bail?: boolean;
  /** Hears every exchange the run sends, answered or not, as it ends (--record). */
  observe?: (x: RecordedExchange) => void;
  /**
   * The rules over time (sequence-checks.ts) over every exchange the run sends; started again after each reset (the
   * state is the examples' again), none against a mock (it keeps no state).
   */
  sequence?: SequenceRun;
}

/** Longest wait for one answer, body included, unless the run says otherwise. */
export const defaultTimeoutMs = 10_000;
/** Longest time for a whole run, unless the run says otherwise. */
export const defaultDeadlineMs = 5 * 60_000;

/** The first requests of a stage all failing at the network level: the stage stops at once. */
export const failFastAfter = 3;

/** Thrown by `check` to stop a stage: the server stopped answering. */
export class StageStopped extends Error {}
/** Thrown by `check` to stop the run: its deadline passed. */
export class RunOver extends StageStopped {}

/** Thrown by `check` under `bail` once a check of the stage has failed: the run ends with that failure. */
export class Bailed extends Error {
  constructor() {
    super('stopped at the first failed check (--bail)');
  }
}

/** An operation's documented status, error code or named example that a check exercises. */
export interface Coverage {
  operationId: string;
  status?: number;
  code?: string;
  example?: string;
  /** What the check could not hold exactly because the starting state is unknown (no reset hook). */
  needsReset?: string;
  /** A request schema limit the check meets (`at`) or passes by one (`past`): "closeThreads comment maxLength 300". */
  limit?: string;
  side?: 'at' | 'past';
  /** Requests the check generated. */
  generated?: number;
}

/**
 * Whether the run's time is up. The clock decides, not only the deadline's signal: a timer that
 * is due fires only when the event loop gets to it, and work that runs before (Dredd, after
 * loading synchronously, starts its first request in the same turn) must already see it.
 */
export const deadlinePassed = (ctx: SuiteContext) => ctx.deadline.aborted || Date.now() >= ctx.deadlineAt;

/** Whether a check of `kind` runs under the context's profile. */
export const runs = (ctx: SuiteContext, kind: ExpectationKind) => kind === 'described' || ctx.profile === 'strict';

export interface CheckResult extends CheckSpec, Omit<CheckOutcome, 'request'> {
  ms: number;
  request?: string;
  /** The request as a ready curl command, credentials as environment references. */
  replay?: string;
  /** Where a recorded exchange is (`traffic.ndjson line 17`), when it was sent, and the answer it got. */
  recorded?: string;
}

export interface Stage {
  name: string;
  description: string;
  /** How many checks `run` makes under this context (its banner says so). */
  count(ctx: SuiteContext): number;
  run(ctx: SuiteContext): Promise<CheckResult[]>;
}

/** One check of a stage before it runs: what it is, and its body. */
export interface Planned extends Omit<CheckSpec, 'stage'> {
  run(): Promise<CheckOutcome>;
}

/** The check that sends a case and judges its answer. */
export const caseCheck = (ctx: SuiteContext, name: string, c: Case, covers?: Coverage): Planned => ({
  name,
  kind: c.expectation.kind,
  basis: c.expectation.basis,
  ...(covers ? { covers } : {}),
  run: () => sendCase(ctx, c),
});

export async function runPlanned(ctx: SuiteContext, stage: string, planned: Planned[]): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const { run, ...spec } of planned) results.push(await check(ctx, { stage, ...spec }, run));
  return results;
}

/**
 * A stage whose checks are a list made from the run's options, once per run (each run has its own
 * context), so that its banner counts the very checks it runs: those of the run's profile, in order.
 */
export function planStage(name: string, description: string, plan: (ctx: SuiteContext) => Planned[]): Stage {
  const built = new WeakMap<SuiteContext, Planned[]>();
  const selected = (ctx: SuiteContext) => {
    const list = built.get(ctx) ?? plan(ctx).filter((p) => runs(ctx, p.kind));
    built.set(ctx, list);
    return list;
  };
  return {
    name,
    description,
    count: (ctx) => selected(ctx).length,
    run: (ctx) => runPlanned(ctx, name, selected(ctx)),
  };
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The request as a curl command to replay it: each credential is written as the environment
 * variable that holds it (`"$MESSAGING_API_KEY"`), never as its value.
 */
export const replay = (ctx: SuiteContext, r: PairRequest): string =>
  curl(r, [
    [ctx.credentials.apiKeyNoBalance, '$MESSAGING_API_KEY_NO_BALANCE'],
    [ctx.credentials.apiKey, '$MESSAGING_API_KEY'],
    [ctx.credentials.integratorToken, '$MESSAGING_INTEGRATOR_TOKEN'],
  ]);

/** The request as a curl command, each of `refs`' values written as the environment variable it names. */
export function curl(r: PairRequest, refs: Array<[string | undefined, string]>): string {
  const header = ([name, value]: [string, string]) => {
    const secret = refs.find(([v]) => v && value.includes(v));
    return secret
      ? `-H "${name}: ${value.split(secret[0]!).join(secret[1])}"`
      : `-H ${shellQuote(`${name}: ${value}`)}`;
  };
  const body =
    r.body === undefined
      ? ''
      : ` --data-raw ${shellQuote(r.body.length > 2000 ? `${r.body.slice(0, 2000)}...` : r.body)}`;
  return `curl -sS -X ${r.method} ${shellQuote(r.url)} ${Object.entries(r.headers).map(header).join(' ')}${body}`;
}

/** One line per request, as a person would write it with curl. */
export function describeRequest(r: PairRequest): string {
  const headers = Object.entries(r.headers)
    .map(([k, v]) => `${k}: ${k === apiKeyHeader || k === 'authorization' ? '<redacted>' : v}`)
    .join(', ');
  const body = r.body === undefined ? '' : ` ${r.body.length > 300 ? `${r.body.slice(0, 297)}...` : r.body}`;
  return `${r.method} ${r.url} [${headers}]${body}`;
}

/**
 * A signal that fires after `ms` or at the run's deadline, whichever comes first. One timer, no listener: Node 20's
 * AbortSignal.any() can lose a timeout signal to garbage collection (a stalled request then waited for the server to
 * give up), and a listener per request on the deadline would pile up.
 */
export function requestSignal(ctx: SuiteContext, ms = ctx.timeoutMs): AbortSignal {
  const controller = new AbortController();
  const left = ctx.deadlineAt - Date.now();
  const [wait, why, name] =
    left <= ms ? [left, "the run's deadline passed", 'AbortError'] : [ms, `no answer within ${ms} ms`, 'TimeoutError'];
  setTimeout(() => controller.abort(new DOMException(why, name)), Math.max(0, wait)).unref();
  return controller.signal;
}

/** What `send` got: the whole answer, or why none came. */
export type Sent = { answer: Answer; error?: undefined } | { answer: null; error: string };

/**
 * Sends a request and reads the whole answer; a network failure is an answer too (none, and why). The answer, body
 * included, must come within the run's `timeoutMs` and before its deadline. An answer that breaks off after its
 * status line is none either, but the stage counts the server as answering.
 */
export async function send(ctx: SuiteContext, r: PairRequest): Promise<Sent> {
  const sent = await sendOnce(ctx, r);
  const x: RecordedExchange = {
    at: sent.at,
    request: { ...r, headers: { ...clientHeaders, ...r.headers } },
    response: sent.answer
      ? { status: sent.answer.status, headers: sent.answer.headers, body: sent.answer.text }
      : undefined,
    source: `${ctx.stage.name ?? 'run'} request ${++ctx.stage.sent}`,
  };
  ctx.observe?.(x);
  if (ctx.sequence) {
    const routed = route(r, new URL(ctx.server).pathname);
    const seen = { exchange: x, routed, caller: callerOf(r.headers), ...(sent.answer ? { answer: sent.answer } : {}) };
    ctx.stage.sequenceFaults.push(...ctx.sequence.see(seen).filter((f) => runs(ctx, f.kind ?? 'described')));
  }
  return sent;
}

async function sendOnce(ctx: SuiteContext, r: PairRequest): Promise<Sent & { at: number }> {
  const at = Date.now();
  const signal = requestSignal(ctx);
  let began = false;
  try {
    const answer = await exchange({
      ...r,
      signal,
      onAnswer: () => {
        began = true;
        ctx.stage.answered++;
      },
    });
    return { answer, at };
  } catch (error) {
    if (error instanceof AnswerTooLarge) return { answer: null, error: error.message, at };
    const reason = deadlinePassed(ctx)
      ? "the run's deadline passed"
      : signal.aborted
        ? `no answer within ${ctx.timeoutMs} ms`
        : (error as Error).message;
    if (began) return { answer: null, error: `the answer broke off: ${reason}`, at };
    ctx.stage.networkFailures++;
    return { answer: null, error: reason, at };
  }
}

export interface CheckSpec {
  stage: string;
  name: string;
  /** Where the expectation comes from: the description, or a [contract decision] of this contract. */
  kind: ExpectationKind;
  /** What of the document the check exercises, for the coverage scorecard. */
  covers?: Coverage;
  /** The part of the document the expectation comes from: a JSON pointer, and the sentence where it widens one. */
  basis?: string;
}

/** What a check's body returns: the verdict, and the request it sent (described and replayed by `check`, once). */
export interface CheckOutcome {
  ok: boolean;
  expected?: string;
  actual?: string;
  /** The answer in short (`400 text-not-specified`, `no answer`). */
  answer?: string;
  /** What the checks found wrong with the answers (checks.ts): failures are grouped by these, across stages. */
  faults?: Fault[];
  request?: PairRequest;
}

/** The outcome of a check whose request got no answer, and why. */
export const noAnswer = (request: PairRequest, expected: string, why: string): CheckOutcome => ({
  ok: false,
  request,
  expected,
  actual: `no answer: ${why}`,
  answer: 'no answer',
  faults: [{ check: 'network', fault: `no answer: ${why.replace(/\d+ ms/, 'the timeout')}`, detail: why }],
});

/** What a case expects, in words. */
const expectedOf = (c: Case) =>
  `${describeAllowed(c.expectation.allowed, c.expectation.otherErrors)}${c.expectation.allowed.every((a) => a.status >= 400) ? ' with a problem body' : ''}`;

/**
 * The verdict on a case's answer: every check of the registry that concerns it (checks.ts). Under
 * the described profile a fault in a part this contract decides (a header it marks, a `detail`
 * format) is not held: the rest of the answer is.
 */
export function verdict(c: Case, answer: Answer, profile: Profile): CheckOutcome {
  const faults = judge(c, answer).filter((f) => profile === 'strict' || f.kind !== 'decision');
  const short = answerOf(answer.status, answer.body);
  return {
    ok: faults.length === 0,
    request: c.request,
    expected: expectedOf(c),
    actual: faults.length
      ? `${answer.status} ${answer.text.slice(0, 200)}: ${faults.map((f) => f.detail).join('; ')}`
      : short,
    answer: short,
    ...(faults.length ? { faults } : {}),
  };
}

/** The verdict on what `send` got for a case's request. */
export const judgeSent = (ctx: SuiteContext, c: Case, sent: Sent) =>
  sent.answer ? verdict(c, sent.answer, ctx.profile) : noAnswer(c.request, expectedOf(c), sent.error);

/** Sends a case's request, with `headers` that the report leaves out of it, and judges its answer. */
export const sendCase = async (ctx: SuiteContext, c: Case, headers: Record<string, string> = {}) =>
  judgeSent(ctx, c, await send(ctx, { ...c.request, headers: { ...c.request.headers, ...headers } }));

/**
 * Times `fn` and turns a thrown error into a failed check, recorded in the stage's traffic. First it
 * stops the run when the deadline has passed or (under `bail`) a check has failed, and the stage when
 * its first requests all failed at the network level: more checks against a dead server say nothing.
 */
export async function check(ctx: SuiteContext, spec: CheckSpec, fn: () => Promise<CheckOutcome>): Promise<CheckResult> {
  if (deadlinePassed(ctx)) throw new RunOver("the run's deadline passed before every check ran");
  if (ctx.bail && ctx.stage.checks.some((c) => !c.ok)) throw new Bailed();
  if (ctx.stage.answered === 0 && ctx.stage.networkFailures >= failFastAfter) {
    throw new StageStopped(
      `the first ${ctx.stage.networkFailures} requests of the stage got no answer; the server is not answering`,
    );
  }
  const start = performance.now();
  let outcome: CheckOutcome;
  ctx.stage.sequenceFaults = [];
  try {
    outcome = await fn();
  } catch (error) {
    outcome = { ok: false, expected: 'the check to run', actual: (error as Error).message };
  }
  // A rule over time the check's exchanges broke fails the check too: the same answer's cause, seen over time.
  const overTime = ctx.stage.sequenceFaults.splice(0);
  if (overTime.length)
    outcome = {
      ...outcome,
      ok: false,
      actual: [outcome.ok ? outcome.answer : outcome.actual, ...overTime.map((f) => f.detail)]
        .filter(Boolean)
        .join('; '),
      faults: [...(outcome.faults ?? []), ...overTime],
    };
  const { request, ...verdict } = outcome;
  // A failure only in parts this contract decides (Case.decided) is a decision's failure.
  const decided = verdict.faults?.length && verdict.faults.every((f) => f.kind === 'decision');
  const result: CheckResult = {
    ...spec,
    ...(decided ? { kind: 'decision' as const } : {}),
    ...verdict,
    ...(request ? { request: describeRequest(request), replay: replay(ctx, request) } : {}),
    ms: performance.now() - start,
  };
  ctx.stage.checks.push(result);
  return result;
}
