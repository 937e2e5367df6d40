// The suite's HTTP (transport.ts): what it sends, how it reads an answer, and how an exchange ends
// when the answer breaks off, never ends, or never comes.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';
import { brotliCompressSync, createGzip, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AnswerTooLarge, clientHeaders, exchange, maxAnswerBytes } from '../../src/conformance/ground/transport.ts';
import { freePort } from '../../src/util/wait.ts';

const routes: Record<string, (req: IncomingMessage, res: ServerResponse, body: string) => void> = {
  '/echo': (req, res, body) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ headers: req.headers, body })),
  '/gzip': (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('{"coded":"gzip"}')),
  '/deflate': (_req, res) =>
    res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateSync('{"coded":"deflate"}')),
  '/br': (_req, res) => res.writeHead(200, { 'content-encoding': 'br' }).end(brotliCompressSync('{"coded":"br"}')),
  '/text': (_req, res) => res.writeHead(503, { 'content-type': 'text/html' }).end('<p>down</p>'),
  '/breaks-off': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"resolved_threads": [');
    setTimeout(() => res.destroy(), 5);
  },
  // 1 MiB a write without end, plain or coded: the suite stops reading past the limit and closes the connection.
  '/too-large': (_req, res) => endless(res.writeHead(200, { 'content-type': 'application/json' }), res),
  '/gzip-endless': (_req, res) => {
    const gzip = createGzip();
    gzip.pipe(res.writeHead(200, { 'content-encoding': 'gzip' }));
    endless(gzip, res);
  },
  '/gzip-bomb': (_req, res) =>
    res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(maxAnswerBytes + 1, 32))),
  '/trickles': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const drip = setInterval(() => res.write(' '), 20);
    res.on('close', () => {
      clearInterval(drip);
      closed.add(res.req.url ?? '');
    });
  },
};

/** Paths whose answer's connection has closed. */
const closed = new Set<string>();
function endless(out: Writable, res: ServerResponse): void {
  const mib = Buffer.alloc(1024 * 1024, 32);
  const more = () => {
    while (!res.destroyed && out.write(mib));
    if (!res.destroyed) out.once('drain', more);
  };
  res.on('close', () => closed.add(res.req.url ?? ''));
  more();
}

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk));
  req.on('end', () => routes[req.url ?? '']?.(req, res, body));
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const get = (path: string, extra: { signal?: AbortSignal; onAnswer?: () => void; statusOnly?: boolean } = {}) =>
  exchange({
    method: 'GET',
    url: base + path,
    headers: {},
    body: undefined,
    signal: AbortSignal.timeout(5000),
    ...extra,
  });

describe('exchange', () => {
  it("sends the body with its length, a client's default headers, and the caller's over them", async () => {
    const answer = await exchange({
      method: 'POST',
      url: `${base}/echo`,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{"comment":"ё ✓"}',
      signal: AbortSignal.timeout(5000),
    });
    const { headers, body } = answer.body as { headers: Record<string, string>; body: string };
    expect(body).toBe('{"comment":"ё ✓"}');
    expect(headers).toMatchObject({
      'content-length': String(Buffer.byteLength(body)),
      accept: 'application/json',
      'accept-encoding': clientHeaders['accept-encoding'],
      'user-agent': clientHeaders['user-agent'],
    });
    expect(answer).toMatchObject({ status: 200, contentType: 'application/json', json: true });
  });

  it.each(['gzip', 'deflate'])('decodes an answer coded %s', async (coding) => {
    expect((await get(`/${coding}`)).body).toEqual({ coded: coding });
  });

  it('reads an answer in a coding it did not ask for as it comes: not JSON', async () => {
    expect(await get('/br')).toMatchObject({ status: 200, json: false });
  });

  it('reads an answer that is not JSON as text, with its headers', async () => {
    expect(await get('/text')).toEqual({
      status: 503,
      contentType: 'text/html',
      text: '<p>down</p>',
      body: undefined,
      json: false,
      headers: expect.objectContaining({ 'content-type': 'text/html' }),
    });
  });

  it('rejects an answer that breaks off after its status line, having reported that it began', async () => {
    let began = false;
    await expect(get('/breaks-off', { onAnswer: () => (began = true) })).rejects.toThrow();
    expect(began).toBe(true);
  });

  it.each(['/too-large', '/gzip-bomb', '/gzip-endless'])(
    'stops reading an answer past maxAnswerBytes, decoded, and closes its connection (%s)',
    async (path) => {
      await expect(get(path)).rejects.toBeInstanceOf(AnswerTooLarge);
      if (path !== '/gzip-bomb') await vi.waitFor(() => expect(closed.has(path)).toBe(true));
    },
  );

  it('ends at the signal while the body still trickles: the time limit covers the body', async () => {
    // The body never ends: only the signal can end the request, and it closes the connection.
    await expect(get('/trickles', { signal: AbortSignal.timeout(200) })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    await vi.waitFor(() => expect(closed.has('/trickles')).toBe(true));
  });

  it('with statusOnly, ends at the status line: the body is not read', async () => {
    const answer = await get('/too-large', { statusOnly: true });
    expect(answer).toMatchObject({ status: 200, contentType: 'application/json', text: '' });
    await vi.waitFor(() => expect(closed.has('/too-large')).toBe(true));
  });

  it('rejects when nothing listens, without reporting an answer', async () => {
    let began = false;
    const nobody = `http://127.0.0.1:${await freePort()}`;
    await expect(
      exchange({
        method: 'GET',
        url: nobody,
        headers: {},
        body: undefined,
        signal: AbortSignal.timeout(5000),
        onAnswer: () => (began = true),
      }),
    ).rejects.toThrow(/ECONNREFUSED/);
    expect(began).toBe(false);
  });
});
