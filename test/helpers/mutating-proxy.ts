// A proxy in front of a server that breaks the contract in one chosen way.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Exchange {
  method: string;
  path: string;
  requestBody: string;
  status: number;
  contentType: string;
  body: any;
}

/** Returns the answer to give instead (or 'drop' to cut the connection); undefined keeps it. */
export type Mutation = (x: Exchange) => { status?: number; contentType?: string; body?: unknown } | 'drop' | undefined;

export async function startMutatingProxy(upstream: string, mutate: Mutation): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const requestBody = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers as IncomingHttpHeaders).filter(([k]) => !['host', 'content-length', 'connection'].includes(k))) as Record<string, string>;
      try {
        const upstreamRes = await fetch(upstream + req.url, { method: req.method, headers, body: ['GET', 'HEAD'].includes(req.method!) ? undefined : requestBody });
        const text = await upstreamRes.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: passed on as text
        }
        const exchange: Exchange = { method: req.method!, path: req.url!.split('?')[0]!, requestBody, status: upstreamRes.status, contentType: upstreamRes.headers.get('content-type') ?? '', body };
        const change = req.url!.startsWith('/_sandbox/') ? undefined : mutate(exchange);
        if (change === 'drop') return req.socket.destroy();
        const status = change?.status ?? exchange.status;
        const out = change && 'body' in change ? change.body : exchange.body;
        const payload = typeof out === 'string' ? out : JSON.stringify(out);
        res.writeHead(status, { 'content-type': change?.contentType ?? exchange.contentType });
        res.end(payload);
      } catch (error) {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
