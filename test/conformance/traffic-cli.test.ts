// messaging-conformance traffic and proxy as a user runs them: files judged with exit codes 0, 1 and 2; the proxy in
// front of the sandbox judging an app's requests both ways; and one check added to the registry judging the suite's
// own exchanges, recorded ones and proxied ones alike.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { register } from '../../src/conformance/judge.ts';
import { json, junit } from '../../src/conformance/report.ts';
import { conformanceMain, newRunState } from '../../src/conformance/cli/main.ts';
import { proxyCommand } from '../../src/conformance/cli/traffic.ts';
import { startProxy } from '../../src/conformance/traffic/proxy.ts';
import { judgeTraffic } from '../../src/conformance/traffic/run.ts';
import { runSuite, stages } from '../../src/conformance/suite/suite.ts';
import { examplePairs } from '../../src/core/examples.ts';
import { limits } from '../helpers/contract.ts';
import { credentials, useSandbox } from '../helpers/sandbox.ts';

const sandbox = useSandbox();
const dir = mkdtempSync(join(tmpdir(), 'traffic-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[], env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const code = await conformanceMain(args, { stdout: (t) => (out += t), stderr: (t) => (err += t), env });
  return { code, out, err };
}

const closing = examplePairs().find((p) => p.operation.operationId === 'closeThreads' && p.status === 200)!;
const line = (request: object, response: object | null, at = '2026-11-20T10:00:00Z') =>
  JSON.stringify({ startedAt: at, request, response });
const closeRequest = (body: unknown) => ({
  method: 'POST',
  url: `https://service.example${closing.operation.path}`,
  headers: { 'content-type': 'application/json', authorization: `Bearer ${credentials.integratorToken}` },
  body: JSON.stringify(body),
});
const closed = {
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    resolved_threads: [101],
    not_existing_threads: [],
    already_resolved_threads: [],
    not_resolved_due_to_system_error: [],
  }),
};
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('messaging-conformance traffic', () => {
  it('exit 0 when every exchange is allowed, 1 when one breaks the contract, naming it, credentials as ***', async () => {
    const good = file('good.ndjson', `${line(closeRequest({ threadIds: [101] }), closed)}\n`);
    const ok = await cli(['traffic', good]);
    expect(ok.code, ok.out + ok.err).toBe(0);
    expect(ok.out).toMatch(/judged: the service's side, profile described: every exchange is allowed/);
    // Closed, then matching no thread: no history the description allows makes a thread vanish.
    const vanished = {
      ...closed,
      body: closed.body
        .replace('"not_existing_threads":[]', '"not_existing_threads":[101]')
        .replace('"resolved_threads":[101]', '"resolved_threads":[]'),
    };
    const twice = file(
      'twice.ndjson',
      [
        line(closeRequest({ threadIds: [101] }), closed),
        line(closeRequest({ threadIds: [101] }), vanished, '2026-11-20T10:00:05Z'),
      ].join('\n'),
    );
    const report = join(dir, 'twice.json');
    const bad = await cli(['traffic', twice, '--reporter', 'json', '--output', report]);
    expect(bad.code, bad.out + bad.err).toBe(1);
    expect(bad.out).toMatch(
      /^FAIL \[sent-again\] closeThreads listed a `threadIds` in not_existing_threads after listing it in resolved_threads/m,
    );
    expect(bad.out).toMatch(/recorded: twice\.ndjson line 2, sent 2026-11-20T10:00:05\.000Z, answered 200/);
    expect(bad.out).toContain('-H "authorization: Bearer $MESSAGING_INTEGRATOR_TOKEN"');
    expect(bad.out + readFileSync(report, 'utf8')).not.toContain(credentials.integratorToken);
  });

  it("--judge: a request the document refuses fails the run only when the callers' side is judged", async () => {
    const refused = file(
      'refused.ndjson',
      `${line(closeRequest({ comment: 'no thread ids' }), { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'system-error', status: 400 }) })}\n`,
    );
    expect((await cli(['traffic', refused])).code).toBe(0);
    const both = await cli(['traffic', refused, '--judge', 'both']);
    expect(both.code).toBe(1);
    expect(both.out).toMatch(/FAIL \[request-schema\] closeThreads: a request the document refuses/);
  });

  it('exit 2 for a file that cannot be read, naming the line or entry and what is wrong', async () => {
    const cases: Array<[string, string, RegExp]> = [
      [
        'notjson.ndjson',
        `${line(closeRequest({ threadIds: [1] }), closed)}\n{"startedAt":`,
        /notjson\.ndjson line 2: not JSON/,
      ],
      [
        'nourl.ndjson',
        line({ method: 'POST', url: '/relative' }, null),
        /nourl\.ndjson line 1: request\.url must be an absolute http\(s\) URL, got "\/relative"/,
      ],
      [
        'status.ndjson',
        line(closeRequest({}), { status: 99 }),
        /status\.ndjson line 1: response\.status must be an integer from 100 to 599, got 99/,
      ],
      [
        'date.ndjson',
        JSON.stringify({ startedAt: 'yesterday', request: closeRequest({}) }),
        /date\.ndjson line 1: startedAt must be an ISO 8601 date-time, got "yesterday"/,
      ],
      ['empty.har', '{"log": {"version": "1.2", "pages": []}}', /empty\.har: not a HAR file: no log\.entries array/],
      ['scalar.har', '{"log": {"entries": [42]}}', /scalar\.har entry 1: an entry must be an object/],
    ];
    for (const [name, text, message] of cases) {
      const run = await cli(['traffic', file(name, text)]);
      expect(run.code, name).toBe(2);
      expect(run.err, name).toMatch(message);
      expect(run.err, name).not.toMatch(/\n\s+at /); // no stack trace
    }
    const missing = await cli(['traffic', join(dir, 'nothing-here.ndjson')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/cannot read .*nothing-here\.ndjson/);
    const usage = await cli(['traffic']);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/traffic needs one or more files.*\(--help prints the usage\)/);
    expect((await cli(['traffic', 'x.ndjson', '--judge', 'nobody'])).err).toMatch(
      /--judge must be service, caller or both, got "nobody"/,
    );
  });
});

describe('messaging-conformance proxy', () => {
  it("in front of the sandbox: forwards unchanged; an app's request the document refuses is the caller's break, printed as it happens", async () => {
    const record = join(dir, 'proxied.ndjson');
    const every = join(dir, 'proxied.json');
    let out = '';
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const running = proxyCommand(
      [
        '--target',
        sandbox.url,
        '--port',
        '0',
        '--record',
        record,
        '--report-every',
        '2',
        '--reporter',
        'json',
        '--output',
        every,
      ],
      { stdout: () => {}, stderr: () => {}, env: {} },
      (l) => (out += `${l}\n`),
      newRunState(),
      stopped,
    );
    // The proxy says where it listens on its first line.
    for (let i = 0; i < 100 && !/proxy: (http:\S+)/.test(out); i++) await new Promise((r) => setTimeout(r, 20));
    const url = /proxy: (http:\S+)/.exec(out)![1]!;
    const send = (body: unknown) =>
      fetch(`${url}${closing.operation.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${credentials.integratorToken}` },
        body: JSON.stringify(body),
      });
    const direct = await fetch(`${sandbox.url}${closing.operation.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${credentials.integratorToken}` },
      body: JSON.stringify({ threadIds: [999999] }),
    });
    const proxied = await send({ threadIds: [999999] });
    expect(proxied.status).toBe(direct.status);
    expect(await proxied.text()).toBe(await direct.text());
    const overLimit = await send({ threadIds: [999998], comment: 'x'.repeat(limits.comment + 1) });
    expect(overLimit.status).toBe(400);
    // --report-every 2: the report is written after the second exchange, before the proxy stops.
    for (let i = 0; i < 100 && !existsSync(every); i++) await new Promise((r) => setTimeout(r, 20));
    expect(JSON.parse(readFileSync(every, 'utf8')).traffic.exchanges).toBeGreaterThanOrEqual(2);
    await send({ comment: 'no thread ids' });
    stop();
    const code = await running;
    expect(code).toBe(1);
    expect(out).toMatch(
      /^CALLER proxy exchange 2: POST \/api\/v1\/threads\/close: \[request-schema\] closeThreads: a request the document refuses \(comment-is-too-long\)$/m,
    );
    expect(out).toMatch(/^CALLER proxy exchange 3: POST \/api\/v1\/threads\/close: \[request-schema\]/m);
    expect(out).not.toMatch(/^SERVICE/m);
    expect(out).toMatch(/the callers' side: 3 requests judged, 2 refused by the document/);
    // What it saw, recorded, judges the same again; no credential in it.
    const text = readFileSync(record, 'utf8');
    expect(text.trim().split('\n')).toHaveLength(3);
    expect(text).not.toContain(credentials.integratorToken);
    const again = await judgeTraffic([record], { judge: 'both' });
    expect(again.report.traffic.caller.failed).toBe(2);
    expect(again.report.traffic.service.failed).toBe(0);
  });
});

