// The traffic judge on exchanges written here: each side's breaks, the rules over time where the exchanges show
// enough, callbacks, --judge, and redaction. Requests and limits are read from the document's examples.
import { describe, expect, it } from 'vitest';
import { examplePairs } from '../../src/core/examples.ts';
import type { RecordedExchange } from '../../src/conformance/ground/model.ts';
import { TrafficJudge, type TrafficOptions } from '../../src/conformance/traffic/judge.ts';
import { json, trafficSummary } from '../../src/conformance/report.ts';
import { resolvePointer } from '../../src/core/document.ts';
import { limits } from '../helpers/contract.ts';

const host = 'https://service.example';
const key = 'a-secret-api-key-0001';
const token = 'a-secret-token-0002';
const pair = (operationId: string, name: string) =>
  examplePairs().find((p) => p.operation.operationId === operationId && p.name === name)!;
const scheduled = pair(
  'scheduleCascade',
  examplePairs().find((p) => p.operation.operationId === 'scheduleCascade' && p.status === 200)!.name,
);
const closing = examplePairs().find((p) => p.operation.operationId === 'closeThreads' && p.status === 200)!;

let clock = Date.parse('2026-11-20T10:00:00Z');
let line = 0;
function exchange(
  path: string,
  body: unknown,
  response: { status: number; body?: unknown } | undefined,
  headers: Record<string, string> = {},
  method = 'POST',
): RecordedExchange {
  clock += 1000;
  return {
    at: clock,
    request: {
      method,
      url: `${host}${path}`,
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    },
    response: response && {
      status: response.status,
      headers: { 'content-type': response.status < 300 ? 'application/json' : 'application/problem+json' },
      body: response.body === undefined ? '' : JSON.stringify(response.body),
    },
    source: `test line ${++line}`,
  };
}
const withKey = { 'x-api-key': key };
const withToken = { authorization: `Bearer ${token}` };
const problem = (status: number, title: string) => ({ status, title, detail: 'x' });

function judged(xs: RecordedExchange[], options: TrafficOptions = {}) {
  const judge = new TrafficJudge(options);
  for (const x of xs) judge.see(x);
  judge.end();
  const report = judge.report();
  return { report, checks: report.results.flatMap((r) => r.faults?.map((f) => f.check) ?? []), judge };
}

/** The most identifiers an example of the document sends to close threads: any limit of a service lets as many through. */
const mostSent = Math.max(
  ...examplePairs()
    .filter((p) => p.operation.operationId === 'closeThreads' && p.status === 200)
    .map((p) => (p.requestBody as { threadIds: unknown[] }).threadIds.length),
);
const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

const closeAnswer = (lists: Partial<Record<string, number[]>>) => ({
  resolved_threads: [],
  not_existing_threads: [],
  already_resolved_threads: [],
  not_resolved_due_to_system_error: [],
  ...lists,
});

