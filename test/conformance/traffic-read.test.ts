// Reading and writing recorded traffic: what the recorders write reads back the same, a HAR file as browsers write it
// reads, every error names its line or entry, a line or entry over the limit fails while it is read, the reading is
// lazy (one exchange at a time), and credentials are written as ***.
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RecordedExchange } from '../../src/conformance/traffic/exchange.ts';
import { readTraffic } from '../../src/conformance/traffic/read.ts';
import { recorder, redactExchange } from '../../src/conformance/traffic/write.ts';

const dir = mkdtempSync(join(tmpdir(), 'traffic-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const all = async (path: string, limits?: { maxBytes?: number }) => {
  const out: RecordedExchange[] = [];
  for await (const x of readTraffic(path, undefined, limits)) out.push(x);
  return out;
};
const failure = (path: string, limits?: { maxBytes?: number }) =>
  all(path, limits).then(
    () => 'read without an error',
    (error: Error) => `${error.constructor.name}: ${error.message}`,
  );

const exchanges: RecordedExchange[] = [
  {
    at: Date.parse('2026-11-20T10:00:00.000Z'),
    request: {
      method: 'POST',
      url: 'https://service.example/api/v1/threads/close?x=1',
      headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
      body: '{"threadIds":[1],"comment":"Привет 👋"}',
    },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"resolved_threads":[1]}' },
    source: '',
  },
  {
    at: Date.parse('2026-11-20T10:00:01.500Z'),
    request: { method: 'GET', url: 'https://service.example/api/v1/threads/close', headers: {}, body: undefined },
    response: undefined,
    error: 'socket hang up',
    source: '',
  },
];