describe('the proxy in front of a target with a base path', () => {
  it("judges the document's paths past the target's path", async () => {
    // A front that serves the sandbox under /v2, as a gateway does.
    const front = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const answer = await fetch(sandbox.url + (req.url ?? '/').replace(/^\/v2/, ''), {
          method: req.method,
          headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' },
          body: req.method === 'GET' ? undefined : Buffer.concat(chunks),
        });
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    }).listen(0, '127.0.0.1');
    await once(front, 'listening');
    const proxy = await startProxy({ target: `http://127.0.0.1:${(front.address() as AddressInfo).port}/v2` });
    try {
      const answer = await fetch(`${proxy.url}${closing.operation.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${credentials.integratorToken}` },
        body: JSON.stringify({ threadIds: [999999] }),
      });
      expect(answer.status).toBe(200);
    } finally {
      await proxy.close();
      front.close();
    }
    expect(proxy.judge.report().traffic).toMatchObject({
      outside: 0,
      service: { judged: 1, failed: 0 },
      caller: { judged: 1, failed: 0 },
    });
  });
});

describe('one registry', () => {
  it('a check registered here alone judges the suite’s own exchanges, recorded ones and proxied ones alike, and each report names it', async () => {
    // A check of every answer: an answer carrying the header `x-marked` is wrong. Only the sandbox behind a proxy that
    // adds it to 404s shows it. Registered here, with no other edit anywhere.
    const remove = register({
      id: 'marked',
      family: 'answer',
      side: 'service',
      holds: 'no answer carries x-marked',
      faults: (_c, a) => (a.headers['x-marked'] ? [{ fault: 'an answer marked x-marked', detail: 'x-marked' }] : []),
    });
    const { startMutatingProxy } = await import('../helpers/mutating-proxy.ts');
    const marking = await startMutatingProxy(sandbox.url, (x) =>
      x.status === 404 ? { headers: { 'x-marked': '1' } } : undefined,
    );
    const har = join(dir, 'marked.har');
    const proxy = await startProxy({ target: marking.url, judge: 'service', record: har });
    try {
      const live = await runSuite(
        {
          server: proxy.url,
          credentials,
          values: {},
          seed: 1,
          mock: false,
          log: () => {},
        },
        stages.filter((s) => s.name === 'examples'),
      );
      const ids = (results: Array<{ faults?: Array<{ check: string }> }>) =>
        new Set(results.flatMap((r) => r.faults?.map((f) => f.check) ?? []));
      expect(ids(live.results)).toEqual(new Set(['marked']));
      await proxy.close();
      expect(ids(proxy.judge.report().results)).toEqual(new Set(['marked']));
      const recorded = await judgeTraffic([har]);
      expect(ids(recorded.report.results)).toEqual(new Set(['marked']));
      for (const report of [live, proxy.judge.report(), recorded.report]) {
        expect(json(report)).toContain('"check": "marked"');
        expect(junit(report)).toContain('[marked] an answer marked x-marked');
      }
    } finally {
      remove();
      await marking.close();
    }
  }, 30_000);
});
