// The judge: every exchange (a stage's, a recording's, the proxy's, a callback and its receiver's answer) is judged,
// and every verdict and report made, here. A check in checks/'s lists, or one `register` adds, is run, ordered among
// the causes and reported with no other edit. The rules over time have one driver (OverTime), which a reset restarts.
import { responseKind } from '../core/examples.ts';
import { hashKey } from '../core/hash-key.ts';
import { apiKeyHeader, sandboxResetPath } from '../core/meta.ts';
import { answerOf, clip, describeAllowed, fails, held, mediaType } from './ground/model.ts';
import type { Answer, Callback, Case, Check, CheckResult, CheckSpec, Fault, Found } from './ground/model.ts';
import type { HttpRequest, Outcome, PointCheck, Profile, RecordedExchange, Routed } from './ground/model.ts';
import type { RuleOverTime, Seen, Side, Subjects, SuiteReport } from './ground/model.ts';
import { answerChecks } from './checks/answer.ts';
import { callbackChecks, callbackOf, receivedChecks } from './checks/callback.ts';
import { overTimeChecks, rateLimitRule } from './checks/over-time.ts';
import { requestChecks } from './checks/request.ts';
import { anyError, documentsDefault, recordedExpectation } from './document/expectations.ts';
import { basisDecision, basisWords } from '../core/words.ts';
import { echoes } from './document/policy.ts';
import { nearest, route } from './document/route.ts';
import { redactExchange } from './ground/redaction.ts';
import { curl, describeRequest } from './ground/replay.ts';
import { parseAnswer } from './ground/transport.ts';

const families: Check['family'][] = ['run', 'request', 'answer', 'callback', 'over-time'];
/** Every check, in the order of causes: by family, then as listed (a root cause first). `network` is the run's own. */
const registry: Check[] = [
  { id: 'network', family: 'run', side: 'service', holds: 'a request gets an answer', faults: () => [] },
  ...[receivedChecks, requestChecks, answerChecks, callbackChecks, overTimeChecks].flat(),
];

/** Adds a check to the registry, last of its family; returns what takes it out again. */
export function register(check: Check): () => void {
  if (registry.some((c) => c.id === check.id)) throw new Error(`a check "${check.id}" is registered already`);
  let at = registry.length;
  while (at > 0 && families.indexOf(registry[at - 1]!.family) > families.indexOf(check.family)) at--;
  registry.splice(at, 0, check);
  return () => void (registry.includes(check) && registry.splice(registry.indexOf(check), 1));
}

/** The checks the registry holds, in the order of causes. */
export const registered = (): readonly Check[] => registry;
const entry = (id: string) => registry.find((c) => c.id === id);

/** A cause's place in the order: its check's in the registry; a failure no check judged (the run's own) last. */
export const causeOrder = (check: string) => {
  const at = registry.findIndex((c) => c.id === check);
  return at < 0 ? registry.length : at;
};

export const sideOf = (check: string): Side => entry(check)?.side ?? 'service';

/** What failures are grouped by: the check, and the rule it breaks (or the fault's words). */
export const causeKey = (f: Fault) => JSON.stringify([f.check, f.key ?? f.fault]);

/** The family's checks on one subject, root causes only: a check is skipped when one it comes after found a fault. */
function dispatch<F extends keyof Subjects>(family: F, ...subject: Subjects[F]): Fault[] {
  const faults: Fault[] = [];
  const failed = new Set<string>();
  for (const check of registry) {
    const c = check as PointCheck & { concerns?(...s: Subjects[F]): boolean; faults(...s: Subjects[F]): Fault[] };
    if (c.family !== family || c.after?.some((id) => failed.has(id)) || c.concerns?.(...subject) === false) continue;
    const found = c.faults(...subject);
    if (found.length) failed.add(c.id);
    faults.push(...found.map((f) => ({ ...f, check: c.id })));
  }
  return faults;
}
const ofProfile = (faults: Fault[], profile: Profile) => faults.filter((f) => held(f.kind, profile));
const details = (faults: Fault[]) => faults.map((f) => f.detail).join('; ');

