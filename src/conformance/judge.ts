// The judge: every exchange, whoever made it (a stage of the suite, a recording, the proxy, a callback and its
// receiver's answer), is judged here, by the checks the registry holds, and every verdict and report is made here. The
// registry is the dispatch table: a check in one of checks/'s lists, or one `register` adds, is run, ordered among the
// causes and reported with no other edit. The profile filter, the cause key and the side of a fault are worked out
// here once. The rules over time have one driver (OverTime), which a reset starts again.
import { hashKey } from '../core/hash-key.ts';
import { apiKeyHeader } from '../core/meta.ts';
import { responseKind } from '../core/examples.ts';
import { answerChecks } from './checks/answer.ts';
import { callbackChecks, callbackOf } from './checks/callback.ts';
import { overTimeChecks } from './checks/over-time.ts';
import { requestChecks } from './checks/request.ts';
import { anyError, documentsDefault, recordedExpectation } from './document/expectations.ts';
import { echoes } from './document/policy.ts';
import { nearest, route } from './document/route.ts';
import {
  answerOf,
  describeAllowed,
  fails,
  held,
  mediaType,
  type Answer,
  type Case,
  type Check,
  type CheckResult,
  type CheckSpec,
  type Family,
  type Fault,
  type HttpRequest,
  type Outcome,
  type PointCheck,
  type Profile,
  type RecordedExchange,
  type Routed,
  type Seen,
  type Side,
  type Subjects,
  type SuiteReport,
} from './ground/model.ts';
import { redactExchange } from './ground/redaction.ts';
import { curl, describeRequest } from './ground/replay.ts';
import { parseAnswer } from './ground/transport.ts';

/** The run's own check: a request that got no answer at all (the sources find it; no answer is there to judge). */
const runChecks: PointCheck<'run'>[] = [
  { id: 'network', family: 'run', side: 'service', holds: 'a request gets an answer', faults: () => [] },
];

const families: Family[] = ['run', 'request', 'answer', 'callback', 'over-time'];
/** Every check, in the order of causes: by family, then as listed (a root cause first). */
const registry: Check[] = [...runChecks, ...requestChecks, ...answerChecks, ...callbackChecks, ...overTimeChecks];

/** Adds a check to the registry, last of its family; returns what takes it out again. */
export function register(check: Check): () => void {
  if (registry.some((c) => c.id === check.id)) throw new Error(`a check "${check.id}" is registered already`);
  let at = registry.length;
  while (at > 0 && families.indexOf(registry[at - 1]!.family) > families.indexOf(check.family)) at--;
  registry.splice(at, 0, check);
  return () => {
    const now = registry.indexOf(check);
    if (now >= 0) registry.splice(now, 1);
  };
}

/** The checks the registry holds, in the order of causes. */
export const registered = (): readonly Check[] => registry;

/** A cause's place in the order: its check's in the registry; a failure no check judged (the run's own) last. */
export const causeOrder = (check: string) => {
  const at = registry.findIndex((c) => c.id === check);
  return at < 0 ? registry.length : at;
};

/** Whose break a check's fault is. */
export const sideOf = (check: string): Side => registry.find((c) => c.id === check)?.side ?? 'service';

export { held } from './ground/model.ts';

/** What failures are grouped by: the check, and the rule it breaks (or the fault's words). */
export const causeKey = (f: Fault) => JSON.stringify([f.check, f.key ?? f.fault]);

/** The family's checks on one subject, root causes only: a check is skipped when one it comes after found a fault. */
function dispatch<F extends keyof Subjects>(family: F, profile: Profile, ...subject: Subjects[F]): Fault[] {
  const faults: Fault[] = [];
  const failed = new Set<string>();
  for (const check of registry) {
    if (check.family !== family) continue;
    const c = check as PointCheck & { concerns?(...s: Subjects[F]): boolean; faults(...s: Subjects[F]): Fault[] };
    if (c.after?.some((id) => failed.has(id)) || c.concerns?.(...subject) === false) continue;
    const found = c.faults(...subject);
    if (found.length === 0) continue;
    failed.add(c.id);
    faults.push(...found.map((f) => ({ ...f, check: c.id })));
  }
  return faults.filter((f) => held(f.kind, profile));
}

