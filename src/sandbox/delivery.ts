// Simulated delivery: each accepted message goes through its cascade's stages in order, and each
// stage's result is posted to the callback URL as the service's status callback. Rules, in order
// (first match wins; README.md lists them):
//   duplicated            an identical message to the same address within the duplicate window
//   error-address-format  a PHONE address that does not match delivery.phonePattern
//   error-subject-unknown a stage whose sender signature is not activated (subjectActive: false)
//   media-request-failed  an attachment URL whose host ends with a delivery.unreachableMediaHostSuffixes entry
//   too-long-message      a text longer than delivery.maxTextLength of the stage's channel
//   not-template-match    a stage with templates, and a text that matches none
// An UNDELIVERED stage passes the message to the next stage (duplicated ends it); the first
// stage without a failure reports DELIVERED.
import type { CascadeScheduleRequest, StatusCallback } from '../core/types.ts';
import { resolvePointer } from '../core/document.ts';
import { codePointLength } from '../core/validation.ts';
import type { Fixtures, FixtureStage } from './fixtures.ts';
import { RecentKeys } from './recent-keys.ts';
import { contentKeyOf } from './channels.ts';
import { templatePattern, type SandboxLimits, type SandboxState } from './state.ts';
import { realClock, type Clock, type ClockWork } from './clock.ts';

export { realClock, type Clock } from './clock.ts';

/** A message the sandbox accepted, handed to the delivery simulation. */
export interface Accepted {
  request: CascadeScheduleRequest;
  acceptedAt: number;
}

export interface CallbackRecord {
  payload: StatusCallback;
  /** Each post: the receiver's HTTP status, or the network error. */
  attempts: Array<{ at: string; status?: number; error?: string }>;
  state: 'pending' | 'delivered' | 'failed' | 'no-callback-url';
}

export const duplicateWindowMs =
  (resolvePointer('#/components/schemas/KnownDeliveryErrorCode') as { 'x-duplicate-window-seconds': number })[
    'x-duplicate-window-seconds'
  ] * 1000;
export const documentedRetryDelaysMs = (
  resolvePointer('#/webhooks/messageStatus/post') as { 'x-retry-delays-seconds': number[] }
)['x-retry-delays-seconds'].map((s) => s * 1000);

export interface DeliveryOptions {
  callbackUrl?: string;
  clock?: Clock;
  /** Waits before each repeat of a callback the receiver did not answer with 200 (default: the documented delays). */
  callbackRetryDelaysMs?: number[];
  limits?: SandboxLimits;
  /** How many callbacks the log keeps, newest last (default 10 000). */
  callbackLogSize?: number;
  fetch?: typeof fetch;
}

export class DeliverySimulator implements ClockWork {
  readonly callbacks: CallbackRecord[] = [];
  /** Messages sent within the duplicate window, as hashes. */
  private readonly recent: RecentKeys;
  private nextMessageId = 700_000_001;
  private pending = 0;
  /** Of `pending`, the work waiting for a clock timer (a startTime ahead, a retry's delay). */
  private waiting = 0;
  /** Bumped by reset(): work begun before it (a message waiting for its startTime, a callback retry) is dropped. */
  private generation = 0;
  private idleWaiters: Array<() => void> = [];
  private settleWaiters: Array<() => void> = [];
  private readonly clock: Clock;
  private readonly retryDelaysMs: number[];
  private readonly phone: RegExp;
  /** The last isoTime: its input and its text. */
  private lastTime: [number, string] = [Number.NaN, ''];

  constructor(
    private readonly state: SandboxState,
    private readonly delivery: Fixtures['delivery'],
    private readonly options: DeliveryOptions = {},
  ) {
    this.clock = options.clock ?? realClock;
    this.retryDelaysMs = options.callbackRetryDelaysMs ?? documentedRetryDelaysMs;
    this.phone = new RegExp(delivery.phonePattern);
    this.recent = new RecentKeys({ windowMs: duplicateWindowMs, limit: options.limits?.duplicateKeys ?? 100_000 });
  }

  reset(): void {
    this.callbacks.length = 0;
    this.recent.clear();
    this.generation++;
    this.pending = 0;
    this.waiting = 0;
    this.track(0);
  }

