// Simulated delivery: status callbacks with the section 7.3 codes, cascade fall-through, the
// duplicate window and retries of a receiver that does not answer 200. The clock is injected.
import { afterEach, describe, expect, it } from 'vitest';
import { parseStatusCallback } from '../../src/client/webhooks.ts';
import { documentedRetryDelaysMs, type Clock } from '../../src/sandbox/delivery.ts';
import type { Fixtures } from '../../src/sandbox/fixtures.ts';
import { json, startStub, type Stub } from '../helpers/stub.ts';
import { fixtures, post, listenSandbox } from '../helpers/sandbox.ts';

let receiver: Stub | undefined;
let sandbox: Awaited<ReturnType<typeof listenSandbox>> | undefined;
afterEach(async () => {
  await sandbox?.close();
  await receiver?.close();
  sandbox = receiver = undefined;
});

/** A clock whose time the test sets; timers run at once and their delays are recorded. */
function fakeClock(start = Date.parse('2030-01-15T09:30:00Z')) {
  const delays: number[] = [];
  const clock: Clock & { t: number } = {
    t: start,
    now: () => clock.t,
    setTimeout: (fn, ms) => {
      delays.push(ms);
      setTimeout(fn, 0);
    },
  };
  return { clock, delays };
}

async function setup(answer: (i: number) => number = () => 200, custom?: Partial<Fixtures>) {
  receiver = await startStub((_req, res, i) => json(res, answer(i), {}));
  const { clock, delays } = fakeClock();
  sandbox = await listenSandbox({
    callbackUrl: `${receiver.url}/hooks/status`,
    clock,
    callbackRetryDelaysMs: [10, 20, 30],
    fixtures: custom ? { ...fixtures, ...custom } : undefined,
  });
  return { clock, delays, received: () => receiver!.requests.map((r) => parseStatusCallback(r.body)) };
}

let n = 0;
const message = (extra: object = {}) => ({
  requestId: `bbbbbbbb-9c0b-4b1e-8f3a-${String(++n).padStart(12, '0')}`,
  cascadeId: 1003,
  subscriberFilter: { address: '79001234567', type: 'PHONE' },
  content: { smsContent: { contentType: 'TEXT', text: 'Hello' } },
  ...extra,
});
async function send(body: unknown): Promise<void> {
  const res = await post(sandbox!.url, '/api/cascade/schedule', body);
  expect(res.status).toBe(200);
  await sandbox!.delivery.idle();
}

describe('status callbacks', () => {
  it('posts DELIVERED for an accepted message, as a valid callback', async () => {
    const { received } = await setup();
    const body = message();
    await send(body);
    expect(receiver!.requests[0]).toMatchObject({ method: 'POST', url: '/hooks/status' });
    expect(receiver!.requests[0]!.headers['content-type']).toBe('application/json');
    expect(received()).toEqual([
      expect.objectContaining({
        requestId: body.requestId,
        cascadeId: 1003,
        cascadeStageUUID: '6f1d2c3b-0a4e-4b5f-8c7d-1e2f3a4b5c21',
        status: 'DELIVERED',
        error: null,
        statusAt: '2030-01-15T09:30:00.000Z',
      }),
    ]);
    expect(sandbox!.delivery.callbacks[0]!.state).toBe('delivered');
  });

  it.each([
    ['error-address-format', message({ subscriberFilter: { address: '12-34', type: 'PHONE' } })],
    ['error-subject-unknown', message({ cascadeId: 1005 })],
    [
      'media-request-failed',
      message({
        cascadeId: 1004,
        content: {
          whatsappContent: {
            contentType: 'DOCUMENT',
            attachment: { url: 'https://files.invalid/a.pdf', name: 'a.pdf' },
          },
        },
      }),
    ],
    ['too-long-message', message({ content: { smsContent: { contentType: 'TEXT', text: 'x'.repeat(1001) } } })],
    ['not-template-match', message({ cascadeId: 1006 })],
  ])('posts UNDELIVERED with %s', async (code, body) => {
    const { received } = await setup();
    await send(body);
    expect(received()).toEqual([expect.objectContaining({ status: 'UNDELIVERED', error: code })]);
  });

  it('a text that matches the stage template is delivered', async () => {
    const { received } = await setup();
    await send(
      message({ cascadeId: 1006, content: { smsContent: { contentType: 'TEXT', text: 'Your code is 4711' } } }),
    );
    expect(received().map((c) => c.status)).toEqual(['DELIVERED']);
  });

  it('an identical message within the duplicate window is duplicated; after it, delivered', async () => {
    const { clock, received } = await setup();
    await send(message());
    clock.t += 299_000;
    await send(message());
    clock.t += 2_000; // 301 s after the first
    await send(message());
    expect(received().map((c) => c.error)).toEqual([null, 'duplicated', null]);
  });

  it('an UNDELIVERED stage falls through to the next stage of the cascade', async () => {
    const { received } = await setup(() => 200, {
      delivery: { ...fixtures.delivery, maxTextLength: { VIBER: 3, SMS: 1000 } },
    });
    await send(
      message({
        cascadeId: 1001,
        content: {
          viberContent: { contentType: 'TEXT', text: 'Hello' },
          smsContent: { contentType: 'TEXT', text: 'Hello' },
        },
      }),
    );
    const callbacks = received();
    expect(callbacks.map((c) => [c.cascadeStageUUID, c.status, c.error])).toEqual([
      ['6f1d2c3b-0a4e-4b5f-8c7d-1e2f3a4b5c01', 'UNDELIVERED', 'too-long-message'],
      ['6f1d2c3b-0a4e-4b5f-8c7d-1e2f3a4b5c02', 'DELIVERED', null],
    ]);
    expect(callbacks[0]!.messageId).toBe(callbacks[1]!.messageId);
  });

  it('a message with a startTime is delivered then', async () => {
    const { clock, delays } = await setup();
    await send(message({ startTime: new Date(clock.t + 60_000).toISOString() }));
    expect(delays[0]).toBe(60_000);
  });
});

