/** Where an expectation comes from: the service's description (or its public docs), or a choice of this contract. */
type ExpectationKind = 'described' | 'decision';

/** `described` (default): what the description (or its public docs) states. `strict`: this contract's decisions too. */
type Profile = 'described' | 'strict';
interface Credentials {
    /** An API key of an account with balance (`x-api-key`). */
    apiKey: string;
    /** An API key of an account without balance, for `out-of-balance`. */
    apiKeyNoBalance?: string;
    /** A token of a user with the INTEGRATOR permission (close threads). */
    integratorToken: string;
}
type CredentialName = keyof Credentials;
type HttpRequest = {
    method: string;
    url: string;
    headers: Record<string, string>;
    body: string | undefined;
};
/** What one exchange's answer was, as recorded: its body as text (decoded: no content coding, no base64). */
interface RecordedAnswer {
    status: number;
    /** Header names in lower case; several of one name joined with `, `. */
    headers: Record<string, string>;
    body: string;
}
/** An exchange: a request and the answer it got, as the suite sent it, a log or a HAR file holds it, or a proxy saw it. */
interface RecordedExchange {
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
/** Whose break a fault is: the service's, or the caller's (the app sending requests, or receiving callbacks). */
type Side = 'service' | 'caller';
/** What a check found wrong, before the judge names its check. */
interface Found {
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
interface Fault extends Found {
    check: string;
}
/** An operation's documented status, error code or named example that a check exercises. */
interface Coverage {
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
interface CheckSpec {
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
interface Outcome {
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
interface CheckResult extends CheckSpec, Omit<Outcome, 'request' | 'failed'> {
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
interface Covered {
    covered: number;
    /** Absent in a report of 1.1.0 and before, which counted no passes: read it as `covered`. */
    passed?: number;
    of: number;
}
/** Per operation: how much of what the document states for it this run exercised. */
interface CoverageRow {
    operationId: string;
    statuses: Covered;
    codes: Covered;
    examples: Covered;
    /** Distinct schema limits reached; checks that met one (`at`) or passed it by one (`past`); requests generated. */
    breadth: {
        limits: number;
        at: number;
        past: number;
        generated: number;
    };
    /** What no check reached, and why. */
    missed: Array<{
        what: string;
        why: string;
    }>;
    /** What a check held only loosely because no reset hook made the starting state known. */
    needsReset?: Array<{
        what: string;
        why: string;
    }>;
}
interface SuiteReport {
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
interface RateLimitCounts {
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
type Judged = Side | 'both';
/** What a judge saw, by side: exchanges judged, and how many broke the contract. */
interface TrafficCounts {
    exchanges: number;
    unanswered: number;
    callbacks: number;
    /** Exchanges at paths outside the document's (a docs page, a health check): not the API's, not judged. */
    outside: number;
    /** Answers whose every allowed answer is a decision of this contract: judged under --profile strict only. */
    decisions: number;
    /** Reset hooks' requests (the sandbox's /_sandbox/reset, --reset-url's path): the rules over time start again. */
    resets?: number;
    service: {
        judged: number;
        failed: number;
    };
    caller: {
        judged: number;
        failed: number;
    };
    /** Failures past the first few of their cause, and of causes past the most the report holds: counted, not kept. */
    notKept: number;
}
/** The traffic report: the suite's report with what the judge counted. */
type TrafficReport = SuiteReport & {
    traffic: TrafficCounts & {
        judgedSide: Judged;
        ms: number;
    };
};
/** A judge of traffic as its users see it. */
interface TrafficJudgement {
    readonly judged: Judged;
    /** Judges one exchange, in time order; the failures it shows that fail the run. */
    see(x: RecordedExchange): CheckResult[];
    /** The rules over time that judge at the end; their failures. */
    end(): CheckResult[];
    report(): TrafficReport;
    /** How many failures the causes of these kept results stand for. */
    shown(results: CheckResult[]): number;
}

interface CallbackOptions {
    /** Where the receiver listens. */
    host: string;
    port: number;
    /** The URL the service posts to, when it differs from the listening address (a tunnel, a proxy). */
    publicUrl?: string;
    /** How long to wait for the callbacks (default: the first documented retry delay plus 10 s). */
    windowMs?: number;
}

/** The options of a judge of exchanges nobody in the suite sent. */
interface JudgeOptions {
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

interface ConformanceOptions extends Credentials {
    /** Base URL of the implementation, e.g. https://staging.example.org. */
    server: string;
    /** Deployment values for the examples' values, keyed by their JSON form (see the README). */
    values?: Record<string, unknown>;
    /** Stage names to run (default: all) and to leave out. */
    only?: string[];
    skip?: string[];
    /** Seed of the generated requests and of the order of the bad inputs (default 1): the same seed repeats a run. */
    seed?: number;
    /** Generated requests per operation in the generated stage (default 25). */
    generated?: number;
    /**
     * Check the service's own status callbacks (adds the stage `callbacks`): a receiver listens at `host:port` (the
     * service posts there, or to `publicUrl`) for `windowMs` after the suite schedules the success examples.
     */
    callbacks?: CallbackOptions;
    /** Against a mock: ask for each example by name with `Prefer`. */
    mock?: boolean;
    /** Stop at the first failed check (default false): a quick answer to "is anything wrong?", not the whole list. */
    bail?: boolean;
    /** `described` (default): only what the service's description states. `strict`: this contract's decisions too. */
    profile?: Profile;
    /** Progress lines (default: none). */
    log?: (line: string) => void;
    /** Longest wait for one answer, body included (default 10 s). */
    timeoutMs?: number;
    /** Longest time for the whole run (default 5 min); past it the run stops, unfinished and not passed. */
    deadlineMs?: number;
    /**
     * Requests a second the run keeps to, every request of every stage (default: none, as fast as answers come). A 429
     * is waited out (Retry-After, else a back-off) and sent again whatever the rate; this keeps a run below the limit.
     */
    rate?: number;
    /**
     * POSTed before each stage to put the service back in the examples' state (the sandbox's is `<url>/_sandbox/reset`).
     * Without a reset hook every check holds whatever state it finds; those needing the examples' say so in the coverage.
     */
    resetUrl?: string;
    /** A shell command run before each stage, for the same purpose; it must exit 0. */
    resetCommand?: string;
    /** Write every exchange the run sends, credentials as ***, to this file: NDJSON, or HAR for a `.har` name. */
    record?: string;
}
/** An option of runConformance that is not what it must be: which, what it must be, and what it was. */
declare class OptionError extends TypeError {
    readonly option: keyof ConformanceOptions;
    readonly expected: string;
    readonly value: unknown;
    constructor(option: keyof ConformanceOptions, expected: string, value: unknown);
}
/** The names and descriptions of the stages, in the order they run; `callbacks` runs only with the callbacks option. */
declare const conformanceStages: Array<{
    name: string;
    description: string;
    needsCallbacks?: true;
}>;
/** Runs the stages: rejects with UnreachableError when the server does not answer, an Error naming an unknown stage. */
declare function runConformance(options: ConformanceOptions): Promise<SuiteReport>;

declare class UnreachableError extends Error {
}

/** Where each credential came from, as the person who ran the suite knows it (default: the option names). */
type CredentialSources = Partial<Record<CredentialName, string>>;
/** A run's end (each stage printed its line): causes, coverage, profile, count; after --bail, the failure and a line. */
declare function summary(report: SuiteReport, sources?: CredentialSources): string;
/** The whole report as JSON: every check with its kind, basis, timing and replay command. */
declare const json: (report: SuiteReport) => string;
declare function junit(report: SuiteReport): string;
/** What a traffic run prints at its end: the causes, then what was judged on each side and what fails the run. */
declare function trafficSummary(report: TrafficReport, judge?: TrafficJudgement): string;

interface Vars extends Partial<Credentials> {
    values?: Record<string, unknown>;
}
declare class VarsError extends Error {
}
/** The vars file at `path`; a credential written `${NAME}` is read from `env` (left out when NAME is not set there). */
declare function loadVars(path: string, env?: Record<string, string | undefined>): Vars;

interface WebhookOptions {
    url: string;
    timeoutMs?: number;
    /** described (default): the posts the service makes; strict: also what is not a callback (this contract's expectation). */
    profile?: Profile;
    log?: (line: string) => void;
}
declare function checkWebhookReceiver(options: WebhookOptions): Promise<SuiteReport>;

interface TrafficOptions extends JudgeOptions {
    judge?: Judged;
}

/** Judges the files; `found` hears each failure as it is judged. */
declare function judgeTraffic(files: string[], options?: TrafficOptions & {
    format?: 'har' | 'ndjson';
}, found?: (line: string) => void): Promise<{
    report: TrafficReport;
    judge: TrafficJudgement;
}>;

interface ProxyOptions extends TrafficOptions {
    /** Where requests go: the service's base URL (its path is put before each request's). */
    target: string;
    host?: string;
    port?: number;
    /** Also write every exchange (credentials as ***) to this file: NDJSON, or HAR for a `.har` name. */
    record?: string;
    /** Hears each failure as it is judged. */
    finding?(result: CheckResult): void;
    /** Hears the number of exchanges judged after each one (the CLI writes its reports every N). */
    judged?(count: number): void;
    /** False: forward only, judge nothing (the benchmark's bare proxy). */
    judging?: boolean;
}
interface RunningProxy {
    url: string;
    judge: TrafficJudgement;
    /** Stops listening, waits for the exchanges under way, ends the rules over time, and closes the recording. */
    close(): Promise<CheckResult[]>;
}
declare function startProxy(options: ProxyOptions): Promise<RunningProxy>;

export { OptionError, UnreachableError, VarsError, checkWebhookReceiver, conformanceStages, junit as formatJUnit, json as formatJson, summary as formatSummary, trafficSummary as formatTrafficSummary, judgeTraffic, loadVars, runConformance, startProxy };
export type { CallbackOptions, CheckResult, ConformanceOptions, SuiteReport as ConformanceReport, Judged, Profile, ProxyOptions, RecordedAnswer, RecordedExchange, RunningProxy, TrafficJudgement, TrafficOptions, TrafficReport, Vars, WebhookOptions };
