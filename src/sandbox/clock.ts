// The sandbox's one clock. Everything time-based reads it: a delivery at its startTime, the duplicate
// and requestId windows, callback retries and their delays, statusAt, the time a thread is closed.
// The real clock is the machine's time; the manual one (startSandbox({ clock: 'manual' }), --clock
// manual) stands still until a test moves it, and moving it runs the work due by then, in time order.
// Network protections (request timeouts, the time a callback post may take) stay in real time.

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): void;
}

/** Node's timers hold at most 2^31 - 1 ms (about 24.8 days); a later startTime waits in steps. */
const maxTimerMs = 2 ** 31 - 1;
function wait(fn: () => void, ms: number): void {
  if (ms > maxTimerMs) setTimeout(() => wait(fn, ms - maxTimerMs), maxTimerMs).unref();
  else setTimeout(fn, ms).unref();
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: wait,
};

/** The latest time the clock shows: later ones are no RFC 3339 date-time (the year has five digits). */
export const latestTime = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

interface Timer {
  due: number;
  /** Order of scheduling: timers due at the same time run in the order they were set. */
  seq: number;
  fn: () => void;
}

const before = (a: Timer, b: Timer) => a.due < b.due || (a.due === b.due && a.seq < b.seq);

/** A clock that moves only when told to; its timers run when it reaches their time. */
export class ManualClock implements Clock {
  private time: number;
  /** A binary min-heap by (due, seq): many messages may wait for their startTime. */
  private readonly timers: Timer[] = [];
  private seq = 0;
  private pumping = false;

  constructor(start = Date.now()) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): void {
    const delay = Number.isNaN(ms) ? 0 : Math.max(ms, 0); // as Node's timers: NaN is "now"
    this.push({ due: this.time + delay, seq: this.seq++, fn });
    // Work due now (a message without startTime) runs by itself, as with the real clock.
    if (delay === 0) this.pump();
  }

  /** When the next timer is due, or undefined when none waits. */
  nextDue(): number | undefined {
    return this.timers[0]?.due;
  }

  /** Runs, in time order, every timer due at or before `upTo`; while one runs the clock shows its time. */
  runDue(upTo: number): void {
    for (let next = this.timers[0]; next !== undefined && next.due <= upTo; next = this.timers[0]) {
      this.pop();
      this.time = Math.max(this.time, next.due);
      try {
        next.fn();
      } catch (error) {
        process.stderr.write(`sandbox clock: ${String((error as Error)?.message ?? error).split('\n')[0]}\n`);
      }
    }
  }

  /** Shows `to` (never earlier than now). The caller has run the timers due by then. */
  moveTo(to: number): void {
    this.time = Math.max(this.time, to);
  }

  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    setImmediate(() => {
      this.pumping = false;
      this.runDue(this.time);
    });
  }

  private push(timer: Timer): void {
    const heap = this.timers;
    let i = heap.push(timer) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(timer, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = timer;
  }

  private pop(): void {
    const heap = this.timers;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && before(heap[right]!, heap[left]!) ? right : left;
      if (!before(heap[child]!, last)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
  }
}

export type ClockMode = 'manual' | 'real';

/** The sandbox's clock as a test drives it (`sandbox.clock`). */
export interface SandboxClock {
  /** `manual`: only set() and advance() move it; `real`: the machine's time (set() and advance() are refused). */
  readonly mode: ClockMode;
  /** The sandbox's time. */
  now(): Date;
  /**
   * Moves the clock to `to` (a Date or an ISO 8601 date-time, never earlier than now) and resolves, with the new time,
   * once every delivery and callback post due by then has run, callback retries included.
   */
  set(to: Date | string): Promise<Date>;
  /** Moves the clock `ms` milliseconds (an integer, 0 or more) on, as set() does. */
  advance(ms: number): Promise<Date>;
}

/** A request to move the clock that cannot be done: the message names the field and what was expected. */
export class ClockError extends Error {
  override name = 'ClockError';
}

/** What the clock's timers start (deliveries, callback posts): the clock waits for it before it moves on. */
export interface ClockWork {
  /** Whether nothing runs but what waits for a timer of the clock. */
  settled(): boolean;
  whenSettled(): Promise<void>;
}

export const realClockRefused =
  "The sandbox clock is real: it moves by itself and cannot be set. Start the sandbox with clock: 'manual' (messaging-sandbox --clock manual) to drive it.";

/** The clock of a sandbox, with the moves a test asks for checked and run one at a time. */
export class ClockControl {
  readonly mode: ClockMode;
  /** Moves run one after another, in the order asked: each starts from where the one before left the clock. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly clock: Clock,
    private readonly work: ClockWork,
  ) {
    this.mode = clock instanceof ManualClock ? 'manual' : 'real';
  }

  now(): Date {
    return new Date(this.clock.now());
  }

  /** `{now, mode}`, as GET /_sandbox/clock answers. */
  reading(): { now: string; mode: ClockMode } {
    return { now: this.now().toISOString(), mode: this.mode };
  }

  /** advance(ms); `field` is what an error calls `ms`. */
  advanceBy(ms: unknown, field: string): Promise<Date> {
    return this.move((now) => {
      const most = latestTime - now;
      if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0 || ms > most) {
        throw new ClockError(
          `${field} must be an integer number of milliseconds from 0 to ${most} (the clock stops at ${new Date(latestTime).toISOString()}), got ${show(ms)}.`,
        );
      }
      return now + ms;
    });
  }

  /** set(to); `field` is what an error calls `to`. */
  setTo(to: unknown, field: string): Promise<Date> {
    return this.move((now) => {
      const time =
        typeof to === 'string'
          ? parseDateTime(to)
          : to instanceof Date && !Number.isNaN(to.getTime())
            ? to.getTime()
            : undefined;
      if (time === undefined || time > latestTime) {
        throw new ClockError(
          `${field} must be an ISO 8601 date-time up to ${new Date(latestTime).toISOString()}, such as ${new Date(now).toISOString()}, got ${show(to)}.`,
        );
      }
      if (time < now) {
        throw new ClockError(
          `${field} is ${new Date(time).toISOString()}, before the clock's time ${new Date(now).toISOString()}; expected that time or a later one: the sandbox clock only moves forward.`,
        );
      }
      return time;
    });
  }

  /** Runs the work due now and resolves once it has run; what waits for a later time goes on waiting. */
  settle(): Promise<void> {
    return this.move((now) => now).then(() => undefined);
  }

  /** Runs each timer due by the target in time order, waiting for the work it starts, then shows the target. */
  private move(target: (now: number) => number): Promise<Date> {
    const clock = this.clock;
    if (!(clock instanceof ManualClock)) return Promise.reject(new ClockError(realClockRefused));
    const run = this.queue.then(async () => {
      const to = target(clock.now());
      for (;;) {
        // A callback post under way may schedule its retry: the clock waits for it before going on.
        if (!this.work.settled()) {
          await this.work.whenSettled();
          continue;
        }
        const next = clock.nextDue();
        if (next === undefined || next > to) break;
        clock.runDue(next);
      }
      clock.moveTo(to);
      return this.now();
    });
    this.queue = run.catch(() => {});
    return run;
  }
}

