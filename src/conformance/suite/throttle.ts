// A rate-limited service (§8: "Rate limits: not shown") must not fail the suite: the run keeps to --rate, and a 429 is
// waited out (Retry-After, else a bounded back-off) and sent again. The one state of a run: its pace and what it waited.
import type { RateLimitCounts } from '../ground/model.ts';

/** A 429 is sent again at most this many times; the answer to the last is what the check sees. */
export const maxResends = 5;
/** The longest a Retry-After is honoured: a service asking for more is read as asking for this. */
export const maxRetryWaitMs = 60_000;
/** The first wait after a 429 without Retry-After, doubled at each resend, never above `maxBackOffMs`. */
export const backOffMs = 500;
export const maxBackOffMs = 8_000;

/** The wait a Retry-After value asks for, in ms (seconds or an HTTP-date), or undefined when it is neither. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = /[a-z]/i.test(v) ? Date.parse(v) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The wait before resend `resend` (1 for the first) of a 429: its Retry-After, capped, or the back-off. */
export function retryWaitMs(headers: Record<string, string>, resend: number, now = Date.now()): number {
  const asked = retryAfterMs(headers['retry-after'], now);
  return asked === undefined ? Math.min(maxBackOffMs, backOffMs * 2 ** (resend - 1)) : Math.min(maxRetryWaitMs, asked);
}

// Not unref'd: a wait may be all that keeps the CLI's process alive.
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Whether `rate` is a rate the run can keep: a finite number of requests a second above 0. */
export const isRate = (rate: unknown): rate is number => typeof rate === 'number' && Number.isFinite(rate) && rate > 0;

/** A run's pace and 429s: shared by every copy of the run's context, so one run keeps one pace. */
export class Throttle {
  private next = 0;
  readonly counts: RateLimitCounts;
  /** Answers 429 left standing (the last resend's, or one the deadline leaves no time to wait out). */
  standing = 0;

  constructor(rate?: number) {
    this.counts = { ...(rate === undefined ? {} : { rate }), pacedMs: 0, answers: 0, waitedMs: 0, notJudged: 0 };
  }

  /** Resolves at this request's turn: one request every 1/rate s, in the order asked, never past `deadlineAt`. */
  async pace(deadlineAt: number): Promise<void> {
    if (this.counts.rate === undefined) return;
    const now = Date.now();
    const at = Math.max(now, this.next);
    this.next = at + 1000 / this.counts.rate;
    const wait = Math.min(at, deadlineAt) - now;
    if (wait <= 0) return;
    this.counts.pacedMs += wait;
    await sleep(wait);
  }

  /** Answer `resend` (0: the first) came 429: true once waited out, false where it stands (last resend, deadline). */
  async waitOut(headers: Record<string, string>, resend: number, deadlineAt: number): Promise<boolean> {
    this.counts.answers++;
    const wait = resend < maxResends ? retryWaitMs(headers, resend + 1) : Number.POSITIVE_INFINITY;
    if (Date.now() + wait >= deadlineAt) {
      this.standing++;
      return false;
    }
    this.counts.waitedMs += wait;
    await sleep(wait);
    return true;
  }
}