/** What is wrong with an answer to a case; a check whose expectation the case marks decided is a decision there. */
export function judgeAnswer(c: Case, answer: Answer, profile: Profile) {
  const decided = (f: Fault) => (c.decided?.includes(f.check) ? { ...f, kind: 'decision' as const } : f);
  return ofProfile(dispatch('answer', c, answer).map(decided), profile);
}

/** What is wrong with a callback the service posted (its side) and the receiver's answer to it (the caller's). */
export const judgeCallback = (c: Callback, profile: Profile) => ofProfile(dispatch('callback', c), profile);

export function noAnswer(why: string): Fault {
  return { check: 'network', fault: `no answer: ${why.replace(/\d+ ms/, 'the timeout')}`, detail: why };
}

/** Why a check whose answer stayed 429 is not judged. */
const limitedWhy =
  'not judged: the service answered 429 (rate limited) and again to each resend (--rate keeps the run below its limit)';

/** What the answer to a case (or the lack of one) shows, `also` (the rules over time on its exchange) included. */
export function caseOutcome(
  c: Case,
  got: { answer: Answer | null; error?: string },
  profile: Profile,
  also: Fault[] = [],
): Outcome {
  const { allowed, otherErrors } = c.expectation;
  const expected = `${describeAllowed(allowed, otherErrors)}${allowed.every((a) => a.status >= 400) ? ' with a problem body' : ''}`;
  const asked = { request: c.request, expected };
  if (!got.answer) {
    const why = got.error ?? 'none recorded';
    return { ...asked, actual: `no answer: ${why}`, answer: 'no answer', faults: [noAnswer(why)] };
  }
  const short = answerOf(got.answer.status, got.answer.body);
  // Any operation may be answered 429 (open point rate-limit): no check judges it, the rules over time may.
  if (got.answer.status === 429)
    return { ...asked, actual: `${short} (rate limited)`, answer: short, faults: also, skipped: limitedWhy };
  const faults = [...judgeAnswer(c, got.answer, profile), ...also];
  const actual = faults.length ? `${got.answer.status} ${clip(got.answer.text, 200)}: ${details(faults)}` : short;
  return { ...asked, actual, answer: short, faults };
}

/**
 * A check one of whose requests got a 429 its resends did not get past: what it found after that may be the 429's
 * doing, so only the rule a 429 breaks (strict: the contract's decision) is kept, and the check is not judged.
 */
export function notJudged({ failed: _, ...outcome }: Outcome): Outcome {
  const faults = (outcome.faults ?? []).filter((f) => f.check === rateLimitRule);
  return { ...outcome, faults, skipped: outcome.skipped ?? limitedWhy };
}

/** How a verdict's request is replayed, where a recorded one came from, and how long the check took. */
export type Provenance = {
  replay?: (r: HttpRequest) => string;
  /** For a failure: the vars keys of example values its request sends that the run does not map, as a hint. */
  unmapped?: (r: HttpRequest) => string | undefined;
  recorded?: string;
  ms?: number;
};

/**
 * What a failure expected, in words: the answer, and each rule a fault found broken that the answer alone does not say
 * (a list's order, a decision on an open point), so that a failure never reads as the answer it got.
 */
function expectedOf(expected: string | undefined, faults: Fault[]): string | undefined {
  const rules = faults.flatMap((f) => {
    // An answer's check other than the status: what it holds is not in the answer expected (a rule over time's is).
    const check = entry(f.check);
    const rule = f.expects ?? (check?.family === 'answer' && check.id !== 'status' ? check.holds : undefined);
    return rule && !expected?.includes(rule) ? [rule] : [];
  });
  return [expected, ...new Set(rules)].filter(Boolean).join('; ') || undefined;
}

/** A failure's basis: the parts its faults rest on first (the open point whose decision broke), then the check's. */
function basisOf(basis: string | undefined, faults: Fault[]): string | undefined {
  const own = basis ? basis.split('; ') : [];
  const parts = [...faults.flatMap((f) => (f.basis ? [f.basis] : own)), ...own];
  return [...new Set(parts)].join('; ') || undefined;
}