  /**
   * Resolves when no delivery or callback post is waiting (with a fake clock: once its timers ran). A message
   * scheduled for later (startTime) waits until then; reset() drops it.
   */
  idle(): Promise<void> {
    return this.pending === 0 ? Promise.resolve() : new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Whether nothing runs but what waits for the clock: a delivery at its startTime, a callback retry after its delay. */
  settled(): boolean {
    return this.pending === this.waiting;
  }

  whenSettled(): Promise<void> {
    return this.settled() ? Promise.resolve() : new Promise((resolve) => this.settleWaiters.push(resolve));
  }

  accept = ({ request, acceptedAt }: Accepted): void => {
    const start = request.startTime ? Date.parse(request.startTime) : acceptedAt;
    this.later(Math.max(0, start - acceptedAt), () => {
      try {
        this.deliver(request);
      } catch (error) {
        // A simulation fault must not take the sandbox down; the message simply gets no callback.
        process.stderr.write(`sandbox delivery: ${(error as Error).message}\n`);
      }
    });
  };

  private deliver(request: CascadeScheduleRequest): void {
    const cascade = this.state.cascades.get(request.cascadeId);
    if (!cascade) return;
    const messageId = this.nextMessageId++;
    const fingerprint = JSON.stringify([
      request.cascadeId,
      request.subscriberFilter.type,
      request.subscriberFilter.address,
      request.content,
    ]);
    const now = this.clock.now();
    const duplicate = this.recent.seenOrAdd(fingerprint, now);
    const statusAt = this.isoTime(now);
    for (const stage of cascade.stages) {
      const error = duplicate ? 'duplicated' : this.failure(request, stage);
      this.post({
        requestId: request.requestId,
        messageId,
        cascadeId: cascade.id,
        cascadeStageUUID: stage.uuid,
        subject: stage.subject,
        subjectId: stage.subjectId,
        status: error ? 'UNDELIVERED' : 'DELIVERED',
        statusAt,
        error,
        comment: error ? `Simulated by the sandbox: ${error}.` : null,
      });
      if (!error || error === 'duplicated') return;
    }
  }

  private failure(request: CascadeScheduleRequest, stage: FixtureStage): string | null {
    const { address, type } = request.subscriberFilter;
    const entry = request.content[contentKeyOf(stage.channel) as keyof CascadeScheduleRequest['content']] as
      | { text?: string; attachment?: { url: string } }
      | undefined;
    if (type === 'PHONE' && !this.phone.test(address)) return 'error-address-format';
    if (stage.subjectActive === false) return 'error-subject-unknown';
    const url = entry?.attachment?.url;
    const host = url ? hostOf(url) : '';
    if (url && this.delivery.unreachableMediaHostSuffixes.some((s) => host.endsWith(s))) return 'media-request-failed';
    const max = this.delivery.maxTextLength[stage.channel];
    if (max !== undefined && codePointLength(entry?.text ?? '') > max) return 'too-long-message';
    if (stage.templates && !stage.templates.some((t) => templatePattern(t).test(entry?.text ?? '')))
      return 'not-template-match';
    return null;
  }

  /** `now` as an ISO date, formatted once per millisecond: under load, many messages share one. */
  private isoTime(now: number): string {
    if (now !== this.lastTime[0]) this.lastTime = [now, new Date(now).toISOString()];
    return this.lastTime[1];
  }

  private post(payload: StatusCallback): void {
    const record: CallbackRecord = {
      payload,
      attempts: [],
      state: this.options.callbackUrl ? 'pending' : 'no-callback-url',
    };
    this.callbacks.push(record);
    if (this.callbacks.length > (this.options.callbackLogSize ?? 10_000)) this.callbacks.shift();
    if (this.options.callbackUrl) this.attempt(record, this.options.callbackUrl, 0);
  }

  private attempt(record: CallbackRecord, url: string, n: number): void {
    const { current, end } = this.begin();
    const at = new Date(this.clock.now()).toISOString();
    const post = this.options.fetch ?? fetch;
    post(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(record.payload),
      signal: AbortSignal.timeout(5_000),
    })
      .then(
        async (res) => {
          await res.body?.cancel();
          record.attempts.push({ at, status: res.status });
          return res.status === 200;
        },
        (error: Error) => {
          record.attempts.push({ at, error: error.message });
          return false;
        },
      )
      .then((ok) => {
        if (ok) record.state = 'delivered';
        else if (!current()) return;
        else if (n < this.retryDelaysMs.length)
          this.later(this.retryDelaysMs[n]!, () => this.attempt(record, url, n + 1));
        else record.state = 'failed';
      })
      .finally(end);
  }

  /** Runs `fn` after `ms` of the clock, counted as work meanwhile; a reset drops it. */
  private later(ms: number, fn: () => void): void {
    const { current, end } = this.begin();
    this.waiting++;
    this.clock.setTimeout(() => {
      if (!current()) return;
      this.waiting--;
      try {
        fn();
      } finally {
        end();
      }
    }, ms);
  }

  /** Counts work under way until `end()`; `current()` is false once a reset has dropped it (and `end` then does nothing). */
  private begin(): { current: () => boolean; end: () => void } {
    const generation = this.generation;
    const current = () => generation === this.generation;
    let ended = false;
    this.track(1);
    return {
      current,
      end: () => {
        if (ended || !current()) return;
        ended = true;
        this.track(-1);
      },
    };
  }

  private track(delta: number): void {
    this.pending += delta;
    if (this.pending === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    if (this.pending === this.waiting) for (const resolve of this.settleWaiters.splice(0)) resolve();
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
