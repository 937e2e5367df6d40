// An open world, as a new user meets it: four trials run with the installed bins of the packed tarballs (the sandbox
// and the conformance suite, installed into an empty project outside this repository), each exiting 0 and each also
// shown able to fail where it can:
//   1. an app's tests sent through the checking proxy to the sandbox, resetting it between tests (the proxy counts the
//      resets and passes; a second session with a request the document refuses fails; the docs page is recorded
//      without its body, an API answer with it);
//   2. a week of production logs (NDJSON) where a thread is closed, closed again and closed once more after an unseen
//      reopening (passes), then listed as not existing (fails: a thread does not vanish);
//   3. the suite's own run with --reset-url, recorded in front of the service by a proxy (resets included) and by the
//      suite itself, each recording judged again by `traffic`;
//   4. a browser's HAR with blob:, data:, ws: and chrome-extension: entries between two API entries.
// Servers listen on 127.0.0.1 on free ports and are stopped whatever happens; nothing leaves this machine.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort, waitForPort } from '../../src/util/wait.ts';
import { installProject, packPackages } from '../helpers/packages.ts';

const run = promisify(execFile);

let dir: string;
let project: string;
const bin = (name: 'messaging-sandbox' | 'messaging-conformance') => join(project, 'node_modules', '.bin', name);

/** Runs an installed bin in `dir` to its end: its exit code and everything it printed. */
const exec = (name: 'messaging-conformance', args: string[], timeout = 120_000) =>
  run(bin(name), args, { cwd: dir, timeout, maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => ({ code: 0, out: `${r.stdout}${r.stderr}` }),
    (e: { code?: number; stdout?: string; stderr?: string; message: string }) => ({
      code: e.code ?? 1,
      out: `${e.stdout ?? ''}${e.stderr ?? ''}${e.message}`,
    }),
  );

/** A server started from an installed bin: its URL, what it printed so far, and `stop` (a signal, then its exit). */
interface Server {
  url: string;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; out: string }>;
}
const started = new Set<ChildProcess>();

/** Starts `name` with `args` plus `--port <free>`, and polls the port until it accepts connections. */
async function serve(name: 'messaging-sandbox' | 'messaging-conformance', args: string[]): Promise<Server> {
  const port = await freePort();
  const child = spawn(bin(name), [...args, '--port', String(port)], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c));
  child.stderr!.on('data', (c: Buffer) => (out += c));
  const gone = new AbortController();
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      started.delete(child);
      gone.abort();
      resolve(code ?? (signal ? -1 : null));
    }),
  );
  await waitForPort('127.0.0.1', port, 30_000, gone.signal).catch((error: Error) => {
    throw new Error(`${name} ${args.join(' ')} did not listen on ${port} (${error.message}):\n${out}`);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    async stop(signal = 'SIGINT') {
      if (started.has(child)) child.kill(signal);
      return { code: await exited, out };
    },
  };
}

/** Stops what a test left running: SIGTERM, then SIGKILL after 5 s. */
async function stopAll() {
  await Promise.all(
    [...started].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
          child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}

/** A JSON POST through `base`, credentials as the sandbox's fixtures give them: the status and the parsed body. */
async function post(base: string, path: string, body: unknown, credential: Record<string, string>) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...credential },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
const apiKey = { 'x-api-key': 'sandbox-api-key' };
const integrator = { authorization: 'Bearer sandbox-integrator-token' };
const closeThreads = (base: string, body: unknown) => post(base, '/api/v1/threads/close', body, integrator);
/** The document's `scheduled` example of scheduleCascade, with the requestId given. */
const schedule = (base: string, requestId: string) =>
  post(
    base,
    '/api/cascade/schedule',
    {
      requestId,
      cascadeId: 1001,
      subscriberFilter: { address: '79001234567', type: 'PHONE' },
      content: {
        viberContent: { contentType: 'TEXT', text: 'Your order 1234 is ready for pickup.' },
        smsContent: { contentType: 'TEXT', text: 'Your order 1234 is ready for pickup.' },
      },
    },
    apiKey,
  );
const reset = (base: string) => fetch(`${base}/_sandbox/reset`, { method: 'POST' }).then((r) => r.status);

