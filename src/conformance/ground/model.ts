// The ground of the suite: an exchange, a case (what the document allows as its answer), a fault, the checks of the
// registry and the verdict the judge (judge.ts) makes. Types only, and a leaf: nothing here depends on what is above.
import type { ExpectationKind, Operation } from '../../core/examples.ts';

export { clip } from '../../core/clip.ts';

/** `described` (default): what the description (or its public docs) states. `strict`: this contract's decisions too. */
export type Profile = 'described' | 'strict';

export interface Credentials {
  /** An API key of an account with balance (`x-api-key`). */
  apiKey: string;
  /** An API key of an account without balance, for `out-of-balance`. */
  apiKeyNoBalance?: string;
  /** A token of a user with the INTEGRATOR permission (close threads). */
  integratorToken: string;
}
export type CredentialName = keyof Credentials;

export type HttpRequest = { method: string; url: string; headers: Record<string, string>; body: string | undefined };

/** An answer as the checks read it. */
export interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** The JSON the text holds; undefined when it holds none. */
  body: unknown;
  /** False when the text is not empty and not JSON. */
  json: boolean;
  /** The answer's headers, their names in lower case (several of one name joined with `, `). */
  headers: Record<string, string>;
}

/** What one exchange's answer was, as recorded: its body as text (decoded: no content coding, no base64). */
export interface RecordedAnswer {
  status: number;
  /** Header names in lower case; several of one name joined with `, `. */
  headers: Record<string, string>;
  body: string;
}

/** An exchange: a request and the answer it got, as the suite sent it, a log or a HAR file holds it, or a proxy saw it. */
export interface RecordedExchange {
  /** When the request started, epoch milliseconds. */
  at: number;
  /** Header names in lower case; the body as text, undefined when there was none. */
  request: HttpRequest;
  /** Undefined when the log holds no answer (the connection failed, or the recorder saw none). */
  response: RecordedAnswer | undefined;
  /** Why no answer came, where the recorder knows: the service's fault, unless the caller gave up (aborted, cancelled). */
  error?: string;
  /** Where it came from, as a person finds it again: `traffic.ndjson line 17`, `run.har entry 4`, `proxy exchange 12`. */
  source: string;
  /** A reset hook's request (the suite's --reset-url): the state is the fixtures' again; the rules over time restart. */
  reset?: boolean;
}

/** One answer the document allows: a status, and the `title` it carries (none: any problem body). */
export type Allowed = { status: number; code?: string };

export interface Expectation {
  /** Any of these answers passes. */
  allowed: Allowed[];
  /** Any other error status passes too, as a problem body (the operation's `default`: "an error", whichever). */
  otherErrors?: boolean;
  kind: ExpectationKind;
  /** Where in the document it comes from. */
  basis: string;
  /** The words of the field it is about, where its basis names a whole schema (a limit of one field). */
  words?: string[];
  /**
   * Under strict, the answers the open points of the basis allow besides their decision (`otherErrors`: any error
   * status the operation documents): an answer among them breaks only that decision, and its failure names the point.
   */
  openAnswers?: Array<{ point: string; allowed: Allowed[]; otherErrors?: boolean }>;
  /** The document's sentence marking the decision it rests on, where its basis does not lead there (a field's type). */
  decision?: string;
}

/** A case: the request, what the document allows as its answer, and what else that answer must hold. */
export interface Case {
  operation: Operation;
  request: HttpRequest;
  expectation: Expectation;
  /** A success's fields as the document gives them for this request (lists compare as sets). */
  fields?: Record<string, unknown>;
  /** A validation error's expected `detail`: the answer's must name each violation it names. */
  detail?: string;
  /** The checks whose expectation here is this contract's decision, where the rest of the answer is described. */
  decided?: string[];
}

/** A request as the checks read it: its operation (by path and method), and its body as JSON. */
export interface Routed {
  request: HttpRequest;
  /** The path past the base path, without the query. */
  path: string;
  /** The operation of the path and method; undefined for a path or method the document does not describe. */
  operation: Operation | undefined;
  /** The operation of the path, whatever the method. */
  atPath: Operation | undefined;
  /** The body as JSON, when it is JSON. */
  body: unknown;
  json: boolean;
  credentialGiven: boolean;
  /** Not the API's: a path whose first segment is no operation's (a docs page, a health check), or not http(s). */
  outside: boolean;
}

/** A status callback the service posted, and the receiver's answer to it. */
export type Callback = { webhook: string; body: unknown; answer: Answer | undefined };