/** What the document refuses in a request (the caller's side). */
export const judgeRequest = (r: Routed, profile: Profile) => dispatch('request', profile, r);

/** What is wrong with an answer to a case; a check whose expectation the case marks decided is a decision there. */
export const judgeAnswer = (c: Case, answer: Answer, profile: Profile) =>
  dispatch('answer', 'strict', c, answer)
    .map((f) => (c.decided?.includes(f.check) ? { ...f, kind: 'decision' as const } : f))
    .filter((f) => held(f.kind, profile));

/** What is wrong with a callback the service posted (its side) and the receiver's answer to it (the caller's). */
export const judgeCallback = (callback: Subjects['callback'][0], profile: Profile) =>
  dispatch('callback', profile, callback);

/** The fault of a request that got no answer. */
export const noAnswer = (why: string): Fault => ({
  check: 'network',
  fault: `no answer: ${why.replace(/\d+ ms/, 'the timeout')}`,
  detail: why,
});

/** What a case expects, in words. */
const expectedOf = (c: Case) =>
  `${describeAllowed(c.expectation.allowed, c.expectation.otherErrors)}${c.expectation.allowed.every((a) => a.status >= 400) ? ' with a problem body' : ''}`;

/** What the answer to a case (or the lack of one) shows, `also` (the rules over time on its exchange) included. */
export function caseOutcome(
  c: Case,
  got: { answer: Answer | null; error?: string },
  profile: Profile,
  also: Fault[] = [],
): Outcome {
  const expected = expectedOf(c);
  if (!got.answer) {
    const why = got.error ?? 'none recorded';
    return { request: c.request, expected, actual: `no answer: ${why}`, answer: 'no answer', faults: [noAnswer(why)] };
  }
  const faults = [...judgeAnswer(c, got.answer, profile), ...also];
  const short = answerOf(got.answer.status, got.answer.body);
  const actual = faults.length
    ? `${got.answer.status} ${got.answer.text.slice(0, 200)}: ${faults.map((f) => f.detail).join('; ')}`
    : short;
  return { request: c.request, expected, actual, answer: short, faults };
}

/** How a verdict's request is replayed, and where a recorded one came from. */
export interface Provenance {
  replay?: (r: HttpRequest) => string;
  recorded?: string;
  ms?: number;
}

/**
 * The one constructor of a verdict: a check, and what its exchanges showed. It passes when nothing the profile holds
 * failed; a failure only in parts this contract decides is a decision's; one only the caller broke is the caller's.
 */
export function verdict(spec: CheckSpec, outcome: Outcome, profile: Profile, from: Provenance = {}): CheckResult {
  const { request, failed, ...rest } = outcome;
  const faults = (outcome.faults ?? []).filter((f) => held(f.kind, profile));
  const decided = faults.length > 0 && faults.every((f) => f.kind === 'decision');
  const caller = faults.length > 0 && faults.every((f) => sideOf(f.check) === 'caller');
  return {
    ...spec,
    ...(decided ? { kind: 'decision' as const } : {}),
    ...rest,
    ...(failed === undefined ? {} : { actual: failed }),
    ok: failed === undefined && faults.length === 0,
    ...(faults.length ? { faults } : { faults: undefined }),
    ...(request ? { request: describeRequest(request), ...(from.replay ? { replay: from.replay(request) } : {}) } : {}),
    ...(from.recorded ? { recorded: from.recorded } : {}),
    ...(faults.length ? { side: caller ? ('caller' as const) : ('service' as const) } : {}),
    ms: from.ms ?? 0,
  };
}

