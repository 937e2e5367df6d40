// messaging-conformance proxy: forwards every request to the target unchanged, streams the answer back unchanged, and
// judges each exchange after it ends, both ways by default: the app's request (the caller's side) and the service's
// answer (the service's side), with the registry the suite and `traffic` judge by. What it holds of an exchange is
// capped; past the cap the exchange is forwarded whole and judged as not recorded.
import { Agent as HttpAgent, createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { maxAnswerBytes } from '../ground/transport.ts';
import type { CheckResult, RecordedExchange } from '../ground/model.ts';
import { TrafficJudge, type TrafficJudgement, type TrafficOptions } from './judge.ts';
import { recorder } from './write.ts';

export interface ProxyOptions extends TrafficOptions {
  /** Where requests go: the service's base URL (its path is put before each request's). */
  target: string;
  host?: string;
  port?: number;
  /** Also write every exchange (credentials as ***) to this file: NDJSON, or HAR for a `.har` name. */
  record?: string;
  /** Hears each failure as it is judged. */
  finding?(result: CheckResult): void;
  /** Hears the number of exchanges judged after each one (the CLI writes its reports every N). */
  judged?(count: number): void;
  /** False: forward only, judge nothing (the benchmark's bare proxy). */
  judging?: boolean;
}

export interface RunningProxy {
  url: string;
  judge: TrafficJudgement;
  /** Stops listening, waits for the exchanges under way, ends the rules over time, and closes the recording. */
  close(): Promise<CheckResult[]>;
}

/** Headers that belong to one connection, never forwarded (RFC 9110 7.6.1). */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Raw headers as name-value pairs without the hop-by-hop ones (and those `Connection` names). */
function forwarded(raw: string[], replace: Record<string, string> = {}): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.toLowerCase() === 'connection')
      for (const n of raw[i + 1]!.split(',')) named.add(n.trim().toLowerCase());
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (hopByHop.has(name) || named.has(name) || name in replace) continue;
    out.push(raw[i]!, raw[i + 1]!);
  }
  for (const [name, value] of Object.entries(replace)) out.push(name, value);
  return out;
}

/** Lower-case names, repeats joined with `, ` (as the readers give them). */
function headerRecord(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    out[name] = Object.hasOwn(out, name) ? `${out[name]}, ${raw[i + 1]}` : raw[i + 1]!;
  }
  return out;
}

/** Collects what passes through, up to the cap; past it `whole` is false and nothing more is kept. */
class Tee {
  private chunks: Buffer[] = [];
  size = 0;
  whole = true;
  add(chunk: Buffer) {
    if (!this.whole) return;
    this.size += chunk.length;
    if (this.size > maxAnswerBytes) {
      this.whole = false;
      this.chunks = [];
    } else this.chunks.push(chunk);
  }
  bytes = () => Buffer.concat(this.chunks);
}

/** An answer's body as text, its content coding undone (up to the cap): the checks read what the app reads. */
function decoded(bytes: Buffer, coding: string | undefined): string {
  const options = { maxOutputLength: maxAnswerBytes };
  const c = (coding ?? '').trim().toLowerCase();
  const plain =
    c === 'gzip'
      ? gunzipSync(bytes, options)
      : c === 'deflate'
        ? inflateSync(bytes, options)
        : c === 'br'
          ? brotliDecompressSync(bytes, options)
          : bytes;
  return plain.toString('utf8');
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = new URL(options.target);
  const secure = target.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  // Connections to the target are kept and reused: a proxy must not add a handshake to each request.
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const prefix = target.pathname.replace(/\/+$/, '');
  // The target's own path is where the document's paths start, unless told otherwise.
  const judge = new TrafficJudge({ judge: 'both', ...options, basePath: options.basePath ?? (prefix || undefined) });
  const record = options.record ? recorder(options.record) : undefined;
  let count = 0;
  let started = 0;
  let pending = 0;
  let drained: (() => void) | undefined;

  // Judged after the answer has gone out, once the I/O waiting now is served: judging never holds up a forward.
  const finish = (x: RecordedExchange) =>
    setImmediate(() => {
      pending--;
      if (options.judging !== false) {
        for (const r of judge.see(x)) options.finding?.(r);
        record?.write(judge.redacted(x));
        options.judged?.(++count);
      }
      if (pending === 0) drained?.();
    });

  const server = createServer((req: IncomingMessage, res) => {
    pending++;
    const number = ++started;
    const at = Date.now();
    const url = new URL(prefix + (req.url ?? '/'), target);
    const sent = new Tee();
    const got = new Tee();
    const exchange = (response: RecordedExchange['response'], error?: string): RecordedExchange => ({
      at,
      request: {
        method: req.method ?? 'GET',
        url: url.href,
        // As sent on: the URL is the target's, so the app's `host` (the proxy) and the hop-by-hop headers are left out.
        headers: Object.fromEntries(
          Object.entries(headerRecord(forwarded(req.rawHeaders))).filter(([n]) => n !== 'host'),
        ),
        body: sent.whole && sent.size > 0 ? sent.bytes().toString('utf8') : undefined,
      },
      response,
      ...(error ? { error } : {}),
      source: `proxy exchange ${number}`,
    });
    const upstream = send(url, {
      method: req.method,
      agent,
      headers: forwarded(req.rawHeaders, { host: target.host }) as unknown as Record<string, string>,
    });
    upstream.on('response', (up) => {
      res.writeHead(up.statusCode ?? 502, up.statusMessage, forwarded(up.rawHeaders));
      // Piped, so a slow app slows the target's answer instead of filling memory; the tee keeps a copy up to the cap.
      if (options.judging !== false) up.on('data', (chunk: Buffer) => got.add(chunk));
      up.pipe(res);
      up.on('end', () => {
        if (options.judging === false) return finish(exchange(undefined));
        let body = '';
        try {
          body = got.whole ? decoded(got.bytes(), up.headers['content-encoding']) : '';
        } catch {
          body = got.bytes().toString('latin1'); // a coding that does not decode: the checks see the bytes
        }
        const x = exchange(
          got.whole ? { status: up.statusCode ?? 0, headers: headerRecord(forwarded(up.rawHeaders)), body } : undefined,
        );
        finish(x);
      });
      up.on('error', (error) => {
        res.destroy();
        finish(exchange(undefined, `the answer broke off: ${error.message}`));
      });
    });
    upstream.on('error', (error) => {
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`messaging-conformance proxy: the target ${target.origin} did not answer: ${error.message}\n`);
      } else res.destroy();
      finish(exchange(undefined, error.message));
    });
    if (options.judging !== false) req.on('data', (chunk: Buffer) => sent.add(chunk));
    req.pipe(upstream);
    req.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    judge,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      if (pending > 0) await new Promise<void>((resolve) => (drained = resolve));
      agent.destroy();
      const last = options.judging === false ? [] : judge.end();
      for (const r of last) options.finding?.(r);
      await record?.close();
      return last;
    },
  };
}
