// When and how long to wait before trying a call again.

export interface RetryOptions {
  /** Further attempts after the first (default 2). */
  retries?: number;
  /** First backoff step (default 200 ms); it doubles each attempt. */
  baseDelayMs?: number;
  /** Cap on any wait, backoff or Retry-After (default 5000 ms). A longer Retry-After ends the retries. */
  maxDelayMs?: number;
  /** Full jitter: wait a random time up to the backoff step (default true). */
  jitter?: boolean;
  /** For tests: how to wait, and the random source. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export type RetryPolicy = Required<RetryOptions>;

export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  const o = options === false ? { retries: 0 } : (options ?? {});
  return {
    retries: o.retries ?? 2,
    baseDelayMs: o.baseDelayMs ?? 200,
    maxDelayMs: o.maxDelayMs ?? 5000,
    jitter: o.jitter ?? true,
    sleep: o.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    random: o.random ?? Math.random,
  };
}

/** Milliseconds to wait before attempt `attempt` (1 = the first retry), or null to stop. */
export function retryDelay(policy: RetryPolicy, attempt: number, retryAfter: string | null): number | null {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const backoff = policy.jitter ? Math.round(policy.random() * step) : step;
  const asked = parseRetryAfter(retryAfter);
  if (asked === null) return backoff;
  return asked > policy.maxDelayMs ? null : Math.max(asked, backoff);
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now. */
function parseRetryAfter(value: string | null): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}