/** The one constructor of a report: it passes only when the run finished and every check of it ran and passed. */
export function report(
  profile: Profile,
  results: CheckResult[],
  rest: Omit<SuiteReport, 'profile' | 'results' | 'ok' | 'finished' | 'stageMs'> &
    Partial<Pick<SuiteReport, 'stageMs' | 'finished'>> = {},
  empty = false,
): SuiteReport {
  const finished = rest.finished ?? true;
  return {
    profile,
    results,
    stageMs: {},
    ...rest,
    finished,
    ok: finished && (empty || results.length > 0) && results.every((r) => r.ok),
  };
}

/** Who sent a request: a hash of its credentials, never the values. */
export const callerOf = (headers: Record<string, string>) =>
  hashKey(`${headers[apiKeyHeader] ?? ''}\0${headers.authorization ?? ''}`);

/** The rules over time, started: one driver for the suite, recorded traffic and the proxy alike. */
export class OverTime {
  private states = this.start();
  private latest = Number.NEGATIVE_INFINITY;
  constructor(private readonly profile: Profile) {}

  private start() {
    return registry.flatMap((check) => (check.family === 'over-time' ? [{ check, state: check.start() }] : []));
  }

  /** A reset (the fixtures' state again): what the rules knew is no longer so. */
  reset() {
    this.states = this.start();
  }

  private named(check: Check & { kind: 'described' | 'decision' }, found: Omit<Fault, 'check'>[]): Fault[] {
    return found
      .map((f) => ({ ...f, check: check.id, kind: f.kind ?? check.kind }))
      .filter((f) => held(f.kind, this.profile));
  }

  /** What one exchange breaks, in time order. */
  see(s: Seen): Fault[] {
    this.latest = Math.max(this.latest, s.exchange.at);
    return this.states.flatMap(({ check, state }) => this.named(check, state.see(s)));
  }

  /** What the rules find due by `at` (default: the latest exchange seen): a callback never posted again. */
  due(at = this.latest): Fault[] {
    return this.states.flatMap(({ check, state }) => this.named(check, state.due(at)));
  }
}

/** The options of a judge of exchanges nobody in the suite sent. */
export interface JudgeOptions {
  profile?: Profile;
  /** The path the document's paths start from on the recorded host (default: the servers' base paths). */
  basePath?: string;
  /** The path a receiver of status callbacks listens on: POSTs there are callbacks. */
  callbackPath?: string;
  /** The paths of a reset hook (--reset-url's); the sandbox's `/_sandbox/reset` always is one. */
  resetPaths?: string[];
  /** Values to write as *** wherever they occur (the credentials' headers are always). */
  secrets?: string[];
}

/** What a recorded exchange is, which sides it was judged on, and its failed verdicts. */
export interface Judgement {
  what: 'outside' | 'reset' | 'callback' | 'api';
  judged: Side[];
  /** An answer only this contract's decisions judge, under the default profile: not judged. */
  decision: boolean;
  failures: CheckResult[];
  /** The exchange as it may be recorded: credentials as ***; outside the document, no bodies. */
  kept: RecordedExchange;
}

/** The sandbox's reset hook: a recorded POST there starts the rules over time again. */
const sandboxReset = '/_sandbox/reset';

/** Headers a replay leaves out: the connection's and the transport's, which curl sets for the service itself. */
const transportHeaders =
  /^(host|content-length|connection|keep-alive|accept-encoding|transfer-encoding|te|upgrade|proxy-.*|sec-fetch-.*)$/i;

/** The curl of a recorded request: its credentials (already ***) as the environment variables the suite reads. */
function recordedCurl(r: HttpRequest): string {
  const headers = Object.fromEntries(Object.entries(r.headers).filter(([name]) => !transportHeaders.test(name)));
  if (headers[apiKeyHeader] !== undefined) headers[apiKeyHeader] = '$MESSAGING_API_KEY';
  if (headers.authorization !== undefined) headers.authorization = 'Bearer $MESSAGING_INTEGRATOR_TOKEN';
  return curl({ ...r, headers }, [
    ['$MESSAGING_API_KEY', '$MESSAGING_API_KEY'],
    ['$MESSAGING_INTEGRATOR_TOKEN', '$MESSAGING_INTEGRATOR_TOKEN'],
  ]);
}

