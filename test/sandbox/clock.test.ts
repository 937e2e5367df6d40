// The sandbox clock a test drives (issue 30): in process (startSandbox({ clock: 'manual' })) and
// over the control API of the built bin (messaging-sandbox --clock manual). Every time-based rule
// reads the one clock: deliveries at startTime, the duplicate and requestId windows, callback
// retries and their delays, statusAt, closedAt. Nothing here waits for real time to pass.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bundleCode, packageSource } from '../../src/build/bundle.ts';
import { parseStatusCallback } from '../../src/client/webhooks.ts';
import { projectRoot } from '../../src/paths.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { resolvePointer } from '../../src/core/document.ts';
import { documentedRetryDelaysMs as retries } from '../../src/sandbox/delivery.ts';
import { post } from '../helpers/sandbox.ts';
import { json, startStub, type Stub } from '../helpers/stub.ts';

// The duplicate window as the document states it (the sandbox reads it too; delivery.test pins the retry delays).
const duplicateWindow =
  (resolvePointer('#/components/schemas/KnownDeliveryErrorCode') as { 'x-duplicate-window-seconds': number })[
    'x-duplicate-window-seconds'
  ] * 1000;

const day = 24 * 60 * 60 * 1000;
/** A time ahead of the machine's, whenever the tests run: the clock only moves forward. */
const t0 = `${new Date().getUTCFullYear() + 1}-01-15T09:00:00.000Z`;
const at = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

let n = 0;
const message = (extra: object = {}) => ({
  requestId: `cccccccc-9c0b-4b1e-8f3a-${String(++n).padStart(12, '0')}`,
  cascadeId: 1003,
  subscriberFilter: { address: '79001234567', type: 'PHONE' },
  content: { smsContent: { contentType: 'TEXT', text: `Hello ${n}` } },
  ...extra,
});
/** The same message (same address and content) under a new requestId: a duplicate within the window. */
const again = (body: ReturnType<typeof message>) => ({ ...body, requestId: message().requestId });

