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

/** Sends a request and reads the answer; a network failure is an answer too (status 0). */
export async function send(r: PairRequest, extraHeaders: Record<string, string> = {}): Promise<{ response: Response | null; error?: string }> {
  try {
    const response = await fetch(r.url, { method: r.method, headers: { ...r.headers, ...extraHeaders }, body: r.body, signal: AbortSignal.timeout(15_000) });
    return { response };
  } catch (error) {
    return { response: null, error: `${(error as Error).message}${(error as { cause?: Error }).cause ? ` (${(error as { cause: Error }).cause.message})` : ''}` };
  }
}

/** Times `fn` and turns a thrown error into a failed check. */
export async function check(stage: string, name: string, fn: () => Promise<Omit<CheckResult, 'stage' | 'name' | 'ms'>>): Promise<CheckResult> {
  const start = performance.now();
  try {
    return { stage, name, ...(await fn()), ms: performance.now() - start };
  } catch (error) {
    return { stage, name, ok: false, ms: performance.now() - start, expected: 'the check to run', actual: (error as Error).message };
  }
}