describe('the traffic judge', () => {
  it('passes what the document allows: a success, and an answer of the state it cannot see', () => {
    const { report } = judged([
      exchange(scheduled.operation.path, scheduled.requestBody, { status: 200, body: scheduled.response }, withKey),
      exchange(
        scheduled.operation.path,
        { ...(scheduled.requestBody as object), requestId: 'f-1' },
        { status: 400, body: problem(400, 'out-of-balance') },
        withKey,
      ),
      exchange(
        closing.operation.path,
        { threadIds: [5] },
        { status: 200, body: closeAnswer({ not_existing_threads: [5] }) },
        withToken,
      ),
    ]);
    expect(report.ok, JSON.stringify(report.results, null, 1)).toBe(true);
    expect(report.traffic).toMatchObject({
      exchanges: 3,
      service: { judged: 3, failed: 0 },
      caller: { judged: 3, failed: 0 },
    });
  });

  it('a log of a service that takes other legal answers passes: no credential, a form, a count, a list size refused its own way', () => {
    const created = pair('createSubscriber', 'created');
    const xs = () => [
      // Open points the description leaves: what a request with no credential gets, a requestId that is no UUID, the
      // largest threadIds, the longest list of a subscriber; and a 429 (no rate limit is shown).
      exchange(scheduled.operation.path, scheduled.requestBody, { status: 403, body: problem(403, 'forbidden') }),
      exchange(
        scheduled.operation.path,
        { ...(scheduled.requestBody as object), requestId: 'order-1' },
        { status: 400, body: problem(400, 'request-id-is-not-valid') },
        withKey,
      ),
      exchange(
        closing.operation.path,
        { threadIds: ids(mostSent + 1) },
        { status: 400, body: problem(400, 'too-many-thread-ids') },
        withToken,
      ),
      exchange(
        created.operation.path,
        { ...(created.requestBody as object), tagValues: [{ name: 'a' }, { name: 'b' }] },
        { status: 413, body: problem(413, 'too-many-items') },
        withKey,
      ),
    ];
    const { report } = judged(xs());
    expect(report.ok, JSON.stringify(report.results, null, 1)).toBe(true);
    // Strict holds this contract's decisions: each of those refusals fails, as a decision.
    const strict = judged(xs(), { profile: 'strict' }).report;
    expect(strict.results.filter((r) => !r.ok && r.stage === 'answers').length).toBe(4);
    expect(strict.results.filter((r) => !r.ok && r.kind !== 'decision').map((r) => r.name)).toEqual([]);
    // As many identifiers as an example of the document sends are under any limit: refused, it is the service's break.
    const one = judged([
      exchange(
        closing.operation.path,
        { threadIds: ids(mostSent) },
        { status: 400, body: problem(400, 'too-many-thread-ids') },
        withToken,
      ),
    ]);
    expect(one.report.ok).toBe(false);
  });

  it("a request the document refuses is the caller's break; the service's refusal of it passes; --judge picks who fails", () => {
    const long = { threadIds: [5], comment: 'x'.repeat(limits.comment + 1) };
    const xs = () => [
      exchange(closing.operation.path, long, { status: 400, body: problem(400, 'comment-is-too-long') }, withToken),
      exchange(closing.operation.path, {}, { status: 500, body: problem(500, 'system-error') }, withToken),
    ];
    expect(judged(xs()).report.ok).toBe(true); // the service answered both as the document allows
    const caller = judged(xs(), { judge: 'caller' });
    expect(caller.report.ok).toBe(false);
    expect(caller.checks).toEqual(['request-schema', 'request-schema']);
    expect(trafficSummary(caller.report, caller.judge)).toMatch(
      /FAIL \[request-schema\] closeThreads: a request the document refuses \(comment-is-too-long\)/,
    );
    expect(trafficSummary(judged(xs()).report)).toMatch(/not judged: 2 requests/);
  });

  it("a refused request accepted, and a valid one refused with a rule it keeps, are the service's breaks", () => {
    const noContent = examplePairs().find(
      (p) =>
        p.operation.operationId === 'scheduleCascade' &&
        (p.response as { title?: string } | undefined)?.title === 'content-not-specified',
    )!;
    const atLimit = { threadIds: [5], comment: 'x'.repeat(limits.comment) };
    const { report, checks } = judged(
      [
        exchange(noContent.operation.path, noContent.requestBody, { status: 200, body: scheduled.response }, withKey),
        exchange(
          closing.operation.path,
          atLimit,
          { status: 400, body: problem(400, 'comment-is-too-long') },
          withToken,
        ),
      ],
      { judge: 'both' },
    );
    expect(report.ok).toBe(false);
    expect(checks.filter((c) => c === 'status')).toHaveLength(2);
    expect(checks).toContain('request-schema');
    expect(report.traffic.caller.failed).toBe(1);
  });

  it('an answer only this contract decides is judged under --profile strict only', () => {
    const long = { threadIds: [5], comment: 'x'.repeat(limits.comment + 1) };
    const xs = () => [
      exchange(closing.operation.path, long, { status: 200, body: closeAnswer({ resolved_threads: [5] }) }, withToken),
    ];
    const described = judged(xs());
    expect(described.report.ok).toBe(true);
    expect(described.report.traffic.decisions).toBe(1);
    expect(judged(xs(), { profile: 'strict' }).checks).toEqual(['status']);
  });

  it('a requestId accepted twice by one account is a break; refused the second time it is not; another account is not the same', () => {
    const body = { ...(scheduled.requestBody as object), requestId: 'once-only-1' };
    const ok = { status: 200, body: { ...(scheduled.response as object), requestId: 'once-only-1' } };
    expect(
      judged([
        exchange(scheduled.operation.path, body, ok, withKey),
        exchange(scheduled.operation.path, body, ok, withKey),
      ]).checks,
    ).toEqual(['taken-once']);
    expect(
      judged([
        exchange(scheduled.operation.path, body, ok, withKey),
        exchange(
          scheduled.operation.path,
          body,
          { status: 400, body: problem(400, 'requestId-is-not-unique') },
          withKey,
        ),
      ]).report.ok,
    ).toBe(true);
    expect(
      judged([
        exchange(scheduled.operation.path, body, ok, withKey),
        exchange(scheduled.operation.path, body, ok, { 'x-api-key': 'another-key-0003' }),
      ]).report.ok,
    ).toBe(true);
  });

  it('an open world: a thread listed again where no history the document allows puts it is a break; what may happen unseen is not', () => {
    const close = (lists: Partial<Record<string, number[]>>, ids = [7]) =>
      exchange(closing.operation.path, { threadIds: ids }, { status: 200, body: closeAnswer(lists) }, withToken);
    // A thread does not vanish: no history the description allows makes a closed or open thread match none.
    expect(judged([close({ resolved_threads: [7] }), close({ not_existing_threads: [7] })]).checks).toEqual([
      'sent-again',
    ]);
    expect(
      judged([close({ not_resolved_due_to_system_error: [7] }), close({ not_existing_threads: [7] })]).checks,
    ).toEqual(['sent-again']);
    // A week of logs: closed on Monday, already closed on Tuesday, closed again on Wednesday. Section 3.1: "Transitions
    // that reopen a thread: not shown": it may have been reopened in between.
    const week = [
      close({ resolved_threads: [7] }),
      close({ already_resolved_threads: [7] }),
      close({ resolved_threads: [7] }),
    ];
    expect(judged(week).report.ok).toBe(true);
    // A thread whose closing failed may be closed by a call the log does not hold; one that matched none may be made.
    expect(
      judged([close({ not_resolved_due_to_system_error: [7] }), close({ already_resolved_threads: [7] })]).report.ok,
    ).toBe(true);
    expect(judged([close({ not_existing_threads: [7] }), close({ resolved_threads: [7] })]).report.ok).toBe(true);
    // Once or for each time it was sent: an open point, either passes (no earlier answer to compare with).
    expect(judged([close({ resolved_threads: [7, 7] }, [7, 7])]).report.ok).toBe(true);
    // A rule that needs the state before the log never guesses: a first answer of "already resolved" passes.
    expect(judged([close({ already_resolved_threads: [7] })]).report.ok).toBe(true);
  });

  it("a reset starts the rules over time again: the sandbox's, a --reset-url path, and a recorded reset", () => {
    const body = { ...(scheduled.requestBody as object), requestId: 'once-per-reset-1' };
    const ok = { status: 200, body: { ...(scheduled.response as object), requestId: 'once-per-reset-1' } };
    const schedule = () => exchange(scheduled.operation.path, body, ok, withKey);
    const vanish = (list: string) =>
      exchange(
        closing.operation.path,
        { threadIds: [7] },
        { status: 200, body: closeAnswer({ [list]: [7] }) },
        withToken,
      );
    const sandboxReset = exchange('/_sandbox/reset', undefined, { status: 204 });
    const teamReset = exchange('/internal/reset-fixtures', undefined, { status: 200, body: {} });
    const recordedReset = { ...exchange('/anything', undefined, { status: 200, body: {} }), reset: true };
    for (const reset of [sandboxReset, recordedReset]) {
      const { report, checks } = judged([
        schedule(),
        vanish('resolved_threads'),
        reset,
        schedule(),
        vanish('not_existing_threads'),
      ]);
      expect(checks, reset.request.url).toEqual([]);
      expect(report.traffic.resets).toBe(1);
    }
    expect(judged([schedule(), teamReset, schedule()]).checks).toEqual(['taken-once']);
    expect(judged([schedule(), teamReset, schedule()], { resetPaths: ['/internal/reset-fixtures'] }).checks).toEqual(
      [],
    );
    // A reset that failed, or got no answer, changed nothing: the rules remember.
    const failedReset = exchange('/_sandbox/reset', undefined, { status: 500, body: {} });
    expect(judged([schedule(), failedReset, schedule()]).checks).toEqual(['taken-once']);
    const lostReset = { ...exchange('/_sandbox/reset', undefined, undefined), error: 'connect ECONNREFUSED' };
    expect(judged([schedule(), lostReset, schedule()]).checks).toEqual(['taken-once']);
    // Without a reset the same value twice is still a break: resets are seen, never guessed.
    expect(judged([schedule(), schedule()]).checks).toEqual(['taken-once']);
  });

  it('a subscriber created twice with one external identifier is no break over time: it may have been deleted unseen', () => {
    const created = examplePairs().find((p) => p.operation.operationId === 'createSubscriber' && p.status === 200)!;
    const create = () => exchange(created.operation.path, created.requestBody, { status: 200, body: {} }, withKey);
    expect(judged([create(), create()]).report.ok).toBe(true);
  });

  it("entries that are not http(s) (a browser HAR's blob:, data:, ws:) are outside the document, counted and not judged", () => {
    const odd = [
      'blob:http://localhost/1',
      'data:text/plain,x',
      'ws://localhost/socket',
      'chrome-extension://abc/x',
    ].map((url, i) => ({
      at: clock + i * 1000,
      request: { method: 'GET', url, headers: {}, body: undefined },
      response: undefined,
      source: url,
    }));
    const { report } = judged(odd, { judge: 'both' });
    expect(report.ok).toBe(true);
    expect(report.traffic).toMatchObject({ exchanges: 4, outside: 4, unanswered: 0 });
  });

  describe('callbacks', () => {
    const webhook = resolvePointer('#/webhooks/messageStatus/post') as any;
    const delivered = webhook.requestBody.content['application/json'].examples.delivered.value;
    const firstRetry: number = webhook['x-retry-delays-seconds'][0];
    const post = (body: unknown, status: number) => exchange('/hooks/status', body, { status, body: {} });
    const later = (seconds: number) => {
      clock += seconds * 1000;
      return exchange(
        closing.operation.path,
        { threadIds: [1] },
        { status: 200, body: closeAnswer({ not_existing_threads: [1] }) },
        withToken,
      );
    };

    it("a payload the webhook's schema refuses is the service's break; a receiver's refusal of a valid one the caller's", () => {
      const bad = judged([post({ ...delivered, messageId: 'not a number' }, 200)]);
      expect(bad.checks).toEqual(['callback-schema']);
      const refused = judged([post(delivered, 500), post(delivered, 200)], { judge: 'caller' });
      expect(refused.checks).toEqual(['receiver-answer']);
      expect(refused.report.traffic.callbacks).toBe(2);
    });

    it('a callback answered 500 and never posted again while the log goes on past the first retry is a break', () => {
      expect(judged([post(delivered, 500), later(firstRetry + 30)]).checks).toEqual(['callback-retried']);
      expect(judged([post(delivered, 500), post(delivered, 200), later(firstRetry + 30)]).report.ok).toBe(true);
      // The log ends before the retry is due: no verdict.
      expect(judged([post(delivered, 500), later(1)]).report.ok).toBe(true);
    });

    it('--callback-path tells a callback by where it goes', () => {
      const { report } = judged([post({ messageId: 1 }, 200)], { callbackPath: '/hooks/status', profile: 'strict' });
      expect(report.traffic.callbacks).toBe(1);
      expect(report.ok).toBe(false);
    });
  });

  it("paths and methods the document does not describe are the caller's break; the answer must be the 404 or 405", () => {
    const { report, checks } = judged(
      [
        exchange('/api/cascade/nothing-here', {}, { status: 404, body: problem(404, 'not-found') }, withKey),
        exchange(scheduled.operation.path, undefined, { status: 200, body: {} }, withKey, 'GET'),
        // Outside the document's paths (a docs page, a health check): not the API's, not judged.
        exchange('/health', undefined, { status: 200, body: 'ok' }, {}, 'GET'),
      ],
      { judge: 'both' },
    );
    expect(checks.sort()).toEqual(['request-operation', 'request-operation', 'status'].sort());
    expect(report.traffic.outside).toBe(1);
    expect(report.ok).toBe(false);
  });

  it('writes every credential as ***: headers, echoed in a body, in the replay', () => {
    const { report, judge } = judged(
      [
        exchange(
          closing.operation.path,
          { threadIds: [1], comment: key },
          { status: 200, body: { echoed: token } },
          { ...withToken, 'x-api-key': key },
        ),
      ],
      { judge: 'both' },
    );
    const text = json(report) + trafficSummary(report, judge);
    expect(report.ok).toBe(false);
    expect(text).not.toContain(key);
    expect(text).not.toContain(token);
    expect(text).toContain('$MESSAGING_INTEGRATOR_TOKEN');
  });
});
