// The model of a run: what every stage gets (the context), what a check is and reports, and what a run reports. A
// leaf of the suite beside case.ts: the runner, the stages and the run's checks import it.
import type { ExamplePair, ExpectationKind } from '../../core/examples.ts';
import type { Credentials, Fault, Profile } from '../ground/model.ts';
import type { Answer, HttpRequest as PairRequest } from '../ground/transport.ts';
import type { RecordedExchange } from '../traffic/exchange.ts';
import type { SequenceRun } from '../checks/over-time.ts';

export type { Profile } from '../ground/model.ts';

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
}

export type CredentialName = 'apiKey' | 'apiKeyNoBalance' | 'integratorToken';

/** Per operation: how much of what the document states for it this run exercised. */
/** Of the `of` items the document states, how many a check reached (`covered`), and of those how many no check failed. */
export interface Covered {
  covered: number;
  /** Absent in a report of 1.1.0 and before, which counted no passes: read it as `covered`. */
  passed?: number;
  of: number;
}

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