/** What a `POST /_sandbox/clock` body must be. */
export const clockBody =
  'a JSON object with either advanceMs (an integer number of milliseconds) or now (an ISO 8601 date-time)';

/** The move a `POST /_sandbox/clock` body asks for: exactly one of advanceMs and now. */
export function clockMove(body: unknown, exact: unknown): { advanceMs: unknown } | { now: unknown } {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new ClockError(`The body is ${show(body)}; expected ${clockBody}.`);
  const fields = Object.keys(body);
  const unknown = fields.filter((key) => key !== 'advanceMs' && key !== 'now');
  if (unknown.length > 0) {
    const named = unknown.slice(0, 5).map((key) => show(key));
    const more = unknown.length > 5 ? ` and ${unknown.length - 5} more` : '';
    throw new ClockError(
      `The body has the field${unknown.length > 1 ? 's' : ''} ${named.join(', ')}${more}; expected ${clockBody}.`,
    );
  }
  const advance = Object.hasOwn(body, 'advanceMs');
  const now = Object.hasOwn(body, 'now');
  if (advance && now) throw new ClockError(`The body has both advanceMs and now; expected ${clockBody}.`);
  if (advance) return { advanceMs: (exact as { advanceMs: unknown }).advanceMs };
  if (now) return { now: (body as { now: unknown }).now };
  throw new ClockError(`The body has neither advanceMs nor now; expected ${clockBody}.`);
}

const dateTime = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))$/i;

/**
 * The time of an RFC 3339 date-time (ISO 8601 with a date, a time and an offset), or undefined. Date.parse alone
 * accepts other forms, and days past a month's end (2030-02-30), and reads a time without offset as local time.
 */
export function parseDateTime(text: string): number | undefined {
  const m = dateTime.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysInMonth = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  const offsetOk = m[9] === undefined || (Number(m[9]) <= 23 && Number(m[10]) <= 59);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59 || !offsetOk)
    return undefined;
  const time = Date.parse(text.toUpperCase());
  return Number.isNaN(time) ? undefined : time;
}

/** A value as an error shows it: short, whatever was sent. */
function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (value instanceof Date) return 'an invalid Date';
  return Array.isArray(value) ? 'an array' : `a ${typeof value === 'object' ? 'JSON object' : typeof value}`;
}