describe('callback retries', () => {
  it('repeats a callback the receiver did not answer with 200, with growing delays, until it does', async () => {
    const { delays } = await setup((i) => (i < 2 ? 503 : 200));
    await send(message());
    expect(receiver!.requests).toHaveLength(3);
    expect(delays.slice(1)).toEqual([10, 20]);
    const record = sandbox!.delivery.callbacks[0]!;
    expect(record.state).toBe('delivered');
    expect(record.attempts.map((a) => a.status)).toEqual([503, 503, 200]);
  });

  it('gives up after the last delay', async () => {
    await setup(() => 500);
    await send(message());
    expect(receiver!.requests).toHaveLength(4);
    expect(sandbox!.delivery.callbacks[0]!.state).toBe('failed');
  });

  it('a receiver that is down counts as a failed attempt', async () => {
    const { clock } = fakeClock();
    sandbox = await listenSandbox({ callbackUrl: 'http://127.0.0.1:9/down', clock, callbackRetryDelaysMs: [1] });
    await send(message());
    const record = sandbox.delivery.callbacks[0]!;
    expect(record.state).toBe('failed');
    expect(record.attempts).toHaveLength(2);
    expect(record.attempts[0]!.error).toBeTypeOf('string');
  });

  it('uses the documented delays by default', () => {
    expect(documentedRetryDelaysMs).toEqual([4_000, 128_000, 2_048_000]);
  });

  it('lists the callbacks on the control path', async () => {
    await setup();
    await send(message());
    const listed = await (await fetch(`${sandbox!.url}/_sandbox/callbacks`)).json();
    expect(listed).toEqual([
      expect.objectContaining({ state: 'delivered', payload: expect.objectContaining({ status: 'DELIVERED' }) }),
    ]);
  });
});

describe('real clock', () => {
  it('holds a delivery scheduled further ahead than a Node timer can wait', async () => {
    const { realClock } = await import('../../src/sandbox/delivery.ts');
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    let ran = false;
    realClock.setTimeout(() => (ran = true), 60 * 24 * 3600 * 1000); // 60 days
    await new Promise((r) => setTimeout(r, 50));
    process.off('warning', onWarning);
    expect(ran).toBe(false);
    expect(warnings).not.toContain('TimeoutOverflowWarning');
  });
});

describe('reset', () => {
  it('drops a message scheduled for later and a callback waiting for its retry: idle() then resolves', async () => {
    // A clock that never runs its timers: the work stays waiting until a reset drops it.
    const clock: Clock = { now: () => Date.now(), setTimeout: () => {} };
    receiver = await startStub((_req, res) => json(res, 500, {}));
    sandbox = await listenSandbox({ callbackUrl: `${receiver.url}/hooks/status`, clock });
    const res = await post(sandbox.url, '/api/cascade/schedule', message({ startTime: '2099-01-01T00:00:00Z' }));
    expect(res.status).toBe(200);
    const settled = (promise: Promise<void>) =>
      Promise.race([promise.then(() => true), new Promise((r) => setTimeout(() => r(false), 100))]);
    expect(await settled(sandbox.delivery.idle())).toBe(false);
    const waiting = sandbox.delivery.idle();
    sandbox.reset();
    expect(await settled(waiting)).toBe(true);
    expect(await settled(sandbox.delivery.idle())).toBe(true);
  });

  it('a callback post under way when the sandbox is reset no longer counts: idle() resolves at once', async () => {
    let answer: (() => void) | undefined;
    receiver = await startStub((_req, res) => {
      answer = () => json(res, 200, {});
    });
    sandbox = await listenSandbox({ callbackUrl: `${receiver.url}/hooks/status` });
    expect((await post(sandbox.url, '/api/cascade/schedule', message())).status).toBe(200);
    await expect.poll(() => answer).toBeDefined();
    sandbox.reset();
    await sandbox.delivery.idle();
    answer!();
    await new Promise((r) => setTimeout(r, 20));
    await sandbox.delivery.idle(); // the post that ended after the reset did not make the count negative
    expect((await post(sandbox.url, '/api/cascade/schedule', message())).status).toBe(200);
    await expect.poll(() => receiver!.requests.length).toBe(2);
  });
});