async function schedule(url: string, body: object): Promise<void> {
  const res = await post(url, '/api/cascade/schedule', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('in process: startSandbox({ clock: "manual" })', () => {
  let sandbox: RunningSandbox | undefined;
  let receiver: Stub | undefined;
  afterEach(async () => {
    await sandbox?.close();
    await receiver?.close();
    sandbox = receiver = undefined;
  });

  /** A manual sandbox at t0 posting callbacks to a receiver that answers `answer(i)` to its i-th post. */
  async function manual(answer: (i: number) => number = () => 200, retryDelays?: number[]) {
    receiver = await startStub((_req, res, i) => json(res, answer(i), {}));
    sandbox = await startSandbox({
      clock: 'manual',
      callbackUrl: `${receiver.url}/status`,
      callbackRetryDelaysMs: retryDelays,
    });
    expect(sandbox.clock.mode).toBe('manual');
    expect((await sandbox.clock.set(t0)).toISOString()).toBe(t0);
    return { sandbox, received: () => receiver!.requests.map((r) => parseStatusCallback(r.body)) };
  }

  it('delivers a message scheduled for tomorrow when the clock reaches its startTime, and posts its callback', async () => {
    const { sandbox, received } = await manual();
    const tomorrow = at(t0, day);
    const body = message({ startTime: tomorrow });
    await schedule(sandbox.url, body);
    await sandbox.idle(); // resolves: the message waits for the clock, not for idle()
    expect(sandbox.callbacks()).toEqual([]);
    await sandbox.clock.advance(day - 1);
    expect(sandbox.callbacks()).toEqual([]);
    const now = await sandbox.clock.advance(1);
    expect(now.toISOString()).toBe(tomorrow);
    expect(sandbox.clock.now().toISOString()).toBe(tomorrow);
    // advance() resolved after the post: the receiver has it.
    expect(received()).toEqual([
      expect.objectContaining({ requestId: body.requestId, status: 'DELIVERED', statusAt: tomorrow }),
    ]);
    expect(sandbox.callbacks()[0]!.state).toBe('delivered');
  });

  it('runs the work due by the target in time order, each at its own time', async () => {
    const { sandbox, received } = await manual();
    const later = message({ startTime: at(t0, 2 * day) });
    const sooner = message({ startTime: at(t0, day), subscriberFilter: { address: '79007654321', type: 'PHONE' } });
    await schedule(sandbox.url, later);
    await schedule(sandbox.url, sooner);
    expect((await sandbox.clock.set(at(t0, 3 * day))).toISOString()).toBe(at(t0, 3 * day));
    expect(received().map((c) => [c.requestId, c.statusAt])).toEqual([
      [sooner.requestId, at(t0, day)],
      [later.requestId, at(t0, 2 * day)],
    ]);
  });

  it('crosses the duplicate window (the document says 300 s): duplicated within it, delivered after', async () => {
    const { sandbox, received } = await manual();
    const first = message();
    await schedule(sandbox.url, first);
    await schedule(sandbox.url, again(first));
    await sandbox.clock.advance(duplicateWindow - 1);
    await schedule(sandbox.url, again(first));
    await sandbox.clock.advance(1); // the window after the first
    await schedule(sandbox.url, again(first));
    await sandbox.idle();
    expect(received().map((c) => [c.error, c.statusAt])).toEqual([
      [null, t0],
      ['duplicated', t0],
      ['duplicated', at(t0, duplicateWindow - 1)],
      [null, at(t0, duplicateWindow)],
    ]);
  });

  it('runs callback retries at their documented delays (4 s, 128 s, 2048 s) as the clock reaches them', async () => {
    const { sandbox } = await manual((i) => (i < 2 ? 503 : 200));
    await schedule(sandbox.url, message());
    await sandbox.idle();
    const record = () => sandbox.callbacks()[0]!;
    expect(record().attempts.map((a) => a.status)).toEqual([503]);
    await sandbox.clock.advance(retries[0]! - 1);
    expect(record().attempts).toHaveLength(1);
    await sandbox.clock.advance(1);
    expect(record().attempts.map((a) => a.status)).toEqual([503, 503]);
    await sandbox.clock.advance(retries[1]!);
    expect(record().attempts.map((a) => [a.at, a.status])).toEqual([
      [t0, 503],
      [at(t0, retries[0]!), 503],
      [at(t0, retries[0]! + retries[1]!), 200],
    ]);
    expect(record().state).toBe('delivered');
  });

  it('one advance runs every retry due by then, each after the post before it failed', async () => {
    const { sandbox } = await manual(() => 500, [1_000, 2_000, 3_000]);
    await schedule(sandbox.url, message({ startTime: at(t0, 10_000) }));
    await sandbox.clock.advance(day);
    const record = sandbox.callbacks()[0]!;
    expect(record.attempts.map((a) => a.at)).toEqual([at(t0, 10_000), at(t0, 11_000), at(t0, 13_000), at(t0, 16_000)]);
    expect(record.state).toBe('failed');
    expect(receiver!.requests).toHaveLength(4);
  });

  it('remembers a requestId for a day of the clock', async () => {
    const { sandbox } = await manual();
    const body = message();
    await schedule(sandbox.url, body);
    await sandbox.clock.advance(day - 1);
    expect((await post(sandbox.url, '/api/cascade/schedule', body)).body.title).toBe('requestId-is-not-unique');
    await sandbox.clock.advance(1);
    await schedule(sandbox.url, body);
  });

  it('stamps a closed thread with the clock time', async () => {
    const { sandbox } = await manual();
    await sandbox.clock.advance(42_000);
    expect((await post(sandbox.url, '/api/v1/threads/close', { threadIds: [101] })).status).toBe(200);
    expect(sandbox.state().threads.find((t) => t.id === 101)).toMatchObject({
      state: 'closed',
      closedAt: at(t0, 42_000),
    });
  });

  it('runs moves asked at once one after another, each from where the one before left the clock', async () => {
    const { sandbox } = await manual();
    const moves = await Promise.all([
      sandbox.clock.advance(1_000),
      sandbox.clock.set(at(t0, 5_000)),
      sandbox.clock.advance(1_000),
    ]);
    expect(moves.map((d) => d.toISOString())).toEqual([at(t0, 1_000), at(t0, 5_000), at(t0, 6_000)]);
  });

  it('reset() drops the work waiting for the clock and leaves its time', async () => {
    const { sandbox } = await manual();
    await schedule(sandbox.url, message({ startTime: at(t0, 60_000) }));
    sandbox.reset();
    await sandbox.clock.advance(day);
    expect(sandbox.callbacks()).toEqual([]);
    expect(receiver!.requests).toEqual([]);
    expect(sandbox.clock.now().toISOString()).toBe(at(t0, day));
  });

  it.each([
    [
      'set to an earlier time',
      (s: RunningSandbox) => s.clock.set(at(t0, -1)),
      /^clock\.set\(to\) is .*before the clock's time .*only moves forward/,
    ],
    [
      'set to a Date before now',
      (s: RunningSandbox) => s.clock.set(new Date(0)),
      /^clock\.set\(to\) is 1970-.*only moves forward/,
    ],
    [
      'set to an unparsable date',
      (s: RunningSandbox) => s.clock.set('tomorrow'),
      /^clock\.set\(to\) must be an ISO 8601 date-time .*got "tomorrow"/,
    ],
    [
      'set to a day past the month',
      (s: RunningSandbox) => s.clock.set(`${t0.slice(0, 4)}-02-30T00:00:00Z`),
      /^clock\.set\(to\) must be an ISO 8601/,
    ],
    [
      'set to an invalid Date',
      (s: RunningSandbox) => s.clock.set(new Date(Number.NaN)),
      /^clock\.set\(to\) must be .*got an invalid Date/,
    ],
    [
      'advance by a negative time',
      (s: RunningSandbox) => s.clock.advance(-1),
      /^clock\.advance\(ms\) must be an integer number of milliseconds from 0 to \d+ .*got -1\.$/,
    ],
    [
      'advance by a fraction',
      (s: RunningSandbox) => s.clock.advance(1.5),
      /^clock\.advance\(ms\) must be an integer .*got 1\.5\.$/,
    ],
    [
      'advance past the year 9999',
      (s: RunningSandbox) => s.clock.advance(Number.MAX_SAFE_INTEGER),
      /^clock\.advance\(ms\) .*stops at 9999-12-31T23:59:59\.999Z/,
    ],
    [
      'advance by a string',
      (s: RunningSandbox) => s.clock.advance('60' as unknown as number),
      /^clock\.advance\(ms\) must be .*got "60"/,
    ],
  ])('refuses to %s, naming the field, and leaves the clock', async (_what, move, error) => {
    const { sandbox } = await manual();
    await expect(move(sandbox)).rejects.toThrow(error);
    expect(sandbox.clock.now().toISOString()).toBe(t0);
    // A refused move does not block the ones after it.
    expect((await sandbox.clock.advance(1)).toISOString()).toBe(at(t0, 1));
  });

  it('the default clock is real: now() is the time of day; set() and advance() are refused', async () => {
    const before = Date.now();
    sandbox = await startSandbox();
    const now = sandbox.clock.now().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
    expect(sandbox.clock.mode).toBe('real');
    await expect(sandbox.clock.advance(1)).rejects.toThrow(/clock is real.*clock: 'manual'.*--clock manual/);
    await expect(sandbox.clock.set(at(t0, 0))).rejects.toThrow(/clock is real/);
  });

  it('refuses an unknown clock option', async () => {
    await expect(startSandbox({ clock: 'fast' as 'manual' })).rejects.toThrow(
      `startSandbox: clock must be 'manual' or 'real', got "fast"`,
    );
  });
});

describe('the bin: messaging-sandbox --clock manual and /_sandbox/clock', () => {
  let dir: string;
  let bin: string;
  let receiver: Stub;
  const running: ChildProcess[] = [];
  let manualUrl: string;
  let realUrl: string;

  /** Starts the built bin on a free port; resolves with its URL once it answers. */
  async function startBin(args: string[]): Promise<string> {
    const child = spawn(process.execPath, [bin, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    running.push(child);
    let out = '';
    child.stdout!.on('data', (c) => (out += c));
    child.stderr!.on('data', (c) => (out += c));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', () => {
        const found = /sandbox: (http:\/\/[^/\s]+)/.exec(out);
        if (found) resolve(found[1]!);
      });
      child.once('exit', (code) => reject(new Error(`messaging-sandbox exited with ${code}: ${out}`)));
    });
    for (let i = 0; ; i++) {
      const ready = await fetch(`${url}/_sandbox/clock`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) return url;
      if (i === 100) throw new Error(`messaging-sandbox at ${url} does not answer: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  beforeAll(async () => {
    // The bin as the package build bundles it (src/build/bundle.ts); the docs page is not needed here.
    dir = await mkdtemp(join(tmpdir(), 'mc-sandbox-clock-'));
    const source = packageSource(join(projectRoot, 'src/sandbox'));
    await bundleCode({ ...source, recipe: { ...source.recipe, assets: {} } }, dir, ['cli']);
    bin = join(dir, 'cli.js');
    receiver = await startStub((_req, res) => json(res, 200, {}));
    [manualUrl, realUrl] = await Promise.all([
      startBin(['--clock', 'manual', '--callback-url', `${receiver.url}/status`]),
      startBin([]),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(
      running.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await receiver?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    await fetch(`${manualUrl}/_sandbox/reset`, { method: 'POST' });
    receiver.requests.length = 0;
  });

  const clock = async (url: string, body?: unknown, contentType = 'application/json') => {
    const res = await fetch(
      `${url}/_sandbox/clock`,
      body === undefined
        ? {}
        : {
            method: 'POST',
            headers: { 'content-type': contentType },
            body: typeof body === 'string' ? body : JSON.stringify(body),
          },
    );
    expect(res.headers.get('content-type')).toBe('application/json');
    return { status: res.status, body: await res.json() };
  };
  const nowOf = async (url: string): Promise<string> => (await clock(url)).body.now;

  it('GET /_sandbox/clock answers the time and the mode', async () => {
    const { status, body } = await clock(manualUrl);
    expect(status).toBe(200);
    expect(body).toEqual({ now: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), mode: 'manual' });
    // It stands still between two readings.
    expect(await nowOf(manualUrl)).toBe(body.now);
  });

  it('a message for tomorrow: POST {advanceMs} answers once its callback has been posted', async () => {
    const now = await nowOf(manualUrl);
    const tomorrow = at(now, day);
    const body = message({ startTime: tomorrow });
    await schedule(manualUrl, body);
    expect((await clock(manualUrl, { advanceMs: day - 1 })).body).toEqual({ now: at(now, day - 1), mode: 'manual' });
    expect(receiver.requests).toEqual([]);
    expect(await clock(manualUrl, { advanceMs: 1 })).toEqual({ status: 200, body: { now: tomorrow, mode: 'manual' } });
    expect(receiver.requests.map((r) => parseStatusCallback(r.body))).toEqual([
      expect.objectContaining({ requestId: body.requestId, status: 'DELIVERED', statusAt: tomorrow }),
    ]);
  });

  it('POST {now} moves the clock to that time (any offset) and runs what is due by then', async () => {
    // The next midnight (UTC) of the clock: the bin's clock only moves forward, whatever ran before.
    const midnight = new Date(Math.ceil((Date.parse(await nowOf(manualUrl)) + 1) / day) * day).toISOString();
    expect(await clock(manualUrl, { now: midnight })).toEqual({ status: 200, body: { now: midnight, mode: 'manual' } });
    await schedule(manualUrl, message({ startTime: at(midnight, 90_000) }));
    const twoMinutesLater = `${midnight.slice(0, 10)}T02:02:00+02:00`;
    expect(await clock(manualUrl, { now: twoMinutesLater })).toEqual({
      status: 200,
      body: { now: at(midnight, 120_000), mode: 'manual' },
    });
    expect(receiver.requests.map((r) => parseStatusCallback(r.body).statusAt)).toEqual([at(midnight, 90_000)]);
  });

  it('crosses the duplicate window over the control API', async () => {
    const now = await nowOf(manualUrl);
    const first = message();
    await schedule(manualUrl, first);
    await schedule(manualUrl, again(first));
    await clock(manualUrl, { advanceMs: duplicateWindow });
    const third = again(first);
    await schedule(manualUrl, third);
    await clock(manualUrl, { advanceMs: 0 }); // runs what is due now and answers once it has
    const callbacks = (await (await fetch(`${manualUrl}/_sandbox/callbacks`)).json()) as Array<{
      payload: { requestId: string; error: string | null; statusAt: string };
    }>;
    expect(callbacks.map((c) => [c.payload.error, c.payload.statusAt])).toEqual([
      [null, now],
      ['duplicated', now],
      [null, at(now, duplicateWindow)],
    ]);
    expect(callbacks[2]!.payload.requestId).toBe(third.requestId);
  });

  it.each([
    [
      'a time before the clock',
      (now: string) => ({ now: at(now, -1) }),
      /^now is .*before the clock's time .*only moves forward/,
    ],
    [
      'a negative advanceMs',
      () => ({ advanceMs: -1 }),
      /^advanceMs must be an integer number of milliseconds from 0 to \d+ .*got -1\./,
    ],
    ['a fractional advanceMs', () => ({ advanceMs: 0.5 }), /^advanceMs must be an integer .*got 0\.5\./],
    [
      'a huge advanceMs',
      () => ({ advanceMs: 8.64e15 }),
      /^advanceMs must be .*stops at 9999-12-31T23:59:59\.999Z.*got 8640000000000000\./,
    ],
    [
      'an advanceMs outside int64',
      () => ({ advanceMs: 1e20 }),
      /advanceMs is an integer outside int64.*Expected a JSON/,
    ],
    ['an advanceMs past 2^53', () => '{"advanceMs": 9007199254740993}', /^advanceMs must be .*got 9007199254740993\./],
    ['an advanceMs as a string', () => ({ advanceMs: '60000' }), /^advanceMs must be .*got "60000"\./],
    ['an unparsable now', () => ({ now: 'tomorrow' }), /^now must be an ISO 8601 date-time .*got "tomorrow"\./],
    ['a now without offset', () => ({ now: '2099-01-16T09:00:00' }), /^now must be an ISO 8601 date-time/],
    ['both fields', (now: string) => ({ now, advanceMs: 1 }), /both advanceMs and now; expected a JSON object/],
    ['neither field', () => ({}), /neither advanceMs nor now; expected a JSON object/],
    [
      'an unknown field',
      () => ({ advanceMs: 1, speed: 2 }),
      /the field "speed"; expected a JSON object with either advanceMs .* or now/,
    ],
    ['a __proto__ key', () => '{"__proto__": {"advanceMs": 1}}', /the field "__proto__"; expected/],
    ['an array', () => [{ advanceMs: 1 }], /^The body is an array; expected a JSON object/],
    ['null', () => null, /^The body is null; expected/],
    ['no JSON', () => '{advanceMs: 1', /not valid JSON.*Expected a JSON object with either advanceMs/],
  ])('refuses %s with a 400 problem naming the field, and leaves the clock', async (_what, body, detail) => {
    const before = await nowOf(manualUrl);
    const res = await clock(manualUrl, body(before));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ title: 'clock-request-not-valid', status: 400, detail: expect.stringMatching(detail) });
    expect(await nowOf(manualUrl)).toBe(before);
  });

  it('refuses a body that is not JSON by its content type', async () => {
    const res = await clock(manualUrl, '{"advanceMs":1}', 'text/plain');
    expect(res).toEqual({
      status: 400,
      body: expect.objectContaining({
        title: 'clock-request-not-valid',
        detail: expect.stringMatching(/Content-Type/),
      }),
    });
  });

  it('a real clock (the default) shows its time and refuses to be moved', async () => {
    const before = Date.now();
    const { status, body } = await clock(realUrl);
    expect(status).toBe(200);
    expect(body.mode).toBe('real');
    expect(Date.parse(body.now)).toBeGreaterThanOrEqual(before - 1);
    const refused = await clock(realUrl, { advanceMs: 1 });
    expect(refused).toEqual({
      status: 400,
      body: { title: 'clock-request-not-valid', status: 400, detail: expect.stringMatching(/real.*--clock manual/) },
    });
  });

  it('an unknown control method stays not-found', async () => {
    const res = await fetch(`${manualUrl}/_sandbox/clock`, { method: 'PUT' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ title: 'not-found' });
  });

  const runBin = (args: string[]) =>
    new Promise<{ code: number; out: string }>((resolve) =>
      execFile(process.execPath, [bin, ...args], (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
      ),
    );

  it('--help documents --clock; a wrong --clock is a usage error', async () => {
    const help = await runBin(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/--clock\s+real \(default\).*manual/s);
    expect(help.out).toContain('POST /_sandbox/clock');
    const wrong = await runBin(['--clock', 'fast', '--port', '0']);
    expect(wrong.code).toBe(2);
    expect(wrong.out).toContain('--clock must be real or manual, got "fast"');
  });
});
