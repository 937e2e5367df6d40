// A rate-limited service must not fail the suite (§8: "Rate limits: not shown"; the open point rate-limit): the run
// keeps to --rate, a 429 is waited out (Retry-After, else a back-off) and sent again, one still 429 leaves its check
// not judged, the summary says what the 429s cost, and strict holds the contract's decision (no limit).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedExchange } from '../../src/conformance/ground/model.ts';
import { json, junit, summary, trafficSummary } from '../../src/conformance/report.ts';
import { OptionError, runConformance, runSuite, stages, suiteContext } from '../../src/conformance/suite/suite.ts';
import type { SuiteOptions } from '../../src/conformance/suite/suite.ts';
import {
  backOffMs,
  maxResends,
  maxRetryWaitMs,
  retryAfterMs,
  retryWaitMs,
} from '../../src/conformance/suite/throttle.ts';
import { TrafficJudge } from '../../src/conformance/traffic/judge.ts';
import { examplePairs } from '../../src/core/examples.ts';
import { startIndependent } from '../independent/server.ts';
import { independentVars } from '../independent/vars.ts';
import { conformanceInProcess } from '../helpers/conformance-cli.ts';

/** A server whose answer to each request `answer` gives; every request is counted, with when it came. */
let answer: (n: number, req: IncomingMessage, res: ServerResponse) => void = (_n, _req, res) => res.end();
const arrivals: number[] = [];
const server = createServer((req, res) => {
  arrivals.push(performance.now());
  req.resume();
  req.on('end', () => answer(arrivals.length, req, res));
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const problem = (status: number, title: string) => JSON.stringify({ title, status, detail: 'x' });
const tooMany = (res: ServerResponse, retryAfter?: string) =>
  res
    .writeHead(429, { 'content-type': 'application/json', ...(retryAfter ? { 'retry-after': retryAfter } : {}) })
    .end(problem(429, 'too-many-requests'));
const ok = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}');

const credentials = { apiKey: 'k', apiKeyNoBalance: 'n', integratorToken: 't' };
const context = (more: Partial<SuiteOptions> = {}) => {
  arrivals.length = 0;
  return suiteContext({ server: base, credentials, ...more });
};
const dredd = stages.filter((s) => s.name === 'dredd');
const request = () => ({ method: 'POST', url: `${base}/api/v1/threads/close`, headers: {}, body: '{}' });

describe('Retry-After', () => {
  it('is read as seconds or an HTTP date, capped; none or a bad one is a back-off that doubles', () => {
    const now = Date.parse('2026-11-20T10:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Fri, 20 Nov 2026 10:00:07 GMT', now)).toBe(7000);
    expect(retryAfterMs('Fri, 20 Nov 2026 09:59:00 GMT', now)).toBe(0); // a date past: at once
    for (const bad of [undefined, '', 'soon', '-1', '1.5']) expect(retryAfterMs(bad, now)).toBeUndefined();
    expect(retryWaitMs({ 'retry-after': '3600' }, 1, now)).toBe(maxRetryWaitMs);
    expect([1, 2, 3].map((n) => retryWaitMs({}, n, now))).toEqual([backOffMs, 2 * backOffMs, 4 * backOffMs]);
  });
});

describe('the send path', () => {
  it('waits a 429 out for its Retry-After and sends the request again', async () => {
    answer = (n, _req, res) => (n === 1 ? tooMany(res, '1') : ok(res));
    const ctx = context();
    const sent = await ctx.send(request());
    expect(sent.answer?.status).toBe(200);
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(990);
    expect(ctx.throttle.counts).toMatchObject({ answers: 1, waitedMs: 1000, notJudged: 0 });
  });

  it('backs off where a 429 gives no Retry-After', async () => {
    answer = (n, _req, res) => (n <= 2 ? tooMany(res) : ok(res));
    const ctx = context();
    expect((await ctx.send(request())).answer?.status).toBe(200);
    expect(arrivals).toHaveLength(3);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(backOffMs - 10);
    expect(arrivals[2]! - arrivals[1]!).toBeGreaterThanOrEqual(2 * backOffMs - 10);
    expect(ctx.throttle.counts).toMatchObject({ answers: 2, waitedMs: 3 * backOffMs });
  });

  it(`sends a 429 again ${maxResends} times at most, then the 429 stands; a wait past the deadline is not waited`, async () => {
    answer = (_n, _req, res) => tooMany(res, '0');
    const ctx = context();
    expect((await ctx.send(request())).answer?.status).toBe(429);
    expect(arrivals).toHaveLength(maxResends + 1);
    answer = (_n, _req, res) => tooMany(res, '30');
    const start = performance.now();
    const late = context({ deadlineMs: 2000 });
    expect((await late.send(request())).answer?.status).toBe(429);
    expect(arrivals).toHaveLength(1);
    expect(performance.now() - start).toBeLessThan(1500);
  });

  it('keeps to --rate: N requests take at least (N-1)/rate seconds, sent one after another or at once', async () => {
    answer = (_n, _req, res) => ok(res);
    const rate = 50;
    for (const atOnce of [false, true]) {
      const ctx = context({ rate });
      const sends = Array.from({ length: 10 }, () => () => ctx.send(request()));
      if (atOnce) await Promise.all(sends.map((s) => s()));
      else for (const s of sends) await s();
      expect(arrivals).toHaveLength(10);
      expect(arrivals[9]! - arrivals[0]!).toBeGreaterThanOrEqual((9 / rate) * 1000 - 10);
    }
  });

  it('refuses a rate that is no number of requests a second above 0, naming the option', async () => {
    for (const rate of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '5' as unknown as number]) {
      expect(() => context({ rate })).toThrow(OptionError);
      await expect(runConformance({ server: base, ...credentials, rate })).rejects.toThrow(
        /runConformance: rate must be a number of requests a second above 0/,
      );
    }
  });
});