/** A line of a recording, as `--record` writes NDJSON. */
interface Line {
  request: { method: string; url: string; headers: Record<string, string> };
  response: { status: number; body: string } | null;
  reset?: true;
}
/** The lines of a recording, each parsed. */
const ndjson = (file: string): Line[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

/** The four lists of a close-threads answer, `ids` in the one named. */
const closed = (list: string, ids: number[]) => ({
  resolved_threads: [],
  not_existing_threads: [],
  already_resolved_threads: [],
  not_resolved_due_to_system_error: [],
  [list]: ids,
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mc-open-world-'));
  const tarballs = await packPackages(join(dir, 'packs'));
  project = join(dir, 'project');
  await installProject(project, [tarballs.sandbox, tarballs.conformance]);
}, 240_000);

afterEach(stopAll);

afterAll(async () => {
  await stopAll();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('an open world, with the installed bins', () => {
  it('1. an app’s tests through the proxy to the sandbox, resetting it between tests: the resets counted, exit 0; a refused request fails a second session; the docs page recorded without its body', async () => {
    const sandbox = await serve('messaging-sandbox', []);
    const proxy = await serve('messaging-conformance', [
      'proxy',
      ...['--target', sandbox.url, '--judge', 'both', '--record', 'app.ndjson'],
    ]);
    expect(proxy.output()).toContain(`messaging-conformance proxy: ${proxy.url} -> ${sandbox.url}`);

    // Two tests of the app, each after a reset: the same requestId is new again, thread 101 open again.
    const requestId = '3c6e0b8a-9c0b-4b1e-8f3a-00000000a001';
    expect(await schedule(proxy.url, requestId)).toEqual({ status: 200, body: { requestId } });
    expect(await reset(proxy.url)).toBe(200);
    expect(await schedule(proxy.url, requestId)).toEqual({ status: 200, body: { requestId } });
    expect(await closeThreads(proxy.url, { threadIds: [101] })).toEqual({
      status: 200,
      body: closed('resolved_threads', [101]),
    });
    expect(await reset(proxy.url)).toBe(200);
    expect(await closeThreads(proxy.url, { threadIds: [101] })).toEqual({
      status: 200,
      body: closed('resolved_threads', [101]),
    });
    // The sandbox's docs page, through the proxy: a large page outside the document's paths.
    const docs = await fetch(`${proxy.url}/`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await docs.text()).length).toBeGreaterThan(10_000);

    const first = await proxy.stop('SIGINT');
    expect(first.code, first.out).toBe(0);
    expect(first.out).toMatch(
      /^traffic: 7 exchanges in .*: 0 callbacks, 0 without a recorded answer, 1 outside the document's paths \(not judged\), 2 resets \(the rules over time start again\)$/m,
    );
    expect(first.out).toContain("the service's side: 4 answers judged, 0 not allowed by the document");
    expect(first.out).toContain('judged: both sides, profile described: every exchange is allowed');
    expect(first.out).not.toMatch(/FAIL|CALLER|SERVICE/);

    // The recording keeps an API answer's body, and none of the docs page's; credentials as ***.
    const recorded = ndjson(join(dir, 'app.ndjson'));
    expect(recorded).toHaveLength(7);
    const page = recorded.find((x) => x.request.method === 'GET' && new URL(x.request.url).pathname === '/');
    expect(page?.response).toEqual(expect.objectContaining({ status: 200, body: '' }));
    const close = recorded.filter((x) => x.request.url.endsWith('/api/v1/threads/close')).at(-1);
    expect(JSON.parse(close?.response?.body ?? '')).toEqual(closed('resolved_threads', [101]));
    expect(close?.request.headers.authorization).toBe('Bearer ***');

    // A second session: a comment over 300 characters, a request the document refuses. The caller's break fails it.
    const second = await serve('messaging-conformance', ['proxy', '--target', sandbox.url, '--judge', 'both']);
    const refused = await closeThreads(second.url, { threadIds: [101], comment: 'x'.repeat(301) });
    expect(refused).toMatchObject({ status: 400, body: { title: 'comment-is-too-long' } });
    const failing = await second.stop('SIGINT');
    expect(failing.code, failing.out).toBe(1);
    expect(failing.out).toContain(
      'CALLER proxy exchange 1: POST /api/v1/threads/close: [request-schema] closeThreads: a request the document refuses (comment-is-too-long)',
    );
    expect(failing.out).toMatch(/^FAIL \[request-schema\] closeThreads: a request the document refuses/m);
    expect(failing.out).toContain('judged: both sides, profile described: 1 break the contract');
    // Its replay goes to the service, not to the proxy, without the headers of the proxy's connection.
    const replay = failing.out.split('\n').find((line) => line.trimStart().startsWith('replay:'));
    expect(replay, failing.out).toBeDefined();
    expect(replay).toContain(`curl -sS -X POST '${sandbox.url}/api/v1/threads/close'`);
    expect(replay).not.toContain(second.url);
    expect(replay).not.toMatch(/-H '(host|content-length):/i);
    expect(replay).toContain('"authorization: Bearer $MESSAGING_INTEGRATOR_TOKEN"');
    expect(failing.out).not.toContain('sandbox-integrator-token');

    await sandbox.stop();
  });

  it('2. a week of production logs: a thread closed, closed again and closed after an unseen reopening passes (exit 0); listed as not existing on Thursday it fails [sent-again]', async () => {
    const day = (date: string, list: string) =>
      `${JSON.stringify({
        startedAt: `2026-11-${date}T10:00:00Z`,
        request: {
          method: 'POST',
          url: 'https://app.example.org/api/v1/threads/close',
          headers: { 'content-type': 'application/json', authorization: 'Bearer sandbox-integrator-token' },
          body: JSON.stringify({ threadIds: [101] }),
        },
        response: {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(closed(list, [101])),
        },
      })}\n`;
    const week = join(dir, 'week.ndjson');
    await writeFile(
      week,
      day('23', 'resolved_threads') + day('24', 'already_resolved_threads') + day('25', 'resolved_threads'),
    );

    const sound = await exec('messaging-conformance', ['traffic', 'week.ndjson']);
    expect(sound.code, sound.out).toBe(0);
    expect(sound.out).toMatch(/^traffic: 3 exchanges in /m);
    expect(sound.out).toContain("the service's side: 3 answers judged, 0 not allowed by the document");
    expect(sound.out).toContain("judged: the service's side, profile described: every exchange is allowed");

    await appendFile(week, day('26', 'not_existing_threads'));
    const vanished = await exec('messaging-conformance', ['traffic', 'week.ndjson']);
    expect(vanished.code, vanished.out).toBe(1);
    expect(vanished.out).toMatch(/^FAIL \[sent-again\] closeThreads listed a `threadIds` in not_existing_threads/m);
    expect(vanished.out).toContain('recorded: week.ndjson line 4, sent 2026-11-26T10:00:00.000Z, answered 200');
    expect(vanished.out).toContain(
      'threadIds 101: resolved_threads at week.ndjson line 3, not_existing_threads at week.ndjson line 4',
    );
    expect(vanished.out).not.toContain('sandbox-integrator-token');
  });

  it('3. the suite’s run with --reset-url, recorded by a proxy in front of the sandbox and by the suite itself: each exits 0, and `traffic` judges both recordings again (resets included), exit 0', async () => {
    const noBalance = (
      JSON.parse(
        readFileSync(
          createRequire(join(project, 'package.json')).resolve('@messaging-contract/sandbox/fixtures.json'),
          'utf8',
        ),
      ) as { apiKeys: { key: string; balance: number }[] }
    ).apiKeys.find((k) => k.balance <= 0)!.key;
    const sandbox = await serve('messaging-sandbox', []);
    // The service's side judged: the suite sends the document's refused requests on purpose (its error examples),
    // which a proxy judging both sides counts as the caller's breaks and fails on.
    const proxy = await serve('messaging-conformance', [
      'proxy',
      ...['--target', sandbox.url, '--judge', 'service', '--record', 'run.har'],
    ]);

    const suite = await exec('messaging-conformance', [
      ...['--server', proxy.url, '--api-key', 'sandbox-api-key', '--api-key-no-balance', noBalance],
      ...['--integrator-token', 'sandbox-integrator-token', '--reset-url', `${proxy.url}/_sandbox/reset`],
      ...['--skip', 'generated', '--skip', 'dredd,boundaries,bad-input', '--deadline', '180'],
      ...['--record', 'suite.ndjson'],
    ]);
    expect(suite.code, suite.out).toBe(0);
    expect(suite.out).toMatch(/^stage examples: [1-9]\d* passed, 0 failed in /m);
    expect(suite.out).toMatch(/^stage stateful: [1-9]\d* passed, 0 failed in /m);
    expect(suite.out).toMatch(/^\d+ passed, 0 failed$/m);

    // One reset before each stage, marked so in the suite's own recording.
    const resets = ndjson(join(dir, 'suite.ndjson')).filter((x) => x.reset === true);
    expect(resets.map((x) => `${x.request.method} ${x.request.url}`)).toEqual([
      `POST ${proxy.url}/_sandbox/reset`,
      `POST ${proxy.url}/_sandbox/reset`,
    ]);
    const resetsLine = /, 2 resets \(the rules over time start again\)$/m;

    const stopped = await proxy.stop('SIGINT');
    expect(stopped.code, stopped.out).toBe(0);
    expect(stopped.out).toMatch(resetsLine);
    expect(stopped.out).toMatch(/^ {2}the service's side: [1-9]\d* answers? judged, 0 not allowed by the document$/m);
    expect(stopped.out).toContain("judged: the service's side, profile described: every exchange is allowed");
    expect(stopped.out).not.toContain('FAIL');

    for (const recording of ['run.har', 'suite.ndjson']) {
      const again = await exec('messaging-conformance', ['traffic', recording]);
      expect(again.code, `${recording}:\n${again.out}`).toBe(0);
      expect(again.out, recording).toMatch(resetsLine);
      expect(again.out, recording).toContain(
        "judged: the service's side, profile described: every exchange is allowed",
      );
    }
    const har = JSON.parse(readFileSync(join(dir, 'run.har'), 'utf8'));
    expect(har.log.version).toBe('1.2');
    expect(JSON.stringify(har)).not.toContain('sandbox-api-key');

    await sandbox.stop();
  });

  it('4. a browser’s HAR: blob:, data:, ws: and chrome-extension: entries between two API entries are counted outside the document, exit 0', async () => {
    const entry = (second: number, url: string, request: object, response: object, extra: object = {}) => ({
      startedDateTime: `2026-11-23T10:00:0${second}.000Z`,
      time: 1,
      request: {
        method: 'GET',
        url,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [],
        queryString: [],
        headersSize: -1,
        bodySize: 0,
        ...request,
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [],
        content: { size: 0, mimeType: '' },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
        ...response,
      },
      cache: {},
      timings: { send: 0, wait: 1, receive: 0 },
      ...extra,
    });
    /** Close threads as the sandbox answers it. */
    const api = (second: number, threadId: number, list: string) => {
      const text = JSON.stringify(closed(list, [threadId]));
      return entry(
        second,
        'http://127.0.0.1:4020/api/v1/threads/close',
        {
          method: 'POST',
          headers: [
            { name: 'content-type', value: 'application/json' },
            { name: 'authorization', value: 'Bearer sandbox-integrator-token' },
          ],
          postData: { mimeType: 'application/json', text: JSON.stringify({ threadIds: [threadId] }) },
        },
        {
          headers: [{ name: 'content-type', value: 'application/json' }],
          content: { size: text.length, mimeType: 'application/json', text },
        },
      );
    };
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'WebInspector', version: '537.36' },
        entries: [
          api(0, 999999, 'not_existing_threads'),
          entry(1, 'blob:http://127.0.0.1:4020/5b1c2d3e-7f80-4a91-b2c3-d4e5f6a7b8c9', {}, {}),
          entry(2, 'data:image/png;base64,AAAA', {}, { content: { size: 3, mimeType: 'image/png' } }),
          entry(
            3,
            'ws://127.0.0.1:4020/socket',
            {},
            { status: 101, statusText: 'Switching Protocols' },
            {
              _webSocketMessages: [],
            },
          ),
          entry(4, 'chrome-extension://abcdef/page.js', {}, {}),
          api(5, 201, 'already_resolved_threads'),
        ],
      },
    };
    await writeFile(join(dir, 'browser.har'), JSON.stringify(har, null, 2));

    const result = await exec('messaging-conformance', ['traffic', 'browser.har']);
    expect(result.code, result.out).toBe(0);
    expect(result.out).toMatch(
      /^traffic: 6 exchanges in .*: 0 callbacks, 0 without a recorded answer, 4 outside the document's paths \(not judged\)$/m,
    );
    expect(result.out).toContain("the service's side: 2 answers judged, 0 not allowed by the document");
    expect(result.out).toContain("the callers' side: 2 requests judged, 0 refused by the document");
    expect(result.out).toContain("judged: the service's side, profile described: every exchange is allowed");
  });
});
