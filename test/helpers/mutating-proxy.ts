// A proxy in front of a server that breaks the contract in one chosen way.
import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseJson, toJson } from '../../src/core/json-int64.ts';

export interface Exchange {
  method: string;
  path: string;
  requestBody: string;
  requestHeaders: Record<string, string>;
  status: number;
  contentType: string;
  /** The answer's other headers (Allow, ...), passed on unless the break says otherwise. */
  headers: Record<string, string>;
  body: any;
  /** Whether a request with the same method, path and body was in flight when this one came (sent at the same time). */
  overlapped: boolean;
}

/**
 * Returns the answer to give instead (or 'drop' to cut the connection); undefined keeps it. A break of what the
 * implementation is sent (`request`) changes a request's headers before it goes on.
 */
export type Mutation = ((
  x: Exchange,
) =>
  | { status?: number; contentType?: string; headers?: Record<string, string>; body?: unknown }
  | 'drop'
  | undefined) & {
  request?(headers: Record<string, string>): Record<string, string>;
};

/** The headers of an answer that are the proxy's own to write (its length and framing), not passed on. */
const framing = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'content-type', 'date']);

// node:http, connections kept alive: the mutation test sends thousands of requests through here,
// and Node 20's fetch costs about four times the CPU per request.
const agent = new Agent({ keepAlive: true });

/**
 * Whether JSON.parse refuses the text at its first character: after JSON's whitespace, none that starts a value. Such
 * an answer (the sandbox's docs page, megabytes) is neither read as JSON nor decoded unless a break reads its text.
 */
function notJson(bytes: Buffer): boolean {
  let i = 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return i < bytes.length && !'{["-0123456789tfn'.includes(String.fromCharCode(bytes[i]!));
}

function forward(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; contentType: string; headers: Record<string, string>; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const sent = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const upstream = request(url, { method, headers: sent, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          contentType: res.headers['content-type'] ?? '',
          headers: Object.fromEntries(
            Object.entries(res.headers)
              .filter(([name]) => !framing.has(name))
              .map(([name, value]) => [name, String(value)]),
          ),
          bytes: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    upstream.on('error', reject);
    upstream.end(body);
  });
}

export async function startMutatingProxy(
  upstream: string,
  mutate: Mutation,
): Promise<{ url: string; close(): Promise<void> }> {
  const inFlight = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const requestBody = Buffer.concat(chunks).toString('utf8');
      const flight = `${req.method} ${req.url} ${requestBody}`;
      const overlapped = (inFlight.get(flight) ?? 0) > 0;
      inFlight.set(flight, (inFlight.get(flight) ?? 0) + 1);
      res.on('close', () => {
        const left = (inFlight.get(flight) ?? 1) - 1;
        if (left > 0) inFlight.set(flight, left);
        else inFlight.delete(flight);
      });
      const headers = Object.fromEntries(
        Object.entries(req.headers as IncomingHttpHeaders).filter(
          ([k]) => !['host', 'content-length', 'connection'].includes(k),
        ),
      ) as Record<string, string>;
      try {
        const answer = await forward(
          upstream + req.url,
          req.method!,
          mutate.request ? mutate.request(headers) : headers,
          ['GET', 'HEAD'].includes(req.method!) ? undefined : requestBody,
        );
        let text: string | undefined;
        const textOf = () => (text ??= answer.bytes.toString('utf8'));
        const textOnly = notJson(answer.bytes);
        let body: unknown;
        if (!textOnly)
          try {
            // Identifiers past 2^53 read and written digit for digit: the proxy breaks only what its break says.
            body = parseJson(textOf());
          } catch {
            body = textOf(); // not JSON: passed on as text
          }
        const exchange: Exchange = {
          method: req.method!,
          path: req.url!.split('?')[0]!,
          requestBody,
          requestHeaders: headers,
          status: answer.status,
          contentType: answer.contentType,
          headers: answer.headers,
          body,
          overlapped,
        };
        // Text no JSON value starts: decoded only if the break reads it.
        if (textOnly) Object.defineProperty(exchange, 'body', { get: textOf, enumerable: true });
        const change = req.url!.startsWith('/_sandbox/') ? undefined : mutate(exchange);
        if (change === 'drop') return req.socket.destroy();
        const status = change?.status ?? exchange.status;
        // An answer the break leaves alone goes on as sent: its bytes.
        const out = change && 'body' in change ? change.body : undefined;
        const payload = !change || !('body' in change) ? answer.bytes : typeof out === 'string' ? out : toJson(out);
        res.writeHead(status, {
          ...(change?.headers ?? exchange.headers),
          'content-type': change?.contentType ?? exchange.contentType,
        });
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