describe('a check whose answer stays 429', () => {
  it('is not judged, neither passed nor failed; a run that judged nothing does not pass', async () => {
    answer = (_n, _req, res) => tooMany(res, '0');
    const report = await runSuite({ server: base, credentials }, dredd);
    expect(report.results.filter((r) => r.stage === 'dredd').length).toBeGreaterThan(0);
    for (const r of report.results.filter((r) => r.stage !== 'run' && r.stage !== 'credentials'))
      expect(r, r.name).toMatchObject({ ok: true, skipped: expect.stringMatching(/429/) });
    expect(report.ok).toBe(false);
    expect(report.rateLimit?.notJudged).toBe(report.results.filter((r) => r.skipped).length);
    const text = summary(report);
    expect(text).toMatch(/0 passed, 0 failed, \d+ not judged \(answered 429 to every resend\)/);
    expect(text).toMatch(/rate limit: \d+ answers 429 \(rate limited\), 0\.0 s waited them out; \d+ checks not judged/);
    expect(junit(report)).toMatch(/<skipped message="not judged: the service answered 429/);
  }, 30_000);
});

describe('a rate-limited implementation (the independent one, a token bucket per credential)', () => {
  const { apiKey, apiKeyNoBalance, integratorToken, values } = independentVars;
  it('passes the default profile, its 429s waited out and counted; strict fails them as decisions only', async () => {
    // No token at first, then 5 at most, one more each 50 ms: each credential's first request meets the limit on any
    // machine (a busy one may send slower than the bucket fills).
    const service = await startIndependent({ choices: { rateLimit: { perSecond: 20, burst: 5, initial: 0 } } });
    try {
      const options = {
        server: service.url,
        credentials: { apiKey, apiKeyNoBalance, integratorToken },
        values,
      };
      const described = await runSuite(options, dredd);
      expect(described.ok, summary(described)).toBe(true);
      expect(described.rateLimit!.answers).toBeGreaterThan(0);
      expect(described.rateLimit!.waitedMs).toBeGreaterThanOrEqual(1000);
      expect(summary(described)).toMatch(/rate limit: \d+ answers? 429 \(rate limited\), \d+\.\d s waited them out/);
      expect(JSON.parse(json(described)).rateLimit.answers).toBe(described.rateLimit!.answers);
      const strict = await runSuite({ ...options, profile: 'strict' }, dredd);
      const failed = strict.results.filter((r) => !r.ok);
      expect(failed.filter((r) => r.kind !== 'decision')).toEqual([]);
      expect(failed.some((r) => r.faults?.some((f) => f.check === 'no-rate-limit'))).toBe(true);
    } finally {
      await service.close();
    }
  }, 30_000);
});

describe('recorded traffic', () => {
  const pair = examplePairs().find((p) => p.operation.operationId === 'scheduleCascade' && p.status === 200)!;
  const limited = (): RecordedExchange => ({
    at: Date.parse('2026-11-20T10:00:00Z'),
    request: {
      method: 'POST',
      url: `https://service.example${pair.operation.path}`,
      headers: { 'content-type': 'application/json', 'x-api-key': 'a-key' },
      body: JSON.stringify(pair.requestBody),
    },
    response: {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '2' },
      body: problem(429, 'too-many-requests'),
    },
    source: 'test line 1',
  });
  it("a 429 is not the service's break; strict holds the decision (no rate limit)", () => {
    const judge = new TrafficJudge({});
    judge.see(limited());
    judge.end();
    const report = judge.report();
    expect(report.ok, trafficSummary(report, judge)).toBe(true);
    expect(report.traffic).toMatchObject({ decisions: 1, service: { failed: 0 } });
    const strict = new TrafficJudge({ profile: 'strict' });
    strict.see(limited());
    strict.end();
    expect(strict.report().results.flatMap((r) => r.faults?.map((f) => f.check) ?? [])).toEqual(['no-rate-limit']);
  });
});

describe('--rate on the command line', () => {
  it.each([['0'], ['-2'], ['fast'], ['']])('exits 2 with a message for --rate=%s', async (value) => {
    const result = await conformanceInProcess([
      '--server',
      'http://x',
      '--api-key',
      'k',
      '--integrator-token',
      't',
      `--rate=${value}`,
    ]);
    expect(result.code).toBe(2);
    expect(result.out).toMatch(/--rate must be a number of requests a second above 0/);
    expect(result.out).not.toMatch(/\n\s+at /);
  });
  it('is in the usage text', async () => {
    expect((await conformanceInProcess(['--help'])).out).toMatch(/--rate\s+requests a second the whole run keeps to/);
  });
});
