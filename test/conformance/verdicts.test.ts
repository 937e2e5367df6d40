// The suite's verdict against servers that misbehave: no path exits 0, every run ends within its
// deadline with a message, and no credential reaches anything the suite writes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { conformanceCli, conformanceInProcess } from '../helpers/conformance-cli.ts';
import { runConformance } from '../../src/conformance/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'mc-verdicts-'));
const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) {
    (s as { closeAllConnections?: () => void }).closeAllConnections?.();
    s.close();
  }
  rmSync(dir, { recursive: true, force: true });
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const http = (handler: (req: IncomingMessage, res: ServerResponse) => void) => listen(createHttpServer(handler));

// Processes: a run that ends at its deadline, or whose request a destroyed connection leaves pending, is
// a process's end and exit code (the bin's guards). A verdict on what a server answers is the command's
// own, the same in this process (no start-up, no loading of the suite per run).
const cli = conformanceCli;
const inProcess = conformanceInProcess;
const keys = ['--api-key', 'verdict-api-key', '--integrator-token', 'verdict-token'];

// Each test has its own server and run, and mostly waits: they run side by side.
describe.concurrent('hostile servers: the right exit code and a message, within the deadline; never 0', () => {
  it('a server that destroys every connection: 2, it does not answer', async ({ expect }) => {
    const url = await listen(createNetServer((socket) => socket.destroy()));
    const result = await cli(['--server', url, ...keys, '--deadline', '20']);
    expect(result.code, result.out).toBe(2);
    // A request can be left pending forever by a destroyed connection, with nothing keeping the
    // process alive: the guard reports that instead of the process ending with 0 and no output.
    expect(result.out).toMatch(/does not answer|the run ended before it finished/);
  }, 30_000);

  it('a server that answers, then resets mid-body: 1, with failed checks', async ({ expect }) => {
    const url = await http((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"resolved_threads": [');
      if (req.url !== '/') setTimeout(() => res.destroy(), 5);
      else res.end(' '.repeat(978));
    });
    const result = await cli(['--server', url, ...keys, '--only', 'examples,stateful', '--deadline', '30']);
    expect(result.code, result.out).toBe(1);
    expect(result.out).toMatch(/^FAIL \[network\] no answer: the answer broke off: .*\n.*\n {2}first: {4}examples /m);
    expect(result.out).toMatch(/actual: +no answer: the answer broke off: /);
  }, 40_000);

  it('a server that stalls every API request: each stage stops after its first requests time out: 1', async ({
    expect,
  }) => {
    let stalled = 0;
    const url = await http((req, res) => {
      if (req.url === '/') return res.end('ok');
      stalled++;
      req.resume();
    });
    // Three stages of different sources: Dredd's transactions, the examples and the protocol (every stage stops the same way).
    const stages = ['dredd', 'examples', 'bad-input'];
    const result = await cli([
      '--server',
      url,
      ...keys,
      '--only',
      stages.join(','),
      '--timeout',
      '0.5',
      '--deadline',
      '60',
    ]);
    expect(result.code, result.out).toBe(1);
    for (const stage of stages) {
      expect(result.out).toMatch(
        new RegExp(
          `FAIL ${stage} \\[described\\]: stage ran to the end\\n(.*\\n)*?  actual: +the first 3 requests of the stage got no answer; the server is not answering`,
        ),
      );
    }
    expect(result.out).toMatch(
      /^FAIL \[network\] no answer: no answer within the timeout\n {2}shown by: .*dredd \d.*\n {2}first: {4}dredd \[described\]: \/api\/v1\/threads\/close > Close threads > 200 > application\/json\n(.*\n)*? {2}actual: +no answer: /m,
    );
    // A few requests that time out, not hundreds: each stage stops after its first three. (A timeout
    // of 0.5 s, not less: the first request, which asks whether the server answers at all, must not
    // time out on a busy machine.)
    expect(stalled).toBeGreaterThanOrEqual(stages.length * 3);
    expect(stalled).toBeLessThanOrEqual(stages.length * 5); // with the run's probes; hundreds without the stop
  }, 60_000);

  it('a run whose deadline passes (a stalling server): 2, the run could not finish, and the process ends then, not at the request timeout', async ({
    expect,
  }) => {
    // Everything but the API answers, and so do the probes (an unknown thread, an unknown cascade,
    // a subscriber without its external identifier), so the run reaches its first stage, whose first
    // request then waits.
    const url = await http((req, res) => {
      if (!req.url?.startsWith('/api/')) return res.writeHead(404).end();
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk));
      req.on('end', () =>
        /\b(999999|9999)\b/.test(body) || (req.url === '/api/subscribers/create' && !body.includes('EXT_USER_ID'))
          ? res.writeHead(400, { 'content-type': 'application/json' }).end('{}')
          : undefined,
      );
    });
    // A request timeout of ten minutes: only the deadline of 4 s ends the run within this test's 30 s.
    const result = await cli(['--server', url, ...keys, '--deadline', '4', '--timeout', '600']);
    expect(result.code, result.out).toBe(2);
    expect(result.out).toContain("the run could not finish: the run's deadline passed before every check ran");
  }, 30_000);

  it('a server that trickles an answer it never finishes: each request of the dredd stage ends at the timeout, body included', async ({
    expect,
  }) => {
    const url = await http((req, res) => {
      if (!req.url?.startsWith('/api/')) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => res.write(' '), 100);
      res.on('close', () => clearInterval(drip));
    });
    // A deadline of ten minutes: only the timeout of each request ends the stage within this test's 60 s.
    const result = await cli(['--server', url, ...keys, '--only', 'dredd', '--timeout', '0.5', '--deadline', '600']);
    expect(result.code, result.out).toBe(1);
    // The server began each answer, so it answers: each request ends at its timeout, as in every stage.
    expect(result.out).toMatch(/actual: +no answer: the answer broke off: no answer within 500 ms/);
  }, 60_000);

  it.for<[string, (req: IncomingMessage, res: ServerResponse) => void]>([
    [
      '200 {} to everything',
      (_req: IncomingMessage, res: ServerResponse) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
    ],
  ])('a server that answers %s: 1', { timeout: 40_000 }, async ([, handler], { expect }) => {
    const url = await http((req, res) => {
      req.resume();
      handler(req, res);
    });
    const result = await inProcess(['--server', url, ...keys, '--only', 'examples,stateful,bad-input']);
    expect(result.code, result.out).toBe(1);
    expect(result.out).toMatch(/\d+ passed, [1-9]\d* failed/);
    expect(result.out).not.toContain('the server is a sandbox');
  });

  // What answers is not the service: one line that names the likely cause, exit 2, no stage runs.
  it.for<[string, (req: IncomingMessage, res: ServerResponse) => void, RegExp]>([
    [
      'HTML to everything',
      (_req: IncomingMessage, res: ServerResponse) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>hello</body></html>'),
      /^messaging-conformance: the server does not answer as the service: no answer at http:\/\/127\.0\.0\.1:\d+ was JSON \(the first: 200 "text\/html" "<html><body>hello<\/body><\/html>"\): something other than the service answers, such as a proxy's or a sign-in page; nothing was checked\n$/,
    ],
    [
      '404 to every operation (a base path left out)',
      (req: IncomingMessage, res: ServerResponse) =>
        req.url === '/'
          ? res.end('ok')
          : res.writeHead(404, { 'content-type': 'application/json' }).end('{"title":"not-found","status":404}'),
      /^messaging-conformance: the server does not answer as the service: every operation answered 404 at http:\/\/127\.0\.0\.1:\d+: the server's base path is likely missing or wrong \(--server is the URL the document's paths, such as \/api\/\S+, start from\); nothing was checked\n$/,
    ],
  ])('a server that answers %s: 2, one line', { timeout: 40_000 }, async ([, handler, line], { expect }) => {
    const url = await http((req, res) => {
      req.resume();
      handler(req, res);
    });
    const result = await inProcess(['--server', url, ...keys]);
    expect(result.code, result.out).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(line);
  });
});