/** The one constructor of a verdict: a fault the profile holds fails it, as a decision's or the caller's if all are. */
export function verdict(
  { decision: marked, ...spec }: CheckSpec,
  outcome: Outcome,
  profile: Profile,
  from: Provenance = {},
): CheckResult {
  const { request, failed, skipped: why, ...rest } = outcome;
  const faults = ofProfile(outcome.faults ?? [], profile);
  const every = (test: (f: Fault) => boolean) => faults.length > 0 && faults.every(test);
  const basis = faults.length ? basisOf(spec.basis, faults) : spec.basis;
  const words = spec.words?.length ? spec.words : basisWords(basis);
  const decided = spec.kind === 'decision' || every((f) => f.kind === 'decision');
  // A failed decision names the document's sentence that makes it one, where the basis leads to it.
  const code = /^\d{3} (\S+)/.exec(outcome.expected ?? '')?.[1];
  // An open point's decision is named in `expected` already: the line is for a fault no point explains, or for the
  // code expected where the document's table of decided codes says when it is given.
  const unexplained = faults.some((f) => !f.basis);
  const sentence = decided && faults.length ? (marked ?? basisDecision(basis, code)) : undefined;
  const decision = unexplained || (code && sentence?.includes(`\`${code}\``)) ? sentence : undefined;
  return {
    ...spec,
    ...(basis ? { basis } : {}),
    ...(words.length ? { words } : {}),
    ...(decision ? { decision } : {}),
    ...(every((f) => f.kind === 'decision') ? { kind: 'decision' as const } : {}),
    ...rest,
    ...(faults.length ? { expected: expectedOf(rest.expected, faults) } : {}),
    ...(failed === undefined ? {} : { actual: failed }),
    ok: failed === undefined && faults.length === 0,
    // Not judged: not a failure (the run's `ok` stands), not a pass (the counts and coverage leave it out).
    ...(why && failed === undefined && faults.length === 0 ? { skipped: why } : {}),
    faults: faults.length ? faults : undefined,
    ...(request ? { request: describeRequest(request), ...(from.replay ? { replay: from.replay(request) } : {}) } : {}),
    ...(request && faults.some((f) => f.byState) && from.unmapped?.(request) ? { vars: from.unmapped(request) } : {}),
    ...(from.recorded ? { recorded: from.recorded } : {}),
    ...(faults.length ? { side: every((f) => sideOf(f.check) === 'caller') ? 'caller' : 'service' } : {}),
    ms: from.ms ?? 0,
  };
}

/** The one constructor of a report: it passes only when the run finished and (unless `empty` may pass) judged a check. */
export function report(
  profile: Profile,
  results: CheckResult[],
  rest: Partial<Omit<SuiteReport, 'profile' | 'results' | 'ok'>> = {},
  empty = false,
): SuiteReport {
  const finished = rest.finished ?? true;
  const ok = finished && (empty || results.some((r) => !r.skipped)) && results.every((r) => r.ok);
  return { profile, results, stageMs: {}, ...rest, finished, ok };
}

/** Who sent a request: a hash of its credentials, never the values. */
export const callerOf = (headers: Record<string, string>) =>
  hashKey(`${headers[apiKeyHeader] ?? ''}\0${headers.authorization ?? ''}`);

const started = () =>
  registry.flatMap((check) => (check.family === 'over-time' ? [{ check, state: check.start() }] : []));

/** The rules over time, started: one driver for the suite, recorded traffic and the proxy alike. */
export class OverTime {
  private states = started();
  private latest = Number.NEGATIVE_INFINITY;
  constructor(private readonly profile: Profile) {}

  /** A reset (the fixtures' state again): what the rules knew is no longer so. */
  reset() {
    this.states = started();
  }

  private named(pass: (state: ReturnType<RuleOverTime['start']>) => Found[]): Fault[] {
    const found = this.states.flatMap(({ check, state }) =>
      pass(state).map((f) => ({ ...f, check: check.id, kind: f.kind ?? check.kind })),
    );
    return ofProfile(found, this.profile);
  }

  /** What one exchange breaks, in time order. */
  see(s: Seen): Fault[] {
    this.latest = Math.max(this.latest, s.exchange.at);
    return this.named((state) => state.see(s));
  }

