// The model of a run: what every stage gets (the context: its options, how it sends and has a check judged), a stage
// and a check it plans. Stages read this and the document, never the judge or runner.ts (which gives the methods).
import type { ExamplePair } from '../../core/examples.ts';
import { held, type Answer, type Case, type CheckResult, type CheckSpec } from '../ground/model.ts';
import type { Coverage, Credentials, Fault, HttpRequest, Outcome, Profile } from '../ground/model.ts';
import type { Throttle } from './throttle.ts';

export interface CallbackOptions {
  /** Where the receiver listens. */
  host: string;
  port: number;
  /** The URL the service posts to, when it differs from the listening address (a tunnel, a proxy). */
  publicUrl?: string;
  /** How long to wait for the callbacks (default: the first documented retry delay plus 10 s). */
  windowMs?: number;
}

/** What `send` got: the whole answer, or why none came; and what the rules over time found in the exchange. */
export type Sent = ({ answer: Answer; error?: undefined } | { answer: null; error: string }) & { overTime: Fault[] };

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
  /** The run's pace (--rate) and its 429s, waited out in `send`: one for the run, shared by copies of the context. */
  throttle: Throttle;
  /** The current stage's traffic, for failing fast, and its checks as they end (the run resets it per stage). */
  stage: { name?: string; answered: number; networkFailures: number; sent: number; checks: CheckResult[] };
  /** A reset hook put the service in the examples' state before this stage; else a check holds whatever it finds. */
  stateKnown: boolean;
  /** The example requests the dredd stage sent in this run, with their answers: the examples stage judges these. */
  sentExamples: Map<ExamplePair, { request: HttpRequest; expected: unknown; answer: Answer }>;
  /** Stop at the first failed check: its stage ends there, and no stage runs after it (--bail). */
  bail?: boolean;
  /**
   * Sends a request and reads the whole answer, within the run's timeout and deadline, at the run's pace; a 429 is
   * waited out and sent again (throttle.ts). Each send is heard (--record) and judged over time.
   */
  send(r: HttpRequest): Promise<Sent>;
  /** What the judge makes of what `send` got for a case's request. */
  judged(c: Case, sent: Sent): Outcome;
  /** Sends a case's request, with `headers` the report leaves out of it, and has its answer judged. */
  sendCase(c: Case, headers?: Record<string, string>): Promise<Outcome>;
  /** Runs one check: times it, has the judge make its verdict, and stops the stage or the run where it must. */
  check(spec: CheckSpec, run: () => Promise<Outcome>): Promise<CheckResult>;
  /** A callback the receiver got and its answer (none: connection dropped): heard (--record), judged, over time too. */
  received(post: { at: number; url: string; webhook: string; text: string; body: unknown; status?: number }): Fault[];
  /** What the rules over time find due (a callback never posted again) by now, or by `at`. */
  due(at?: number): Fault[];
}

/** The longest wait for one answer (body included), and for a whole run, unless the run says otherwise. */
export const defaultTimeoutMs = 10_000;
export const defaultDeadlineMs = 5 * 60_000;

/** Thrown by `check` to stop a stage: the server stopped answering. */
export class StageStopped extends Error {}
/** Thrown by `check` to stop the run: its deadline passed. */
export class RunOver extends StageStopped {}

/** Thrown by `check` under `bail` once a check of the stage failed: the run ends with that failure. */
export class Bailed extends Error {
  override message = 'stopped at the first failed check (--bail)';
}

/** Whether the run's time is up, by the clock too: a due timer waits for the event loop, and Dredd sends before it. */
export const deadlinePassed = (ctx: SuiteContext) => ctx.deadline.aborted || Date.now() >= ctx.deadlineAt;

/**
 * A signal that fires after `ms` or at the run's deadline, whichever is first. One timer, no listener: Node 20's
 * AbortSignal.any() can lose a timeout signal to GC (a stalled request then hung on), and listeners would pile up.
 */
export function requestSignal(ctx: Pick<SuiteContext, 'deadlineAt' | 'timeoutMs'>, ms = ctx.timeoutMs): AbortSignal {
  const controller = new AbortController();
  const left = ctx.deadlineAt - Date.now();
  const [wait, why, name] =
    left <= ms ? [left, "the run's deadline passed", 'AbortError'] : [ms, `no answer within ${ms} ms`, 'TimeoutError'];
  setTimeout(() => controller.abort(new DOMException(why, name)), Math.max(0, wait)).unref();
  return controller.signal;
}

/** Whether a check of `kind` runs under the context's profile. */
export const runs = (ctx: SuiteContext, kind: string) => held(kind, ctx.profile);

export interface Stage {
  name: string;
  description: string;
  /** How many checks `run` makes under this context (its banner says so). */
  count(ctx: SuiteContext): number;
  run(ctx: SuiteContext): Promise<CheckResult[]>;
}

/** One check of a stage before it runs: what it is, and its body. */
export interface Planned extends Omit<CheckSpec, 'stage'> {
  run(): Promise<Outcome>;
}

export async function runPlanned(ctx: SuiteContext, stage: string, planned: Planned[]): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const { run, ...spec } of planned) results.push(await ctx.check({ stage, ...spec }, run));
  return results;
}

/** A stage whose checks are planned once per run (its profile's), so that its banner counts the very checks it runs. */
export function planStage(name: string, description: string, plan: (ctx: SuiteContext) => Planned[]): Stage {
  const built = new WeakMap<SuiteContext, Planned[]>();
  const selected = (ctx: SuiteContext) => {
    const list = built.get(ctx) ?? plan(ctx).filter((p) => runs(ctx, p.kind));
    built.set(ctx, list);
    return list;
  };
  return { name, description, count: (c) => selected(c).length, run: (c) => runPlanned(c, name, selected(c)) };
}

/** The check that sends a case and has its answer judged. */
export const caseCheck = (ctx: SuiteContext, name: string, c: Case, covers?: Coverage): Planned => {
  const { kind, basis, words, decision } = c.expectation;
  const said = { ...(words ? { words } : {}), ...(decision ? { decision } : {}) };
  return { name, kind, basis, ...said, ...(covers ? { covers } : {}), run: () => ctx.sendCase(c) };
};