/** An exchange as the rules over time see it. */
export interface Seen {
  exchange: RecordedExchange;
  routed?: Routed;
  answer?: Answer;
  callback?: Callback;
  /** Who sent it: a hash of its credentials (a value is taken once per account; secrets are never kept). */
  caller: string;
}

/** Whose break a fault is: the service's, or the caller's (the app sending requests, or receiving callbacks). */
export type Side = 'service' | 'caller';

/** What a check found wrong, before the judge names its check. */
export interface Found {
  /** The fault, in words ("a problem body: `status` expected to be present"). */
  fault: string;
  /** What causes are grouped by, when not the fault's words: the rule of the document it breaks. */
  key?: string;
  /** This instance of it (the field and value). */
  detail: string;
  /** `decision` where the expectation is this contract's own, not the description's. */
  kind?: ExpectationKind;
  /** What was expected, as a rule in words, where the expectation's answer alone does not say it (a list's order). */
  expects?: string;
  /** The basis of this fault, where it rests on one part of the check's: the open point whose decision it breaks. */
  basis?: string;
  /** A deployment that lacks the example's values (a cascade, a thread) answers so too: its failure names their vars keys. */
  byState?: boolean;
}

/** A fault, named by the check of the registry that found it. */
export interface Fault extends Found {
  check: string;
}

/** What each family judges. A check skips a subject where one it comes `after` found a fault: the root cause. */
export type Subjects = { run: []; request: [r: Routed]; answer: [c: Case, a: Answer]; callback: [c: Callback] };
/** A check's id, its side, what it holds (in a few words), and the checks it comes `after`. */
type Entry = { id: string; side: Side; holds: string; after?: string[] };
export type PointCheck<F extends keyof Subjects = keyof Subjects> = {
  [K in F]: Entry & {
    family: K;
    /** Whether the check judges this subject (default: every one). */
    concerns?(...s: Subjects[K]): boolean;
    faults(...s: Subjects[K]): Found[];
  };
}[F];
/** A rule over time: a fresh state for one pass over exchanges in time order (`due`: what is late by `at`, if any). */
export interface RuleOverTime extends Entry {
  family: 'over-time';
  kind: ExpectationKind;
  basis: string;
  start(): { see(s: Seen): Found[]; due?(at: number): Found[] };
}
export type Check = PointCheck | RuleOverTime;

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
  generated?: number;
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
  /**
   * The description's words the expectation rests on: the `x-words` of the node it is about (a schema's field), else
   * of the nodes its basis names (core/words.ts).
   */
  words?: string[];
  /** Where the expectation is this contract's decision: the document's sentence that marks it `[contract decision]`. */
  decision?: string;
}

/** What a source hands the judge for one check: what its exchanges showed. Never whether it passed: the judge says. */
export interface Outcome {
  /** What the checks found wrong (the profile's own): a check fails on any. */
  faults?: Fault[];
  /** A failure no check of the registry judges: the run's own (a stage stopped, a reset failed, a plan is wrong). */
  failed?: string;
  expected?: string;
  actual?: string;
  /** The answer in short (`400 text-not-specified`, `no answer`). */
  answer?: string;
  request?: HttpRequest;
  /** Why the check could not judge (a 429 its resends did not get past): neither a pass nor a failure. */
  skipped?: string;
}

/** A verdict: one check, and what the judge made of it. Made by judge.ts's `verdict` alone. */
export interface CheckResult extends CheckSpec, Omit<Outcome, 'request' | 'failed'> {
  ok: boolean;
  ms: number;
  request?: string;
  /** The request as a ready curl command, credentials as environment references. */
  replay?: string;
  /** Example values the failed request sends that the run maps to nothing: their vars keys (a deployment may lack them). */
  vars?: string;
  /** Where a recorded exchange is (`traffic.ndjson line 17`), when it was sent, and the answer it got. */
  recorded?: string;
  /** Whose break a failure is: the service's (the default) or the caller's. */
  side?: Side;
}

/** Of the `of` items the document states, how many a check reached (`covered`), and of those how many no check failed. */
export interface Covered {
  covered: number;
  /** Absent in a report of 1.1.0 and before, which counted no passes: read it as `covered`. */
  passed?: number;
  of: number;
}

/** Per operation: how much of what the document states for it this run exercised. */
export interface CoverageRow {
  operationId: string;
  statuses: Covered;
  codes: Covered;
  examples: Covered;
  /** Distinct schema limits reached; checks that met one (`at`) or passed it by one (`past`); requests generated. */
  breadth: { limits: number; at: number; past: number; generated: number };
  /** What no check reached, and why. */
  missed: Array<{ what: string; why: string }>;
  /** What a check held only loosely because no reset hook made the starting state known. */
  needsReset?: Array<{ what: string; why: string }>;
}

