// @messaging-contract/sandbox: the reference implementation, in process for a test runner.
import { ManualClock, type ClockMode, type SandboxClock } from './clock.ts';
import type { CallbackRecord } from './delivery.ts';
import { loadFixtures, type Fixtures } from './fixtures.ts';
import { createSandbox, type SandboxOptions, type SandboxSnapshot } from './server.ts';
import type { SandboxLimits } from './state.ts';
import { isHttpUrl } from '../core/http-url.ts';

export type { CallbackRecord, ClockMode, Fixtures, SandboxClock, SandboxSnapshot };
export type { SandboxLimits, Thread } from './state.ts';

export interface StartSandboxOptions {
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Port to listen on (default 0: a free port; read it from `url`). */
  port?: number;
  /** The starting state: a fixtures object or the path of a fixtures JSON file (default: the bundled fixtures). */
  fixtures?: Fixtures | string;
  /** Where simulated delivery-status callbacks are posted; none are posted without it. */
  callbackUrl?: string;
  /** Waits before each repeat of a callback the receiver did not answer with 200 (default: the documented delays). */
  callbackRetryDelaysMs?: number[];
  /** Largest request body accepted (default 8 MiB); a larger one gets 413. */
  bodyLimitBytes?: number;
  /** Memory bounds: how long and how many requestIds are remembered, how many messages the duplicate window holds. */
  limits?: SandboxLimits;
  /**
   * `real` (default): the machine's time. `manual`: the sandbox's time starts at the machine's and moves only by
   * `clock.set()` and `clock.advance()` (or `POST /_sandbox/clock`), for every time-based rule of the sandbox.
   */
  clock?: ClockMode;
}

export interface RunningSandbox extends AsyncDisposable {
  /** Base URL of the API, the docs page (`/`) and the document (`/openapi.json`), e.g. http://127.0.0.1:41234. */
  url: string;
  /** Back to the starting state: threads, subscribers, requestIds, callback log. */
  reset(): void;
  /** Every simulated status callback so far (newest last), with each post to the callback URL. */
  callbacks(): CallbackRecord[];
  /** Threads, subscribers and the count of used requestIds. */
  state(): SandboxSnapshot;
  /**
   * Resolves when no delivery or callback post is under way. With the manual clock: when the work due now has run
   * (what waits for a later time waits for `clock.advance()`).
   */
  idle(): Promise<void>;
  /** The sandbox's one clock: `now()`, and with `clock: 'manual'`, `set()` and `advance()`. */
  clock: SandboxClock;
  /** Stops listening and closes every connection. `await using` calls it too. */
  close(): Promise<void>;
}

/**
 * Starts the sandbox on `host:port` and resolves once it listens.
 *
 * ```ts
 * await using sandbox = await startSandbox();
 * const client = createMessagingClient({ baseUrl: sandbox.url, apiKey: 'sandbox-api-key' });
 * ```
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  if (options.callbackUrl !== undefined && !isHttpUrl(options.callbackUrl)) {
    throw new TypeError(`startSandbox: callbackUrl must be an http(s) URL, got ${JSON.stringify(options.callbackUrl)}`);
  }
  if (options.clock !== undefined && options.clock !== 'manual' && options.clock !== 'real') {
    throw new TypeError(`startSandbox: clock must be 'manual' or 'real', got ${JSON.stringify(options.clock)}`);
  }
  const fixtures = typeof options.fixtures === 'string' ? loadFixtures(options.fixtures) : options.fixtures;
  const sandboxOptions: SandboxOptions = {
    fixtures,
    callbackUrl: options.callbackUrl,
    callbackRetryDelaysMs: options.callbackRetryDelaysMs,
    bodyLimitBytes: options.bodyLimitBytes,
    limits: options.limits,
    clock: options.clock === 'manual' ? new ManualClock() : undefined,
  };
  const sandbox = createSandbox(sandboxOptions);
  const url = await sandbox.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  const { clock } = sandbox;
  return {
    url,
    reset: sandbox.reset,
    callbacks: () => structuredClone(sandbox.delivery.callbacks),
    state: () => structuredClone(sandbox.snapshot()),
    idle: () => (clock.mode === 'manual' ? clock.settle() : sandbox.delivery.idle()),
    clock: {
      mode: clock.mode,
      now: () => clock.now(),
      set: (to) => clock.setTo(to, 'clock.set(to)'),
      advance: (ms) => clock.advanceBy(ms, 'clock.advance(ms)'),
    },
    close: sandbox.close,
    [Symbol.asyncDispose]: sandbox.close,
  };
}
