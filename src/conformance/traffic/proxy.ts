// messaging-conformance proxy: forwards every request to the target and streams the answer back, both unchanged, and
// judges each exchange after it ends with the suite's registry, both sides by default (the app's request: the caller's;
// the answer: the service's). An exchange is held up to a cap; past it, it is forwarded whole and judged unrecorded.
import { Agent as HttpAgent, createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { maxAnswerBytes, type CheckResult, type RecordedExchange } from '../ground/model.ts';
import { TrafficJudge, type TrafficJudgement, type TrafficOptions } from './judge.ts';
import { headersFrom } from './readers/format.ts';
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
  ...['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization'],
  ...['te', 'trailer', 'transfer-encoding', 'upgrade'],
]);

const pairs = (raw: string[]) => raw.flatMap((n, i): Array<[string, string]> => (i % 2 ? [] : [[n, raw[i + 1]!]]));
/** Raw headers without the hop-by-hop ones (and those `Connection` names), `replace`'s put last instead of their own. */
function forwarded(raw: string[], replace: Record<string, string> = {}): string[] {
  const all = pairs(raw);
  const named = all.flatMap(([n, v]) => (n.toLowerCase() === 'connection' ? v.split(',').map((c) => c.trim()) : []));
  const dropped = new Set([...hopByHop, ...named.map((n) => n.toLowerCase()), ...Object.keys(replace)]);
  return [...all.filter(([n]) => !dropped.has(n.toLowerCase())), ...Object.entries(replace)].flat();
}

/** Lower-case names, repeats joined with `, `, as the readers give them. */
const headerRecord = (raw: string[]) => headersFrom(pairs(raw), 'proxy', 'headers');

/** Collects what passes through, up to the cap; past it nothing is kept and `bytes` is undefined. */
class Tee {
  private chunks: Buffer[] = [];
  private size = 0;
  add(chunk: Buffer) {
    this.size += chunk.length;
    if (this.size > maxAnswerBytes) this.chunks = [];
    else this.chunks.push(chunk);
  }
  bytes = () => (this.size > maxAnswerBytes ? undefined : Buffer.concat(this.chunks));
}

const codings = new Map(Object.entries({ gzip: gunzipSync, deflate: inflateSync, br: brotliDecompressSync }));
/** An answer's body as text, its content coding undone (up to the cap): the checks read what the app reads. */
function decoded(bytes: Buffer, coding: string | undefined): string {
  const undo = codings.get((coding ?? '').trim().toLowerCase());
  try {
    return (undo ? undo(bytes, { maxOutputLength: maxAnswerBytes }) : bytes).toString('utf8');
  } catch {
    return bytes.toString('latin1'); // a coding that does not decode: the checks see the bytes
  }
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = new URL(options.target);
  const [send, Agent] = target.protocol === 'https:' ? [httpsRequest, HttpsAgent] : [httpRequest, HttpAgent];
  // Connections to the target are kept and reused: a proxy must not add a handshake to each request.
  const agent = new Agent({ keepAlive: true });
  const prefix = target.pathname.replace(/\/+$/, '');
  // The target's own path is where the document's paths start, unless told otherwise.
  const judge = new TrafficJudge({ judge: 'both', ...options, basePath: options.basePath ?? (prefix || undefined) });
  const record = options.record ? recorder(options.record) : undefined;
  const judging = options.judging !== false;
  const host = options.host ?? '127.0.0.1';
  let [count, started, pending] = [0, 0, 0];
  let drained: (() => void) | undefined;

  // Judged after the answer has gone out, once the I/O waiting now is served: judging never holds up a forward.
  const finish = (x: RecordedExchange) =>
    setImmediate(() => {
      pending--;
      if (judging) {
        for (const r of judge.see(x)) options.finding?.(r);
        if (judge.kept) record?.write(judge.kept);
        options.judged?.(++count);
      }
      if (pending === 0) drained?.();
    });

  const server = createServer((req: IncomingMessage, res) => {
    pending++;
    const [number, at, sent, got] = [++started, Date.now(), new Tee(), new Tee()];
    const url = new URL(prefix + (req.url ?? '/'), target);
    const exchange = (response: RecordedExchange['response'], error?: string): RecordedExchange => {
      // As sent on: the URL is the target's, so the app's `host` (the proxy) and the hop-by-hop headers are left out.
      const { host: _, ...headers } = headerRecord(forwarded(req.rawHeaders));
      const body = sent.bytes()?.toString() || undefined;
      const request = { method: req.method ?? 'GET', url: url.href, headers, body };
      return { at, request, response, ...(error ? { error } : {}), source: `proxy exchange ${number}` };
    };
    const headers = forwarded(req.rawHeaders, { host: target.host }) as unknown as Record<string, string>;
    const upstream = send(url, { method: req.method, agent, headers });
    upstream.on('response', (up) => {
      res.writeHead(up.statusCode ?? 502, up.statusMessage, forwarded(up.rawHeaders));
      // Piped, so a slow app slows the target's answer instead of filling memory; the tee keeps a copy up to the cap.
      if (judging) up.on('data', (chunk: Buffer) => got.add(chunk));
      up.pipe(res);
      up.on('end', () => {
        const bytes = judging ? got.bytes() : undefined;
        if (!bytes) return finish(exchange(undefined));
        const body = decoded(bytes, up.headers['content-encoding']);
        finish(exchange({ status: up.statusCode ?? 0, headers: headerRecord(forwarded(up.rawHeaders)), body }));
      });
      up.on('error', (error) => {
        res.destroy();
        finish(exchange(undefined, `the answer broke off: ${error.message}`));
      });
    });
    upstream.on('error', (error) => {
      const why = `messaging-conformance proxy: the target ${target.origin} did not answer: ${error.message}\n`;
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { 'content-type': 'text/plain' }).end(why);
      finish(exchange(undefined, error.message));
    });
    if (judging) req.on('data', (chunk: Buffer) => sent.add(chunk));
    req.pipe(upstream);
    req.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options.port ?? 0, host, resolve));
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`,
    judge,
    async close() {
      await new Promise((resolve) => server.close(resolve).closeIdleConnections());
      if (pending > 0) await new Promise<void>((resolve) => (drained = resolve));
      agent.destroy();
      const last = judging ? judge.end() : [];
      for (const r of last) options.finding?.(r);
      await record?.close();
      return last;
    },
  };
}