/** The case of a recorded request: what the document allows as its answer, whatever state the service was in. */
function recordedCase(r: Routed, profile: Profile): Case {
  const op = r.operation ?? r.atPath ?? nearest(r.path)!;
  const only = (status: number, code: string) => ({
    allowed: [{ status, code }],
    kind: responseKind(op, status),
    basis: `${op.pointer}/responses/${status}`,
  });
  const base = { operation: op, request: r.request };
  if (!r.operation)
    return { ...base, expectation: r.atPath ? only(405, 'method-not-allowed') : only(404, 'not-found') };
  if (r.request.body !== undefined && r.request.body !== '' && mediaType(r.request) !== 'application/json')
    return {
      ...base,
      expectation: {
        ...anyError(op, `${op.pointer}/requestBody/content (a body of another media type gets an error)`, 'decision'),
        otherErrors: documentsDefault(op),
      },
    };
  if (!r.json || r.body === undefined)
    return {
      ...base,
      expectation: anyError(op, `${op.pointer}/responses: a body that is not JSON gets a documented error`),
    };
  // A success gives back the fields the document says it echoes, as sent (`x-echoes`).
  const sent = r.body !== null && typeof r.body === 'object' ? (r.body as Record<string, unknown>) : {};
  const echoed = echoes(op, 200).filter((f) => Object.hasOwn(sent, f));
  return {
    ...base,
    expectation: recordedExpectation(op, r.body, r.credentialGiven, profile),
    ...(echoed.length ? { fields: Object.fromEntries(echoed.map((f) => [f, sent[f]])) } : {}),
  };
}

/**
 * The judge of exchanges nobody in the suite sent (a log, a HAR file, a proxy's traffic), in time order: the request by
 * the checks of a request (the caller's side), the answer by the checks of an answer against every answer the document
 * allows that request whatever the state (the service's side), a callback by the checks of a callback, and the whole
 * sequence by the rules over time.
 */
export class Judge {
  readonly profile: Profile;
  readonly overTime: OverTime;
  private readonly resets: Set<string>;

  constructor(readonly options: JudgeOptions = {}) {
    this.profile = options.profile ?? 'described';
    this.overTime = new OverTime(this.profile);
    this.resets = new Set([sandboxReset, ...(options.resetPaths ?? [])].map((p) => p.replace(/\/+$/, '') || '/'));
  }

  /**
   * Whether the exchange is a reset that took: marked so by the suite's recording, or a POST to a reset path, answered
   * 2xx (a reset that failed, or got no answer, changed nothing the rules may forget).
   */
  private isReset(x: RecordedExchange) {
    if (!x.response || x.response.status < 200 || x.response.status > 299) return false;
    if (x.reset) return true;
    if (x.request.method.toUpperCase() !== 'POST' || !URL.canParse(x.request.url)) return false;
    return this.resets.has(new URL(x.request.url).pathname.replace(/\/+$/, '') || '/');
  }

