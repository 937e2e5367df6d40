// How every stage reads a server's answers, Dredd's included: the same client headers, coded
// answers decoded, at most maxAnswerBytes of one answer, and a server whose root sends a large page
// still answers (the first request of a run only needs the status line).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite, stages } from '../../src/conformance/suite/suite.ts';
import { AnswerTooLarge, clientHeaders, maxAnswerBytes } from '../../src/conformance/ground/transport.ts';

const servers: Array<ReturnType<typeof createServer>> = [];
afterAll(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

/** A server answering each request with `answer`; it keeps every request's headers. */
async function serve(answer: (path: string, res: ServerResponse, body: string) => void) {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => answer(req.url ?? '', res, body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/**
 * The answer to a request about thread 999999 (the first probe, and one example): not 404, so the
 * run does not read the server as one whose every operation answers 404 (a wrong base path).
 */
const aboutTheProbe = (body: string, res: ServerResponse) =>
  body.includes('999999') &&
  res.writeHead(400, { 'content-type': 'application/json' }).end('{"title":"bad-request","status":400}');

/** Writes 1 MiB at a time for as long as the connection lasts. */
function endless(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const mib = Buffer.alloc(1024 * 1024, 32);
  const more = () => {
    while (!res.destroyed && res.write(mib));
    if (!res.destroyed) res.once('drain', more);
  };
  more();
}

const run = (server: string, only: string[]) =>
  runSuite(
    {
      server,
      credentials: { apiKey: 'answers-key', integratorToken: 'answers-token' },
      values: {},
      seed: 1,
      mock: false,
      log: () => {},
    },
    stages.filter((s) => only.includes(s.name)),
  );

describe('answers, as every stage reads them', () => {
  it('the dredd stage and the suite send the same client headers, and read gzip answers decoded', async () => {
    const problem = gzipSync(JSON.stringify({ title: 'not-found', status: 404, detail: 'gzip on purpose' }));
    const server = await serve(
      (_path, res, body) =>
        aboutTheProbe(body, res) ||
        res.writeHead(404, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(problem),
    );
    const report = await run(server.url, ['dredd', 'examples']);
    const apiRequests = server.seen.filter((h) => h['x-api-key'] !== undefined || h.authorization !== undefined);
    expect(apiRequests.length).toBeGreaterThan(10);
    for (const headers of apiRequests) expect(headers).toMatchObject(clientHeaders);
    const dredd = report.results.filter((r) => r.stage === 'dredd' && !r.ok);
    expect(dredd.length).toBeGreaterThan(0);
    // Judged as the JSON it decodes to, in every stage: not Dredd's base64 of the gzip bytes.
    for (const r of report.results) expect(r.actual ?? '').not.toMatch(/H4sI|body is not JSON/);
    expect(report.results.some((r) => /not-found/.test(r.actual ?? ''))).toBe(true);
  }, 30_000);

  it.each(['dredd', 'examples'])(
    `the %s stage reads no more than ${maxAnswerBytes / 1024 / 1024} MiB of an answer`,
    async (stage) => {
      // The stage's first close-threads request gets an answer without end (the credential probe before it, about
      // thread 999999, does not); every other request a 404.
      let endlessOnes = 1;
      const server = await serve((path, res, body) =>
        path.endsWith('/threads/close') && !body.includes('999999') && endlessOnes-- > 0
          ? endless(res)
          : aboutTheProbe(body, res) ||
            res.writeHead(404, { 'content-type': 'application/json' }).end('{"title":"not-found","status":404}'),
      );
      const report = await run(server.url, [stage]);
      const cut = report.results.filter((r) => (r.actual ?? '').includes(new AnswerTooLarge().message));
      expect(cut.length, JSON.stringify(report.results.map((r) => r.actual))).toBe(1);
    },
    30_000,
  );

  it('a server whose root sends an answer without end is still a server that answers', async () => {
    const server = await serve((path, res, body) =>
      path === '/'
        ? endless(res)
        : aboutTheProbe(body, res) || res.writeHead(404, { 'content-type': 'application/json' }).end('{}'),
    );
    const report = await run(server.url, ['examples']);
    expect(report.finished, report.unfinished).toBe(true);
    expect(report.results.filter((r) => r.stage === 'examples').length).toBeGreaterThan(0);
  }, 30_000);
});