describe('secrets', () => {
  it('a distinctive key and token reach no output and no file, given by flag or by environment', async ({ expect }) => {
    const key = 'KEY-7f3c9e1d-4b2a-leak-check';
    const token = 'TOKEN-2b8e6a4f-leak-check';
    // A server that fails every check and echoes what it was sent, headers included.
    const url = await http((req, res) => {
      const chunks: Buffer[] = [];
      req
        .on('data', (c) => chunks.push(c))
        .on('end', () => {
          res.writeHead(400, {
            'content-type': 'application/json',
            'x-echo': `${req.headers['x-api-key']} ${req.headers.authorization}`,
          });
          res.end(
            JSON.stringify({
              title: `echo ${req.headers['x-api-key']}`,
              status: 400,
              detail: `${req.headers.authorization} ${Buffer.concat(chunks)}`,
            }),
          );
        });
    });
    const byFlag = join(dir, 'flag.xml');
    const byEnv = join(dir, 'env.xml');
    const [flags, envs] = await Promise.all([
      cli(['--server', url, '--api-key', key, '--integrator-token', token, '--reporter', 'junit', '--output', byFlag]),
      cli(['--server', url, '--reporter', 'junit', '--output', byEnv], {
        MESSAGING_API_KEY: key,
        MESSAGING_INTEGRATOR_TOKEN: token,
      }),
    ]);
    for (const [run, file] of [
      [flags, byFlag],
      [envs, byEnv],
    ] as const) {
      expect(run.code, run.out.slice(-2000)).toBe(1);
      const written = `${run.out}\n${readFileSync(file, 'utf8')}`;
      expect(written.includes(key), 'the key leaked').toBe(false);
      expect(written.includes(token), 'the token leaked').toBe(false);
      expect(written).toContain('***');
    }
    // From code too: the report runConformance returns, every fault of every check included.
    const report = await runConformance({ server: url, apiKey: key, integratorToken: token, only: ['examples'] });
    expect(report.results.some((r) => r.faults?.length)).toBe(true);
    const held = JSON.stringify(report);
    expect(held.includes(key) || held.includes(token), 'a credential in the report').toBe(false);
  }, 60_000);
});