  see(recorded: RecordedExchange): Judgement {
    const caller = callerOf(recorded.request.headers);
    const x = redactExchange(recorded, this.options.secrets);
    const answer =
      x.response &&
      parseAnswer(x.response.status, x.response.headers['content-type'] ?? '', x.response.body, x.response.headers);
    const where = () =>
      `${x.source}, sent ${new Date(x.at).toISOString()}, answered ${answer ? answerOf(answer.status, answer.body) : x.error ? `nothing (${x.error})` : 'nothing (none recorded)'}`;
    const failures: CheckResult[] = [];
    const judged: Side[] = [];
    let decision = false;
    // Only a failure is made a verdict (and given its replay): a week of traffic passes mostly.
    const fail = (spec: CheckSpec, outcome: Outcome) => {
      if (fails(outcome))
        failures.push(verdict(spec, outcome, this.profile, { replay: recordedCurl, recorded: where() }));
    };
    if (this.isReset(x)) {
      this.overTime.reset();
      return { what: 'reset', judged, decision, failures, kept: x };
    }
    const api = route(x.request, this.options.basePath);
    // A request to an operation's path is the API's; a callback goes elsewhere (the receiver's path).
    const posted =
      api.atPath || !/^https?:/i.test(x.request.url)
        ? undefined
        : callbackOf(x.request.method, new URL(x.request.url).pathname, x.request.body, this.options.callbackPath);
    const callback = posted && { ...posted, answer };
    const seen: Seen = {
      exchange: x,
      caller,
      ...(callback ? { callback } : { routed: api }),
      ...(answer ? { answer } : {}),
    };
    if (callback) {
      const faults = judgeCallback(callback, this.profile);
      judged.push('service', 'caller');
      for (const side of judged) {
        const mine = faults.filter((f) => sideOf(f.check) === side);
        fail(
          {
            stage: side === 'service' ? 'callbacks' : 'receivers',
            name: `${x.source}: a ${callback.webhook} callback`,
            kind: 'described',
          },
          {
            request: x.request,
            expected: side === 'service' ? 'a payload valid against the webhook' : '200',
            actual: mine.map((f) => f.detail).join('; '),
            faults: mine,
          },
        );
      }
    } else if (api.outside) {
      return {
        what: 'outside',
        judged,
        decision,
        failures,
        kept: {
          ...x,
          request: { ...x.request, body: undefined },
          ...(x.response ? { response: { ...x.response, body: '' } } : {}),
        },
      };
    } else {
      const name = `${x.source}: ${x.request.method} ${api.path}`;
      const covers = api.operation ? { covers: { operationId: api.operation.operationId } } : {};
      const refused = judgeRequest(api, this.profile);
      judged.push('caller');
      fail(
        { stage: 'requests', name, kind: 'described', ...covers },
        {
          request: x.request,
          expected: 'a request the document accepts',
          actual: refused.map((f) => f.detail).join('; '),
          faults: refused,
        },
      );
      const c = recordedCase(api, this.profile);
      const spec = { stage: 'answers', name, kind: c.expectation.kind, basis: c.expectation.basis, ...covers };
      // No answer, and the recorder says why: the service's fault, unless the caller gave up.
      if (!answer && x.error && !/abort|cancel|blocked/i.test(x.error)) {
        judged.push('service');
        fail(spec, caseOutcome(c, { answer: null, error: x.error }, this.profile));
      }
      // What only this contract decides (a 404 it gives where the description shows none) is held under strict only.
      if (answer && !held(c.expectation.kind, this.profile)) decision = true;
      else if (answer) {
        judged.push('service');
        fail(spec, caseOutcome(c, { answer }, this.profile));
      }
    }
    for (const f of this.overTime.see(seen))
      fail(this.overTimeSpec(f, x.source), {
        request: x.request,
        faults: [f],
        actual: f.detail,
        expected: this.holds(f),
      });
    return { what: callback ? 'callback' : 'api', judged, decision, failures, kept: x };
  }

  private holds = (f: Fault) => registry.find((c) => c.id === f.check)?.holds ?? f.check;
  private overTimeSpec = (f: Fault, source: string): CheckSpec => {
    const rule = registry.find((c) => c.id === f.check);
    return {
      stage: 'sequence',
      name: `${source}: ${this.holds(f)}`,
      kind: f.kind === 'decision' ? 'decision' : 'described',
      ...(rule?.family === 'over-time' ? { basis: rule.basis } : {}),
    };
  };

  /** The rules over time that judge at the end (a callback never posted again): their failures. */
  end(): CheckResult[] {
    return this.overTime
      .due()
      .map((f) =>
        verdict(
          this.overTimeSpec(f, 'the end of the traffic'),
          { faults: [f], actual: f.detail, expected: this.holds(f) },
          this.profile,
        ),
      );
  }
}