describe('recorded traffic', () => {
  it.each(['ndjson', 'har'])('what the recorder writes as %s reads back the same, in order', async (format) => {
    const path = join(dir, `round-trip.${format}`);
    const file = recorder(path);
    for (const x of exchanges) file.write(x);
    await file.close();
    const read = await all(path);
    const what = format === 'har' ? 'entry' : 'line';
    expect(read).toEqual(exchanges.map((x, i) => ({ ...x, source: `round-trip.${format} ${what} ${i + 1}` })));
  });

  it('reads a HAR file as a browser writes it: pages, pseudo-headers, a base64 body, a request that got no answer', async () => {
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'WebInspector', version: '537.36' },
        pages: [{ startedDateTime: '2026-11-20T10:00:00.000Z', id: 'page_1', title: 'http://127.0.0.1:4020/' }],
        entries: [
          {
            startedDateTime: '2026-11-20T10:00:01.000Z',
            request: {
              method: 'post',
              url: 'http://127.0.0.1:4020/api/cascade/schedule',
              headers: [
                { name: ':authority', value: '127.0.0.1:4020' },
                { name: 'Content-Type', value: 'application/json' },
                { name: 'X-Api-Key', value: 'k' },
                { name: 'Accept', value: 'a' },
                { name: 'accept', value: 'b' },
              ],
              postData: { mimeType: 'application/json', text: '{"requestId":"[{\\"}]"}' },
            },
            response: {
              status: 200,
              headers: [{ name: 'Content-Type', value: 'application/json' }],
              content: {
                size: 2,
                mimeType: 'application/json',
                text: Buffer.from('{}').toString('base64'),
                encoding: 'base64',
              },
            },
          },
          {
            startedDateTime: '2026-11-20T10:00:02.000Z',
            request: { method: 'GET', url: 'http://127.0.0.1:4020/x', headers: [] },
            response: { status: 0, headers: [], content: { size: 0 }, _error: 'net::ERR_EMPTY_RESPONSE' },
          },
        ],
      },
    };
    const path = join(dir, 'browser.har');
    writeFileSync(path, JSON.stringify(har, null, 2));
    const [first, second] = await all(path);
    expect(first!.request).toEqual({
      method: 'POST',
      url: 'http://127.0.0.1:4020/api/cascade/schedule',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k', accept: 'a, b' },
      body: '{"requestId":"[{\\"}]"}',
    });
    expect(first!.response).toEqual({ status: 200, headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(second).toMatchObject({
      response: undefined,
      error: 'net::ERR_EMPTY_RESPONSE',
      source: 'browser.har entry 2',
    });
  });

  it('names the line or entry and what is wrong there', async () => {
    const ok = JSON.stringify({
      startedAt: '2026-11-20T10:00:00Z',
      request: { method: 'GET', url: 'http://x.example/' },
    });
    const cases: Array<[string, string, string]> = [
      [
        'a.ndjson',
        `${ok}\n\n${ok}\n[1]`,
        'TrafficError: a.ndjson line 4: an exchange must be a JSON object {startedAt, request, response}',
      ],
      [
        'b.ndjson',
        `${ok}\r\n{"startedAt": 1}`,
        'TrafficError: b.ndjson line 2: startedAt must be an ISO 8601 date-time, got 1',
      ],
      [
        'c.ndjson',
        '{"startedAt":"2026-11-20T10:00:00Z","request":{"method":"GET","url":"http://x.example/","headers":{"a":1}}}',
        'TrafficError: c.ndjson line 1 request.headers: the header "a" must be a string',
      ],
      [
        'd.ndjson',
        '{"startedAt":"2026-11-20T10:00:00Z","request":{"method":"GET","url":"http://x.example/","body":{}}}',
        'TrafficError: d.ndjson line 1: request.body must be a string',
      ],
      [
        'e.har',
        '{"log":{"entries":[{"startedDateTime":"2026-11-20T10:00:00Z","request":{"method":"GET","url":"x"},"response":{"status":200}}]}}',
        'TrafficError: e.har entry 1: request.url must be an absolute http(s) URL, got "x"',
      ],
      [
        'f.har',
        '{"log":{"entries":[{"startedDateTime":"2026-11-20T10:00:00Z"',
        'TrafficError: f.har: the file ends inside entry 1 or after it (cut short?)',
      ],
      ['g.har', '{"entries": []}', 'TrafficError: g.har: not a HAR file: no log.entries array'],
      ['h.har', '['.repeat(100_000), 'TrafficError: h.har: nested deeper than 256 levels'],
    ];
    for (const [name, text, message] of cases) {
      const path = join(dir, name);
      writeFileSync(path, text);
      expect(await failure(path), name).toBe(message);
    }
  });

  it('a line or an entry over the limit fails as it is read, never held whole', async () => {
    const big = `{"startedAt":"2026-11-20T10:00:00Z","request":{"method":"GET","url":"http://x.example/","body":"${'x'.repeat(4000)}"}}`;
    const ndjson = join(dir, 'big.ndjson');
    writeFileSync(
      ndjson,
      `{"startedAt":"2026-11-20T10:00:00Z","request":{"method":"GET","url":"http://x.example/"}}\n${big}\n`,
    );
    expect(await failure(ndjson, { maxBytes: 1024 })).toBe('TrafficError: big.ndjson line 2 is over 1 KiB');
    const har = join(dir, 'big.har');
    writeFileSync(
      har,
      `{"log":{"entries":[${big.replace('"request"', '"response":{"status":0},"request"').replace('startedAt', 'startedDateTime')}]}}`,
    );
    expect(await failure(har, { maxBytes: 1024 })).toMatch(/^TrafficError: big\.har entry 1 is over/);
  });

  it('reads lazily: one exchange at a time, however long the file', async () => {
    const path = join(dir, 'long.ndjson');
    const out = createWriteStream(path);
    const line = `${JSON.stringify({ startedAt: '2026-11-20T10:00:00Z', request: { method: 'POST', url: 'http://x.example/', body: 'y'.repeat(500) } })}\n`;
    for (let i = 0; i < 100_000; i++) if (!out.write(line)) await once(out, 'drain');
    out.end();
    await once(out, 'finish');
    // The first exchange comes before the reader has gone far into a 50 MB file: the read stream's buffer, no more.
    const reader = readTraffic(path);
    const first = await reader.next();
    expect(first.value?.source).toBe('long.ndjson line 1');
    await reader.return(undefined);
    let count = 0;
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    for await (const _ of readTraffic(path))
      if (++count % 10_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    expect(count).toBe(100_000);
    // 50 MB read, a few MB held at most (garbage not yet collected included).
    expect(peak - before).toBeLessThan(40 * 1024 * 1024);
  }, 30_000);

  it('headers named __proto__ or constructor are headers, and pollute nothing', async () => {
    const path = join(dir, 'proto.ndjson');
    writeFileSync(
      path,
      '{"startedAt":"2026-11-20T10:00:00Z","request":{"method":"GET","url":"http://x.example/","headers":{"__proto__":"a","constructor":"b"}}}\n',
    );
    const [x] = await all(path);
    expect(Object.getPrototypeOf(x!.request.headers)).toBe(Object.prototype);
    expect(Object.keys(x!.request.headers).sort()).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).a).toBeUndefined();
  });

  it('writes every credential as ***: the headers, and each value wherever else it occurs', () => {
    const x = redactExchange(
      {
        at: 0,
        request: {
          method: 'POST',
          url: 'https://x.example/?key=secret-key-1',
          headers: { 'x-api-key': 'secret-key-1', authorization: 'Bearer token-22', cookie: 'sid=abc' },
          body: '{"echo":"token-22"}',
        },
        response: { status: 200, headers: { 'set-cookie': 'sid=abc' }, body: 'secret-key-1 and sid=abc and extra-99' },
        source: '',
      },
      ['extra-99'],
    );
    expect(x.request.headers).toEqual({ 'x-api-key': '***', authorization: 'Bearer ***', cookie: '***' });
    expect(x.request.url).toBe('https://x.example/?key=***');
    expect(x.request.body).toBe('{"echo":"***"}');
    expect(x.response).toEqual({ status: 200, headers: { 'set-cookie': '***' }, body: '*** and *** and ***' });
  });
});