export interface SuiteReport {
  /** Which checks ran: `described` only, or `strict` (the contract's decisions too). */
  profile: Profile;
  results: CheckResult[];
  stageMs: Record<string, number>;
  /** Per operation, what of the document the run exercised (absent for the webhook check). */
  coverage?: CoverageRow[];
  /** False when the run could not finish (its deadline passed); `unfinished` says why. */
  finished: boolean;
  unfinished?: string;
  /** The credentials answered 401 on requests that are otherwise right: the run stopped before any stage. */
  rejectedCredentials?: CredentialName[];
  /** Why the run stopped before any stage: the probes' answers are not the service's (all 404, none JSON). */
  misdirected?: string;
  /** True only when the run finished and every check of every selected stage ran and passed. */
  ok: boolean;
  /** The stage whose failed check stopped the run (--bail): the stages after it did not run. */
  bailedAt?: string;
  /** The run's pace (--rate) and the 429s it waited out; absent when it kept no pace and got none. */
  rateLimit?: RateLimitCounts;
}

/** What the run's 429s cost, as the report tells it. */
export interface RateLimitCounts {
  /** Requests a second the run kept to (--rate); absent: as fast as answers came. */
  rate?: number;
  /** Time spent waiting for the pace, in ms. */
  pacedMs: number;
  /** Answers 429 the run got, resends' included. */
  answers: number;
  /** Time spent waiting them out, in ms. */
  waitedMs: number;
  /** Checks not judged: the answer was still 429 after the last resend. */
  notJudged: number;
}

/** Whose breaks fail the run: the service's (answers the document does not allow), the callers' (requests it refuses), or both. */
export type Judged = Side | 'both';

/** What a judge saw, by side: exchanges judged, and how many broke the contract. */
export interface TrafficCounts {
  exchanges: number;
  unanswered: number;
  callbacks: number;
  /** Exchanges at paths outside the document's (a docs page, a health check): not the API's, not judged. */
  outside: number;
  /** Answers whose every allowed answer is a decision of this contract: judged under --profile strict only. */
  decisions: number;
  /** Reset hooks' requests (the sandbox's /_sandbox/reset, --reset-url's path): the rules over time start again. */
  resets?: number;
  service: { judged: number; failed: number };
  caller: { judged: number; failed: number };
  /** Failures past the first few of their cause, and of causes past the most the report holds: counted, not kept. */
  notKept: number;
}

/** The traffic report: the suite's report with what the judge counted. */
export type TrafficReport = SuiteReport & { traffic: TrafficCounts & { judgedSide: Judged; ms: number } };

// Not the class: one with private members is a new type in each build of the declarations, a break to the types gate.
/** A judge of traffic as its users see it. */
export interface TrafficJudgement {
  readonly judged: Judged;
  /** Judges one exchange, in time order; the failures it shows that fail the run. */
  see(x: RecordedExchange): CheckResult[];
  /** The rules over time that judge at the end; their failures. */
  end(): CheckResult[];
  report(): TrafficReport;
  /** How many failures the causes of these kept results stand for. */
  shown(results: CheckResult[]): number;
}

// The most of one answer the suite reads: the document states no size, its largest answers (a list of every thread id
// sent) are far below, and a server that sends more must not fill the suite's memory.
export const maxAnswerBytes = 16 * 1024 * 1024;

/** "400 text-not-specified or 500 system-error" (", or another error status" where any error passes). */
export const describeAllowed = (allowed: Allowed[], otherErrors = false) =>
  `${allowed.map((a) => `${a.status}${a.code ? ` ${a.code}` : ''}`).join(' or ')}${otherErrors ? ', or another error status' : ''}`;

/** The media type a request's body is sent as, in lower case, without parameters. */
export const mediaType = (r: HttpRequest) => (r.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/** An answer in short, for reading and for grouping: status and `title`. */
export function answerOf(status: number, body: unknown): string {
  const title = (body as { title?: unknown } | null | undefined)?.title;
  return typeof title === 'string' ? `${status} ${title.slice(0, 80)}` : String(status);
}

/** The profile filter: a decision of this contract is held under strict only (the judge's, read by plans too). */
export const held = (kind: string | undefined, profile: Profile) => kind !== 'decision' || profile === 'strict';

/** Whether an outcome fails: a fault (the profile's own: the judge hands no other), or a failure of the run's own. */
export const fails = (o: Outcome) => o.failed !== undefined || (o.faults?.length ?? 0) > 0;
