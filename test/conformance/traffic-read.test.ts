// Reading and writing recorded traffic: what the recorders write reads back the same, a HAR file as browsers write it
// reads, every error names its line or entry and the field, a line or entry over the limit fails while it is read, the
// reading is lazy (a pipe shows it: nothing past the first exchange has been written yet) and holds one exchange at a
// time, and credentials are written as ***.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import type { RecordedExchange } from '../../src/conformance/ground/model.ts';
import { readTraffic, type TrafficLimits, trafficFormat } from '../../src/conformance/traffic/readers/index.ts';
import { recorder } from '../../src/conformance/traffic/write.ts';
import { redactExchange } from '../../src/conformance/ground/redaction.ts';

const dir = mkdtempSync(join(tmpdir(), 'traffic-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const all = async (path: string, limits?: TrafficLimits) => {
  const out: RecordedExchange[] = [];
  for await (const x of readTraffic(path, undefined, limits)) out.push(x);
  return out;
};
const failure = (path: string, limits?: TrafficLimits) =>
  all(path, limits).then(
    () => 'read without an error',
    (error: Error) => `${error.constructor.name}: ${error.message}`,
  );
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** A named pipe the test writes into as it goes: what the reader yields before the writer ends was read lazily. */
async function pipe(name: string) {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  const writer = createWriteStream(path);
  writer.on('error', () => {}); // the reader may close first (it failed, as a test wants)
  return { path, write: (text: string) => writer.write(text), end: () => writer.end() };
}

const exchanges: RecordedExchange[] = [
  {
    at: Date.parse('2026-11-20T10:00:00.000Z'),
    request: {
      method: 'POST',
      url: 'https://service.example/api/v1/threads/close?x=1&y=%C3%A9',
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
  {
    // 300 KB of characters of 2 and 4 bytes: several 64 KiB chunks, a character cut at some of their edges.
    at: Date.parse('2026-11-20T10:00:02.000Z'),
    request: { method: 'PUT', url: 'http://127.0.0.1:8080/x', headers: { a: '1, 2' }, body: 'é👋'.repeat(50_000) },
    response: { status: 204, headers: {}, body: '' },
    source: '',
  },
];

describe('recorded traffic', () => {
  it('the format: as given, else HAR for a .har name', () => {
    expect([trafficFormat('a.har'), trafficFormat('A.HAR'), trafficFormat('a.log'), trafficFormat('a', 'har')]).toEqual(
      ['har', 'har', 'ndjson', 'har'],
    );
  });

  it.each(['ndjson', 'har'])('what the recorder writes as %s reads back the same, in order', async (format) => {
    const path = join(dir, `round-trip.${format}`);
    const out = recorder(path);
    // A caller's request may carry more than the exchange (the suite's has an AbortSignal): only the fields are written.
    const [first, ...rest] = exchanges;
    out.write({ ...first!, request: { ...first!.request, signal: AbortSignal.timeout(1000) } as never });
    for (const x of rest) out.write(x);
    await out.close();
    const what = format === 'har' ? 'entry' : 'line';
    expect(await all(path)).toEqual(
      exchanges.map((x, i) => ({ ...x, source: `round-trip.${format} ${what} ${i + 1}` })),
    );
    if (format === 'har') {
      const har = JSON.parse(readFileSync(path, 'utf8'));
      expect(har.log).toMatchObject({ version: '1.2', creator: { name: 'messaging-conformance' } });
      expect(har.log.entries[0]).toMatchObject({
        time: 0,
        cache: {},
        timings: { send: 0, wait: 0, receive: 0 },
        request: {
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headersSize: -1,
          bodySize: Buffer.byteLength(first!.request.body!),
        },
        response: { statusText: '', redirectURL: '', content: { mimeType: 'application/json' } },
      });
      expect(har.log.entries[0].request.queryString).toEqual([
        { name: 'x', value: '1' },
        { name: 'y', value: 'é' },
      ]);
    }
  });

  it('writes from many callers at once go out whole, in call order', async () => {
    const path = join(dir, 'many.har');
    const out = recorder(path);
    await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        await new Promise((resolve) => setImmediate(resolve));
        out.write({ ...exchanges[0]!, at: i });
      }),
    );
    await out.close();
    expect(() => out.write(exchanges[0]!)).toThrow('is closed');
    expect((await all(path)).map((x) => x.at)).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it('a recording that cannot be written says why when closed', async () => {
    const out = recorder(join(dir, 'no-such-folder', 'x.ndjson'));
    out.write(exchanges[0]!);
    await expect(out.close()).rejects.toThrow('ENOENT');
  });

  it('reads a HAR file as a browser writes it: pages, pseudo-headers, a base64 body, a request that got no answer', async () => {
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'WebInspector', version: '537.36' },
        pages: [{ startedDateTime: '2026-11-20T10:00:00.000Z', id: 'page_1', title: 'http://127.0.0.1:4020/' }],
        entries: [
          {
            _initiator: { type: 'script', stack: { callFrames: [{ url: 'x', lineNumber: 1 }] } },
            pageref: 'page_1',
            startedDateTime: '2026-11-20T11:00:01.000+01:00',
            time: 12.5,
            request: {
              method: 'post',
              url: 'http://127.0.0.1:4020/api/cascade/schedule',
              httpVersion: 'http/2.0',
              headers: [
                { name: ':authority', value: '127.0.0.1:4020' },
                { name: ':method', value: 'POST' },
                { name: 'Content-Type', value: 'application/json' },
                { name: 'X-Api-Key', value: 'k' },
                { name: 'Accept', value: 'a' },
                { name: 'accept', value: 'b' },
              ],
              queryString: [],
              cookies: [],
              postData: { mimeType: 'application/json', text: '{"requestId":"[{\\"}]"}' },
            },
            response: {
              status: 200,
              statusText: '',
              headers: [{ name: 'Content-Type', value: 'application/json' }],
              content: {
                size: 2,
                mimeType: 'application/json',
                text: Buffer.from('{"a":"é"}').toString('base64'),
                encoding: 'base64',
              },
            },
            timings: { blocked: 1, dns: -1, send: 0, wait: 10, receive: 1.5 },
          },
          {
            startedDateTime: '2026-11-20T10:00:02.000Z',
            request: { method: 'GET', url: 'http://127.0.0.1:4020/x', headers: [] },
            response: { status: 0, headers: [], content: { size: 0 }, _error: 'net::ERR_EMPTY_RESPONSE' },
          },
          {
            startedDateTime: '2026-11-20T10:00:03.000Z',
            request: { method: 'GET', url: 'https://127.0.0.1:4020/y', headers: [] },
            response: { status: 304, headers: [], content: { size: 0, mimeType: 'x-unknown' } },
          },
        ],
      },
    };
    const [first, second, third] = await all(file('browser.har', JSON.stringify(har, null, 2)));
    expect(first).toEqual({
      at: Date.parse('2026-11-20T10:00:01.000Z'),
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:4020/api/cascade/schedule',
        headers: { 'content-type': 'application/json', 'x-api-key': 'k', accept: 'a, b' },
        body: '{"requestId":"[{\\"}]"}',
      },
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"a":"é"}' },
      source: 'browser.har entry 1',
    });
    expect(second).toMatchObject({
      response: undefined,
      error: 'net::ERR_EMPTY_RESPONSE',
      source: 'browser.har entry 2',
    });
    expect(third!.response).toEqual({ status: 304, headers: {}, body: '' });
  });

  // Browsers record their own requests beside the API's: each is an exchange with its URL and nothing else checked.
  const notHttp = (at: string, method: string, url: string, source: string) => ({
    at: Date.parse(at),
    request: { method, url, headers: {}, body: undefined },
    response: undefined,
    source,
  });

  it('reads the blob:, data:, ws: and chrome-extension: entries of a browser HAR as exchanges, in file order', async () => {
    const api = (at: string, method: string, url: string, status: number) => ({
      startedDateTime: at,
      request: { method, url, headers: [{ name: 'Accept', value: 'application/json' }] },
      response: { status, headers: [], content: { size: 0 } },
    });
    const entries = [
      api('2026-11-20T10:00:00.000Z', 'POST', 'http://127.0.0.1:4020/api/x', 200),
      {
        startedDateTime: '2026-11-20T10:00:01.000Z',
        request: { method: 'GET', url: 'blob:http://127.0.0.1:4020/6f1c2a9e', headers: [] },
        response: { status: 200, headers: [], content: { size: 12, mimeType: 'image/png' } },
      },
      // No time of its own (the one before it holds), no method, a response no HTTP answer has.
      { startedDateTime: 'soon', request: { url: 'data:image/png;base64,iVBORw0KGgo=' }, response: { status: -1 } },
      {
        startedDateTime: '2026-11-20T10:00:02.500Z',
        _resourceType: 'websocket',
        _webSocketMessages: [{ type: 'send', time: 1763632802.6, opcode: 1, data: '{"op":"subscribe"}' }],
        request: { method: 'get', url: 'wss://127.0.0.1:4020/socket', headers: [{ name: 'Upgrade', value: 7 }] },
        response: { status: 101, statusText: 'Switching Protocols', headers: { odd: true }, content: 'none' },
      },
      { request: { method: 'GET /', url: 'chrome-extension://abcdef/content.js' } },
      api('2026-11-20T10:00:03.000Z', 'GET', 'https://127.0.0.1:4020/api/y', 204),
    ];
    const read = await all(file('playwright.har', JSON.stringify({ log: { version: '1.2', entries } })));
    expect(read).toEqual([
      {
        at: Date.parse('2026-11-20T10:00:00.000Z'),
        request: { method: 'POST', url: 'http://127.0.0.1:4020/api/x', headers: { accept: 'application/json' } },
        response: { status: 200, headers: {}, body: '' },
        source: 'playwright.har entry 1',
      },
      notHttp('2026-11-20T10:00:01.000Z', 'GET', 'blob:http://127.0.0.1:4020/6f1c2a9e', 'playwright.har entry 2'),
      notHttp('2026-11-20T10:00:01.000Z', 'GET', 'data:image/png;base64,iVBORw0KGgo=', 'playwright.har entry 3'),
      notHttp('2026-11-20T10:00:02.500Z', 'GET', 'wss://127.0.0.1:4020/socket', 'playwright.har entry 4'),
      notHttp('2026-11-20T10:00:02.500Z', 'GET', 'chrome-extension://abcdef/content.js', 'playwright.har entry 5'),
      {
        at: Date.parse('2026-11-20T10:00:03.000Z'),
        request: { method: 'GET', url: 'https://127.0.0.1:4020/api/y', headers: { accept: 'application/json' } },
        response: { status: 204, headers: {}, body: '' },
        source: 'playwright.har entry 6',
      },
    ]);
  });

  it('reads NDJSON lines whose URL is not http(s) the same way, the first one without a time at 0', async () => {
    const lines = [
      { request: { url: 'data:text/plain,hello' } },
      { startedAt: '2026-11-20T10:00:00Z', request: { method: 'POST', url: 'http://x.example/api' }, response: null },
      {
        startedAt: '2026-11-20T10:00:01Z',
        request: { method: 'PUT', url: 'blob:http://x.example/1', headers: { a: 1 }, body: {} },
        response: 'not an answer',
        error: 'not kept',
      },
      { startedAt: 'yesterday', request: { method: 'GET', url: 'ws://x.example/socket' }, _webSocketMessages: [] },
      { startedAt: '2026-11-20T10:00:02Z', request: { method: 7, url: 'chrome-extension://abc/x.js' } },
      {
        startedAt: '2026-11-20T10:00:03Z',
        request: { method: 'GET', url: 'https://x.example/api/y' },
        response: { status: 200, body: 'ok' },
      },
    ];
    const read = await all(file('browser.ndjson', lines.map((x) => JSON.stringify(x)).join('\n')));
    expect(read).toEqual([
      notHttp('1970-01-01T00:00:00Z', 'GET', 'data:text/plain,hello', 'browser.ndjson line 1'), // at 0
      {
        at: Date.parse('2026-11-20T10:00:00Z'),
        request: { method: 'POST', url: 'http://x.example/api', headers: {}, body: undefined },
        response: undefined,
        source: 'browser.ndjson line 2',
      },
      notHttp('2026-11-20T10:00:01Z', 'PUT', 'blob:http://x.example/1', 'browser.ndjson line 3'),
      notHttp('2026-11-20T10:00:01Z', 'GET', 'ws://x.example/socket', 'browser.ndjson line 4'),
      notHttp('2026-11-20T10:00:02Z', 'GET', 'chrome-extension://abc/x.js', 'browser.ndjson line 5'),
      {
        at: Date.parse('2026-11-20T10:00:03Z'),
        request: { method: 'GET', url: 'https://x.example/api/y', headers: {}, body: undefined },
        response: { status: 200, headers: {}, body: 'ok' },
        source: 'browser.ndjson line 6',
      },
    ]);
  });

  it('still refuses a URL that is not absolute, naming its entry or line', async () => {
    const entry = (url: unknown) => ({
      startedDateTime: '2026-11-20T10:00:00Z',
      request: { method: 'GET', url, headers: [] },
      response: { status: 200, headers: [] },
    });
    const har = (url: unknown) => JSON.stringify({ log: { entries: [entry('blob:http://x.example/1'), entry(url)] } });
    const ndjson = (url: unknown) =>
      [
        { startedAt: '2026-11-20T10:00:00Z', request: { url: 'ws://x.example/' } },
        { startedAt: '2026-11-20T10:00:00Z', request: { method: 'GET', url } },
      ]
        .map((x) => JSON.stringify(x))
        .join('\n');
    expect(await failure(file('relative.har', har('/api/x')))).toBe(
      'TrafficError: relative.har entry 2: request.url must be an absolute http(s) URL, got "/api/x"',
    );
    expect(await failure(file('relative.ndjson', ndjson('nonsense')))).toBe(
      'TrafficError: relative.ndjson line 2: request.url must be an absolute http(s) URL, got "nonsense"',
    );
    expect(await failure(file('number.ndjson', ndjson(12)))).toBe(
      'TrafficError: number.ndjson line 2: request.url must be an absolute http(s) URL, got 12',
    );
  });

  it('names the line or entry and what is wrong there', async () => {
    const ok = JSON.stringify({
      startedAt: '2026-11-20T10:00:00Z',
      request: { method: 'GET', url: 'http://x.example/' },
    });
    const line = (change: (x: any) => void) => {
      const x = JSON.parse(ok);
      change(x);
      return `${ok}\r\n\r\n${JSON.stringify(x)}`; // CRLF, a blank line: the third line
    };
    const base = {
      startedDateTime: '2026-11-20T10:00:00Z',
      request: { method: 'GET', url: 'http://x.example/', headers: [] },
      response: { status: 200, headers: [], content: { size: 0 } },
    };
    // A good entry, then the one under test: the second.
    const har = (second: string) => `{"log":{"version":"1.2","entries":[${JSON.stringify(base)}, ${second}]}}`;
    const entry = (change: (x: any) => void) => {
      const x = structuredClone(base) as any;
      change(x);
      return har(JSON.stringify(x));
    };
    const cases: Array<[string, string, string]> = [
      ['1.ndjson', `${ok}\n\n{"startedAt": `, 'line 3: not JSON ('],
      [
        '2.ndjson',
        `${ok}\n\n[1]`,
        'line 3: an exchange must be a JSON object {startedAt, request, response}, got a list',
      ],
      [
        '3.ndjson',
        line((x) => (x.startedAt = 1)),
        'line 3: startedAt must be an ISO 8601 date-time, got 1 (with its zone: 2026-11-20T10:00:00Z)',
      ],
      ['4.ndjson', line((x) => (x.startedAt = 'Nov 20 2026')), 'line 3: startedAt must be an ISO 8601 date-time'],
      ['5.ndjson', line((x) => (x.startedAt = '2026-02-30T10:00:00Z')), 'line 3: startedAt must be an ISO 8601'],
      ['6.ndjson', line((x) => (x.startedAt = '2026-11-20T10:00:00')), 'line 3: startedAt must be an ISO 8601'],
      ['7.ndjson', line((x) => delete x.request), 'line 3: request must be an object {method, url, headers, body}'],
      ['8.ndjson', line((x) => (x.request.method = 1)), 'line 3: request.method must be a string'],
      ['9.ndjson', line((x) => (x.request.method = 'GET /')), 'line 3: request.method must be a string'],
      [
        '10.ndjson',
        line((x) => (x.request.url = '/x')),
        'line 3: request.url must be an absolute http(s) URL, got "/x"',
      ],
      ['11.ndjson', line((x) => (x.request.url = 3)), 'line 3: request.url must be an absolute http(s) URL, got 3'],
      ['12.ndjson', line((x) => (x.request.headers = [])), 'line 3: request.headers must be an object of strings'],
      ['13.ndjson', line((x) => (x.request.headers = { a: 1 })), 'line 3: request.headers "a" must be a string'],
      ['14.ndjson', line((x) => (x.request.body = {})), 'line 3: request.body must be a string, got an object'],
      ['15.ndjson', line((x) => (x.response = 'x')), 'line 3: response must be an object {status, headers, body}'],
      [
        '16.ndjson',
        line((x) => (x.response = { status: 99 })),
        'line 3: response.status must be an integer from 100 to 599, got 99',
      ],
      ['17.ndjson', line((x) => (x.response = { status: '200' })), 'line 3: response.status must be an integer'],
      [
        '18.ndjson',
        line((x) => (x.response = { status: 200, headers: { b: [1] } })),
        'line 3: response.headers "b" must be a string',
      ],
      ['19.ndjson', line((x) => (x.response = { status: 200, body: 2 })), 'line 3: response.body must be a string'],
      ['1.har', '{"entries": []}', '1.har: not a HAR file: no log.entries array'],
      ['2.har', '{"log": {"entries": {}}}', '2.har: not a HAR file: no log.entries array'],
      ['3.har', '{"x": {"entries": 1}, "log": [[{}]]}', '3.har: not a HAR file: no log.entries array'],
      ['4.har', '{"log":{"entries":[],"entries":[]}}', '4.har: not a HAR file: log.entries appears twice'],
      ['5.har', '{"log":{"entries":[{}, 1]}}', '5.har entry 1: startedDateTime must be an ISO 8601 date-time'],
      ['6.har', har('"x"'), '6.har entry 2: an entry must be an object {startedDateTime, request, response}'],
      ['7.har', har('[1]'), '7.har entry 2: an entry must be an object'],
      ['8.har', entry((x) => (x.request.url = 'x')), '8.har entry 2: request.url must be an absolute http(s) URL'],
      [
        '9.har',
        entry((x) => delete x.response),
        '9.har entry 2: response must be an object {status, headers, content}',
      ],
      ['10.har', entry((x) => (x.response.status = 42)), '10.har entry 2: response.status must be an integer from 100'],
      ['11.har', entry((x) => (x.request.headers = {})), '11.har entry 2: request.headers must be a list of {name'],
      ['12.har', entry((x) => (x.request.headers = [{ v: 1 }])), '12.har entry 2: request.headers must be a list of'],
      [
        '13.har',
        entry((x) => (x.response.headers = [{ name: 'a', value: 1 }])),
        '13.har entry 2: response.headers "a" must be a string',
      ],
      ['14.har', entry((x) => (x.request.method = 2)), '14.har entry 2: request.method must be a string'],
      ['15.har', entry((x) => (x.response.content.text = 3)), '15.har entry 2: response.content.text must be a string'],
      ['16.har', har('{"a":1 2}'), '16.har entry 2: not JSON ('],
      [
        '17.har',
        '{"log":{"entries":[{"startedDateTime":"2026-11-20T10:00:00Z"',
        '17.har: the file ends inside entry 1 (cut short?)',
      ],
      ['18.har', '{"log":{"entries":[', '18.har: the file ends before its last bracket, after entry 0 (cut short?)'],
      ['19.har', '['.repeat(100_000), '19.har: nested deeper than 256 levels'],
    ];
    for (const [name, text, message] of cases) {
      const expected = `TrafficError: ${name.endsWith('.har') ? '' : `${name} `}${message}`;
      expect((await failure(file(name, text))).slice(0, expected.length), name).toBe(expected);
    }
    const missing = join(dir, 'missing.ndjson');
    expect(await failure(missing)).toBe(
      `TrafficError: cannot read ${missing}: ENOENT: no such file or directory, open '${missing}'`,
    );
    expect(await failure(dir)).toMatch(/^TrafficError: cannot read .*EISDIR/);
  });

  it('reads what a HAR scanner must step over: keys with escapes, brackets in strings, a byte order mark', async () => {
    const text = `\uFEFF{"lo\\u0067":{"x":"]}{[\\"","entries":[\n {"startedDateTime":"2026-11-20T10:00:00Z","request":{"method":"GET","url":"http://x.example/?q=%5D","headers":[{"name":"x","value":"}]\\\\"}]},"response":{"status":200,"content":{"text":"[[["}}} ,\n{"startedDateTime":"2026-11-20T10:00:01Z","request":{"method":"GET","url":"http://x.example/"},"response":{"status":201}}\n],"pages":[]}}`;
    const read = await all(file('scan.har', text));
    expect(read.map((x) => [x.request.headers, x.response?.status, x.response?.body])).toEqual([
      [{ x: '}]\\' }, 200, '[[['],
      [{}, 201, ''],
    ]);
    expect(
      (
        await all(
          file(
            'bom.ndjson',
            `\uFEFF${JSON.stringify({ startedAt: '2026-11-20T10:00:00Z', request: { method: 'GET', url: 'http://x.example/' } })}`,
          ),
        )
      ).length,
    ).toBe(1);
  });

  it('a line or an entry over the limit fails as it is read, never held whole', async () => {
    const ok = '{"startedAt":"2026-11-20T10:00:00Z","request":{"method":"GET","url":"http://x.example/"}}';
    const big = `{"startedAt":"2026-11-20T10:00:00Z","request":{"method":"GET","url":"http://x.example/","body":"${'x'.repeat(4000)}"}}`;
    const limits = { maxBytes: 1024 };
    expect(await failure(file('big.ndjson', `${ok}\n${big}\n`), limits)).toBe(
      'TrafficError: big.ndjson line 2 is over 1 KiB',
    );
    expect(await failure(file('last.ndjson', `${ok}\n${big}`), limits)).toBe(
      'TrafficError: last.ndjson line 2 is over 1 KiB',
    );
    expect(await all(file('small.ndjson', `${ok}\n${ok}`), limits)).toHaveLength(2);
    const entry = big.replace('"request"', '"response":{"status":0},"request"').replace('startedAt', 'startedDateTime');
    expect(await failure(file('big.har', `{"log":{"entries":[${entry}]}}`), limits)).toBe(
      'TrafficError: big.har entry 1 is over 1 KiB',
    );
    // Through a pipe whose writer has not ended the line: the limit is found while the line is still coming.
    if (process.platform === 'win32') return;
    for (const [name, head] of [
      ['cut.ndjson', `${ok}\n${big}`],
      ['cut.har', `{"log":{"entries":[${entry.slice(0, -10)}`],
    ] as const) {
      const p = await pipe(name);
      p.write(head);
      try {
        expect(await failure(p.path, limits)).toMatch(/ (line|entry) \d is over 1 KiB$/);
      } finally {
        p.end();
      }
    }
  }, 10_000);

  it.skipIf(process.platform === 'win32')(
    'yields each exchange as soon as it is read, the rest not yet written',
    async () => {
      const ndjsonLine = '{"startedAt":"2026-11-20T10:00:00Z","request":{"method":"GET","url":"http://x.example/"}}';
      const harEntry = ndjsonLine.replace('startedAt', 'startedDateTime').replace('}}', '},"response":{"status":0}}');
      for (const [name, head, next, tail] of [
        ['lazy.ndjson', `${ndjsonLine}\n`, `${ndjsonLine}`, ''],
        ['lazy.har', `{"log":{"entries":[${harEntry}`, `,${harEntry}`, ']}}'],
      ] as const) {
        const p = await pipe(name);
        p.write(head);
        const reader = readTraffic(p.path);
        // The writer still holds the pipe open: a reader that read to the end first would wait here for ever.
        expect((await reader.next()).value?.source).toBe(`${name} ${name.endsWith('har') ? 'entry' : 'line'} 1`);
        p.write(next);
        p.write(tail);
        p.end();
        expect((await reader.next()).value?.source).toMatch(/ 2$/);
        expect((await reader.next()).done).toBe(true);
      }
    },
    10_000,
  );

  it('holds one exchange at a time, however long the file', async () => {
    const path = join(dir, 'long.ndjson');
    const out = createWriteStream(path);
    const line = `${JSON.stringify({ startedAt: '2026-11-20T10:00:00Z', request: { method: 'POST', url: 'http://x.example/', body: 'y'.repeat(200) } })}\n`;
    for (let i = 0; i < 100_000; i++) if (!out.write(line)) await once(out, 'drain');
    out.end();
    await once(out, 'finish');
    // What is still held after a full collection, the file's buffers included: 30 MB read, less than 5 MB kept.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const held = () => {
      gc();
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    const before = held();
    let most = 0;
    let count = 0;
    for await (const _ of readTraffic(path)) if (++count % 20_000 === 0) most = Math.max(most, held() - before);
    expect(count).toBe(100_000);
    expect(most).toBeLessThan(5 * 1024 * 1024);
  });

  it('headers named __proto__ or constructor are headers, and pollute nothing', async () => {
    const ndjson = file(
      'proto.ndjson',
      '{"startedAt":"2026-11-20T10:00:00Z","request":{"method":"GET","url":"http://x.example/","headers":{"__proto__":"a","constructor":"b","polluted":"c"}},"response":{"status":200,"headers":{"__proto__":{"polluted":1}}}}\n',
    );
    expect(await failure(ndjson)).toBe(
      'TrafficError: proto.ndjson line 1: response.headers "__proto__" must be a string (or a list of strings), got an object',
    );
    writeFileSync(ndjson, readFileSync(ndjson, 'utf8').replace('{"polluted":1}', '"d"'));
    const har = file(
      'proto.har',
      '{"log":{"entries":[{"startedDateTime":"2026-11-20T10:00:00Z","request":{"method":"GET","url":"http://x.example/","headers":[{"name":"__proto__","value":"a"},{"name":"Constructor","value":"b"}]},"response":{"status":200,"headers":[{"name":"__proto__","value":"d"}]}}]}}',
    );
    for (const path of [ndjson, har]) {
      const [x] = await all(path);
      const headers = x!.request.headers;
      expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(headers, '__proto__')?.value).toBe('a');
      expect(headers.constructor).toBe('b');
      expect(Object.hasOwn(x!.response!.headers, '__proto__')).toBe(true);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('writes every credential as ***: the headers, and each value wherever else it occurs', () => {
    const x = redactExchange(
      {
        at: 0,
        request: {
          method: 'POST',
          url: 'https://x.example/?key=secret%2Bkey%2F1&cb=sess-1234',
          headers: {
            'x-api-key': 'secret+key/1',
            authorization: 'Bearer token-22',
            'proxy-authorization': 'Basic dXNlcjpwYXNz',
            cookie: 'sid=sess-1234; theme=no',
            referer: 'https://x.example/?token-22',
            accept: 'abc',
          },
          body: '{"echo":"token-22","basic":"dXNlcjpwYXNz"}',
        },
        response: {
          status: 200,
          headers: { 'set-cookie': 'sid=sess-5678; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/' },
          body: 'secret+key/1 and sess-1234 and sess-5678 and extra-99 and abc and no',
        },
        error: 'echoed extra-99',
        source: 's',
      },
      ['extra-99', 'ab'],
    );
    expect(x).toEqual({
      at: 0,
      request: {
        method: 'POST',
        url: 'https://x.example/?key=***&cb=***',
        headers: {
          'x-api-key': '***',
          authorization: 'Bearer ***',
          'proxy-authorization': 'Basic ***',
          cookie: '***',
          referer: 'https://x.example/?***',
          accept: 'abc',
        },
        body: '{"echo":"***","basic":"***"}',
      },
      // Values under 4 characters (`no`, `ab`) stay where they occur outside their header.
      response: { status: 200, headers: { 'set-cookie': '***' }, body: '*** and *** and *** and *** and abc and no' },
      error: 'echoed ***',
      source: 's',
    });
  });
});
