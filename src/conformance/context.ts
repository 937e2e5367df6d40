// What every stage gets, and what it reports.
import { apiKeyHeader } from '../core/meta.ts';
import type { Credentials, PairRequest } from './pairs.ts';

export interface SuiteContext {
  server: string;
  credentials: Credentials;
  values: Record<string, unknown>;
  seed: number;
  /** Against a mock: ask for each example with `Prefer: code=..., example=...`. */
  mock: boolean;
  log(line: string): void;
  /** Longest wait for one answer, body included. */
  timeoutMs: number;
  /** Fires when the whole run's time is up, at `deadlineAt` (epoch ms). */
  deadline: AbortSignal;
  deadlineAt: number;
  /** The current stage's traffic, for failing fast (runSuite resets it per stage). */
  stage: StageTraffic;
}

/** How a stage's requests have fared; every check of it is recorded here as it ends. */
export interface StageTraffic {
  answered: number;
  networkFailures: number;
  checks: CheckResult[];
}

/** The first requests of a stage all failing at the network level: the stage stops at once. */
export const failFastAfter = 3;

/** Thrown by `check` to stop a stage (the server stopped answering) or the run (the deadline). */
export class StageStopped extends Error {
  constructor(message: string, readonly runOver: boolean) {
    super(message);
  }
}

export interface CheckResult {
  stage: string;
  name: string;
  ok: boolean;
  ms: number;
  request?: string;
  expected?: string;
  actual?: string;
}

export interface Stage {
  name: string;
  description: string;
  run(ctx: SuiteContext): Promise<CheckResult[]>;
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
 * A signal that fires after `ms` or at the run's deadline, whichever comes first. One timer, no
 * listener: Node 20's AbortSignal.any() can lose a timeout signal to garbage collection (a stalled
 * request then waited for the server to give up), and a listener per request on the deadline
 * would pile up.
 */
export function requestSignal(ctx: SuiteContext, ms = ctx.timeoutMs): AbortSignal {
  const controller = new AbortController();
  const left = ctx.deadlineAt - Date.now();
  const timer = setTimeout(
    () => controller.abort(left <= ms ? new DOMException("the run's deadline passed", 'AbortError') : new DOMException(`no answer within ${ms} ms`, 'TimeoutError')),
    Math.max(0, Math.min(ms, left)),
  );
  timer.unref();
  return controller.signal;
}

/**
 * Sends a request and reads the answer; a network failure is an answer too (no response). The
 * answer, body included, must come within the run's `timeoutMs` and before its deadline.
 */
export async function send(ctx: SuiteContext, r: PairRequest, extraHeaders: Record<string, string> = {}): Promise<{ response: Response | null; error?: string }> {
  try {
    const signal = requestSignal(ctx);
    const response = await fetch(r.url, { method: r.method, headers: { ...r.headers, ...extraHeaders }, body: r.body, signal });
    ctx.stage.answered++;
    return { response };
  } catch (error) {
    ctx.stage.networkFailures++;
    const cause = (error as { cause?: Error }).cause;
    const reason = ctx.deadline.aborted ? "the run's deadline passed" : (error as Error).name === 'TimeoutError' ? `no answer within ${ctx.timeoutMs} ms` : `${(error as Error).message}${cause ? ` (${cause.message})` : ''}`;
    return { response: null, error: reason };
  }
}

/**
 * Times `fn` and turns a thrown error into a failed check; records it in the stage's traffic.
 * Before running, it stops the run when the deadline has passed, and the stage when its first
 * requests all failed at the network level: hundreds of checks against a dead server say nothing more.
 */
export async function check(ctx: SuiteContext, stage: string, name: string, fn: () => Promise<Omit<CheckResult, 'stage' | 'name' | 'ms'>>): Promise<CheckResult> {
  if (ctx.deadline.aborted) throw new StageStopped("the run's deadline passed before every check ran", true);
  if (ctx.stage.answered === 0 && ctx.stage.networkFailures >= failFastAfter) {
    throw new StageStopped(`the first ${ctx.stage.networkFailures} requests of the stage got no answer; the server is not answering`, false);
  }
  const start = performance.now();
  let result: CheckResult;
  try {
    result = { stage, name, ...(await fn()), ms: performance.now() - start };
  } catch (error) {
    result = { stage, name, ok: false, ms: performance.now() - start, expected: 'the check to run', actual: (error as Error).message };
  }
  ctx.stage.checks.push(result);
  return result;
}