  /** What the rules find due by `at` (default: the latest exchange seen): a callback never posted again. */
  due(at = this.latest): Fault[] {
    return this.named((state) => state.due?.(at) ?? []);
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

/** Headers a replay leaves out: the connection's and the transport's, which curl sets for the service itself. */
const transportHeaders =
  /^(host|content-length|connection|keep-alive|accept-encoding|transfer-encoding|te|upgrade|proxy-.*|sec-fetch-.*)$/i;

/** The curl of a recorded request: its credentials (already ***) as the environment variables the suite reads. */
function recordedCurl(r: HttpRequest): string {
  const headers = Object.fromEntries(Object.entries(r.headers).filter(([name]) => !transportHeaders.test(name)));
  if (headers[apiKeyHeader] !== undefined) headers[apiKeyHeader] = '$MESSAGING_API_KEY';
  if (headers.authorization !== undefined) headers.authorization = 'Bearer $MESSAGING_INTEGRATOR_TOKEN';
  const refs = ['$MESSAGING_API_KEY', '$MESSAGING_INTEGRATOR_TOKEN'].map((v): [string, string] => [v, v]);
  return curl({ ...r, headers }, refs);
}

/** The case of a recorded request: what the document allows as its answer, whatever state the service was in. */
export function recordedCase(r: Routed, profile: Profile): Case {
  const op = r.operation ?? r.atPath ?? nearest(r.path)!;
  const base = { operation: op, request: r.request };
  const of = (expectation: Case['expectation'], more = {}): Case => ({ ...base, expectation, ...more });
  if (!r.operation) {
    const [status, code] = r.atPath ? [405, 'method-not-allowed'] : [404, 'not-found'];
    const basis = `${op.pointer}/responses/${status}`;
    return of({ allowed: [{ status, code }], kind: responseKind(op, status), basis });
  }
  if (r.request.body && mediaType(r.request) !== 'application/json') {
    const basis = `${op.pointer}/requestBody/content (a body of another media type gets an error)`;
    return of({ ...anyError(op, basis, 'decision'), otherErrors: documentsDefault(op) });
  }
  if (!r.json || r.body === undefined)
    return of(anyError(op, `${op.pointer}/responses/500 (a body that is not JSON: any documented error)`));
  // A success gives back the fields the document says it echoes, as sent (`x-echoes`).
  const sent = r.body !== null && typeof r.body === 'object' ? (r.body as Record<string, unknown>) : {};
  const echoed = echoes(op, 200).filter((f) => Object.hasOwn(sent, f));
  const fields = echoed.length ? { fields: Object.fromEntries(echoed.map((f) => [f, sent[f]])) } : {};
  return of(recordedExpectation(op, r.body, r.credentialGiven, profile), fields);
}

const bare = (path: string) => path.replace(/\/+$/, '') || '/';

/**
 * The judge of exchanges nobody in the suite sent (a log, a HAR file, a proxy's traffic), in time order: the request
 * (the caller's side), the answer against every answer the document allows that request whatever the state (the
 * service's side), a callback, and the whole sequence by the rules over time.
 */
export class Judge {
  readonly profile: Profile;
  readonly overTime: OverTime;
  private readonly resets: Set<string>;

  constructor(readonly options: JudgeOptions = {}) {
    this.profile = options.profile ?? 'described';
    this.overTime = new OverTime(this.profile);
    this.resets = new Set([sandboxResetPath, ...(options.resetPaths ?? [])].map(bare));
  }

  /** A reset that took (2xx; one that failed changed nothing): marked so by the suite, or a POST to a reset path. */
  private isReset(x: RecordedExchange) {
    if (!x.response || x.response.status < 200 || x.response.status > 299) return false;
    const post = x.request.method.toUpperCase() === 'POST' && URL.canParse(x.request.url);
    return x.reset === true || (post && this.resets.has(bare(new URL(x.request.url).pathname)));
  }

  see(recorded: RecordedExchange): Judgement {
    const x = redactExchange(recorded, this.options.secrets);
    const r = x.response;
    const answer = r && parseAnswer(r.status, r.headers['content-type'] ?? '', r.body, r.headers);
    const failures: CheckResult[] = [];
    const judged: Side[] = [];
    let decision = false;
    const done = (what: Judgement['what'], kept = x) => ({ what, judged, decision, failures, kept });
    // Only a failure is made a verdict (and given its replay): a week of traffic passes mostly.
    const fail = (spec: CheckSpec, outcome: Outcome) => {
      if (!fails(outcome)) return;
      const answered = answer ? answerOf(answer.status, answer.body) : `nothing (${x.error ?? 'none recorded'})`;
      const recordedAt = `${x.source}, sent ${new Date(x.at).toISOString()}, answered ${answered}`;
      const from = { replay: recordedCurl, recorded: recordedAt };
      failures.push(verdict(spec, { request: x.request, ...outcome }, this.profile, from));
    };
    if (this.isReset(x)) {
      this.overTime.reset();
      return done('reset');
    }
    const api = route(x.request, this.options.basePath);
    // A request to an operation's path is the API's; a callback goes elsewhere (the receiver's path).
    const posted =
      api.atPath || !/^https?:/i.test(x.request.url)
        ? undefined
        : callbackOf(x.request.method, new URL(x.request.url).pathname, x.request.body, this.options.callbackPath);
    const callback = posted && { ...posted, answer };
    if (callback) {
      const faults = judgeCallback(callback, this.profile);
      const name = `${x.source}: a ${callback.webhook} callback`;
      judged.push('service', 'caller');
      for (const side of judged) {
        const mine = faults.filter((f) => sideOf(f.check) === side);
        const [stage, expected] =
          side === 'service' ? ['callbacks', 'a payload valid against the webhook'] : ['receivers', '200'];
        fail({ stage, name, kind: 'described' }, { expected, actual: details(mine), faults: mine });
      }
    } else if (api.outside) {
      const kept = { ...x, request: { ...x.request, body: undefined }, ...(r ? { response: { ...r, body: '' } } : {}) };
      return done('outside', kept);
    } else {
      const name = `${x.source}: ${x.request.method} ${api.path}`;
      const covers = api.operation ? { covers: { operationId: api.operation.operationId } } : {};
      const refused = ofProfile(dispatch('request', api), this.profile);
      judged.push('caller');
      const outcome = { expected: 'a request the document accepts', actual: details(refused), faults: refused };
      fail({ stage: 'requests', name, kind: 'described', ...covers }, outcome);
      const c = recordedCase(api, this.profile);
      const spec = { stage: 'answers', name, kind: c.expectation.kind, basis: c.expectation.basis, ...covers };
      // No answer, and the recorder says why: the service's fault, unless the caller gave up. An answer only this
      // contract decides (a 404 where the description shows none) is held under strict only.
      const gaveUp = !x.error || /abort|cancel|blocked/i.test(x.error);
      // A 429 is judged by the rules over time alone (the open point rate-limit): under strict, its decision.
      if (answer && !held(answer.status === 429 ? 'decision' : c.expectation.kind, this.profile)) decision = true;
      else if (answer || !gaveUp) {
        judged.push('service');
        fail(spec, caseOutcome(c, { answer: answer ?? null, error: x.error || undefined }, this.profile));
      }
    }
    const via = callback ? { callback } : { routed: api };
    for (const f of this.overTime.see({ exchange: x, caller: callerOf(recorded.request.headers), answer, ...via }))
      fail(...this.ruleFailure(f, x.source));
    return done(callback ? 'callback' : 'api');
  }

  /** A rule over time's fault as a verdict's spec and outcome. */
  private ruleFailure(f: Fault, source: string): [CheckSpec, Outcome] {
    const rule = entry(f.check);
    const holds = rule?.holds ?? f.check;
    const basis = rule?.family === 'over-time' ? { basis: rule.basis } : {};
    return [
      { stage: 'sequence', name: `${source}: ${holds}`, kind: f.kind ?? 'described', ...basis },
      { faults: [f], actual: f.detail, expected: holds },
    ];
  }

  /** The rules over time that judge at the end (a callback never posted again): their failures. */
  end(): CheckResult[] {
    return this.overTime.due().map((f) => verdict(...this.ruleFailure(f, 'the end of the traffic'), this.profile));
  }
}
