// The sandbox: the whole contract on node:http, stateful and in memory, plus the docs page,
// /openapi.json and a control API under /_sandbox (sandbox-only, not part of the contract).
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { operations } from '../core/examples.ts';
import { apiKeyHeader as apiKeyHeaderName } from '../core/meta.ts';
import { isDocsPath, serveDocs } from './docs.ts';
import { DeliverySimulator, type DeliveryOptions } from './delivery.ts';
import { checkFixtures, loadFixtures, type Fixtures } from './fixtures.ts';
import * as rules from './rules.ts';
import { problem, type Reply } from './rules.ts';
import type { Window } from './recent-keys.ts';
import { SandboxState, type Thread } from './state.ts';

export interface SandboxOptions extends DeliveryOptions {
  fixtures?: Fixtures;
  /** How long and how many requestIds are remembered (default a day, 100,000). */
  requestIdWindow?: Window;
  /** Largest request body accepted (default 8 MiB); a larger one gets 413. */
  bodyLimitBytes?: number;
  /** Time to receive a request's headers (default 10 s) and the whole request (default 30 s). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
}

/** What the control API (`GET /_sandbox/state`) and `state()` show of the sandbox's state. */
export interface SandboxSnapshot {
  threads: Thread[];
  /** External identifiers of the subscribers. */
  subscribers: string[];
  /** How many requestIds are taken. */
  usedRequestIds: number;
}

export interface Sandbox {
  server: Server;
  state: SandboxState;
  delivery: DeliverySimulator;
  /** Back to the fixtures: state, callback log and duplicate window. */
  reset(): void;
  snapshot(): SandboxSnapshot;
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

const apiKeyHeader = apiKeyHeaderName.toLowerCase();
const routes = new Map(operations().map((op) => [op.path, op]));

const sha256 = (s: string) => hash('sha256', s, 'buffer');
const secretDigests = new Map<string, Buffer>();
/** The fixtures' secrets are hashed once; a given value is always hashed, so timing says nothing about it. */
const secretDigest = (secret: string) => secretDigests.get(secret) ?? secretDigests.set(secret, sha256(secret)).get(secret)!;

/** The matching secret, compared in constant time against every candidate. */
function findSecret(given: string | undefined, secrets: Iterable<string>): string | undefined {
  if (!given) return undefined;
  const g = sha256(given);
  let found: string | undefined;
  for (const secret of secrets) if (timingSafeEqual(g, secretDigest(secret)) && found === undefined) found = secret;
  return found;
}

class BodyTooLarge extends Error {}

/** Deepest nesting of arrays and objects accepted; the contract's deepest shape is far shallower. */
const maxJsonDepth = 64;

// The scan compares character codes, numbers, rather than one-character strings.
const quote = '"'.charCodeAt(0);
const minus = '-'.charCodeAt(0);
const zero = '0'.charCodeAt(0);
const nine = '9'.charCodeAt(0);
const backslash = '\\'.charCodeAt(0);
const openBracket = '['.charCodeAt(0);
const closeBracket = ']'.charCodeAt(0);
const openBrace = '{'.charCodeAt(0);
const closeBrace = '}'.charCodeAt(0);

/** How deeply `text` nests arrays and objects (strings skipped), without parsing it. */
function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === backslash) i++; // skip the escaped character
      else if (c === quote) inString = false;
    } else if (c === quote) inString = true;
    else if (c === openBracket || c === openBrace) max = Math.max(max, ++depth);
    else if (c === closeBracket || c === closeBrace) depth--;
  }
  return max;
}

/** The body, refused as soon as it passes `limit` (declared or counted while reading). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (declared > limit) return reject(new BodyTooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        reject(new BodyTooLarge());
      } else chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))); // most bodies come in one chunk: no copy
    req.on('error', reject);
  });
}

/**
 * Answers 413 while the client is still sending, then reads the rest into nothing, so that a
 * client that writes its whole body before reading gets the answer (closing at once loses it to
 * EPIPE or a reset in the client). The connection then stays usable: closing it after the body
 * would race a client that reuses it for its next request. A client that sends more than 4x the
 * limit is cut off.
 */
function refuseBody(req: IncomingMessage, res: ServerResponse, reply: Reply, limit: number): void {
  send(res, reply);
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > 4 * limit) req.socket.destroy();
  });
  req.resume();
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The path of the first value in `value` that passes `test`, as its segments. Every request is
 * walked, so a path is built only on the way back from a find.
 */
function findValue(value: unknown, test: (leaf: unknown) => boolean): Array<string | number> | undefined {
  if (test(value)) return [];
  if (value === null || typeof value !== 'object') return undefined;
  for (const key of Object.keys(value)) {
    const found = findValue((value as Record<string, unknown>)[key], test);
    if (found) return [Array.isArray(value) ? Number(key) : key, ...found];
  }
  return undefined;
}

/** An integer JSON.parse has rounded: a JavaScript number holds integers exactly up to 2^53 - 1. */
const isRounded = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v);
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
const outsideInt64 = (v: unknown) => typeof v === 'bigint' && (v < int64Min || v > int64Max);
const numberToken = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const integerLiteral = /^-?\d+$/;

/** A prefix for strings that stand for BigInts while JSON is parsed or written: a nonce no request can guess. */
const nonceMark = () => `\u0000${randomBytes(8).toString('hex')}:`;

/**
 * The body with every integer literal that JSON.parse rounds read as a BigInt of the digits sent:
 * int64 identifiers stay exact. One linear scan writes each such literal as a string marked with a
 * nonce no request can guess, then one parse turns the marks back into BigInts. Only a body that
 * holds such an integer is read this second way.
 */
function exactIntegers(text: string): unknown {
  const mark = nonceMark();
  const out: string[] = [];
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === backslash) i++;
      else if (c === quote) inString = false;
    } else if (c === quote) inString = true;
    else if (c === minus || (c >= zero && c <= nine)) {
      numberToken.lastIndex = i;
      const token = numberToken.exec(text)?.[0] ?? text[i]!;
      if (integerLiteral.test(token) && isRounded(Number(token))) out.push(text.slice(from, i), JSON.stringify(`${mark}${token}`));
      else out.push(text.slice(from, i + token.length));
      from = i + token.length;
      i = from - 1;
    }
  }
  out.push(text.slice(from));
  return JSON.parse(out.join(''), (_key, value: unknown) => (typeof value === 'string' && value.startsWith(mark) ? BigInt(value.slice(mark.length)) : value));
}

/** A path as the problem's detail writes it: `content.items[2].id`, or `(body)` for the body itself. */
const pathText = (segments: Array<string | number>) =>
  segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('') || '(body)';

/** A target of only letters, digits, `-`, `_` and `/` is its own path: no dot segment, query or escape for a URL parser to resolve. */
const plainTarget = /^\/[A-Za-z0-9_\-/]*$/;

/** The path of an origin-form request target (`/api/...`, dot segments resolved), or null for anything else. */
function requestPath(target: string | undefined): string | null {
  if (!target?.startsWith('/') || target.startsWith('//')) return null;
  if (plainTarget.test(target)) return target;
  try {
    return new URL(target, 'http://sandbox').pathname;
  } catch {
    return null;
  }
}

/** JSON of an answer; an int64 identifier held as a BigInt is written as its digits. */
function json(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    const mark = nonceMark();
    const marked = JSON.stringify(body, (_key, value: unknown) => (typeof value === 'bigint' ? `${mark}${value}` : value));
    // Each marked string, `"\u0000<nonce>:<digits>"`, becomes its digits.
    return marked
      .split(JSON.stringify(mark).slice(0, -1))
      .map((part, i) => (i === 0 ? part : part.replace(/^(-?\d+)"/, '$1')))
      .join('');
  }
}

function send(res: ServerResponse, reply: Reply, headers?: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  const text = json(reply.body);
  const head = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
  res.writeHead(reply.status, headers ? { ...head, ...headers } : head);
  res.end(text);
}

const jsonContentType = /^application\/json\s*(;|$)/i;
const charsetParameter = /;\s*charset\s*=\s*"?([^";\s]+)/i;
const utf8Charset = /^utf-?8$/i;
const bearerToken = /^Bearer\s+(.+)$/i;

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const fixtures = options.fixtures === undefined ? loadFixtures() : checkFixtures(options.fixtures, 'the fixtures option');
  const state = new SandboxState(fixtures, options.requestIdWindow);
  const delivery = new DeliverySimulator(state, fixtures.delivery, options);
  const bodyLimit = options.bodyLimitBytes ?? 8 * 1024 * 1024;
  const clock = options.clock ?? { now: Date.now };
  const now = () => clock.now();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = requestPath(req.url);
    if (path === null) {
      req.resume();
      return send(res, problem(404, 'not-found', 'The request target is not a path of this server.'));
    }

    if (path.startsWith('/_sandbox/')) return control(req, res, path);
    if (isDocsPath(path) && (await serveDocs(path, req, res))) return;

    const op = routes.get(path);
    if (!op) return send(res, problem(404, 'not-found', `No operation at ${path}.`));
    if (req.method !== op.method) {
      return send(res, problem(405, 'method-not-allowed', `Method ${req.method} is not allowed here; use ${op.method}.`), { allow: op.method });
    }

    let apiKey: string | undefined;
    if (op.security.includes('apiKey')) {
      const given = req.headers[apiKeyHeader];
      apiKey = findSecret(Array.isArray(given) ? given[0] : given, state.apiKeys.keys());
      if (!apiKey) return send(res, problem(401, 'auth-error', 'The API key is missing, wrong or expired.'));
    }
    if (op.security.includes('integratorToken')) {
      const token = bearerToken.exec(req.headers.authorization ?? '')?.[1];
      if (!findSecret(token, fixtures.integratorTokens)) return send(res, problem(401, 'auth-error', 'The integrator token is missing, wrong or expired.'));
    }

    const type = req.headers['content-type'] ?? '';
    if (type !== 'application/json') {
      if (!jsonContentType.test(type)) {
        req.resume();
        return send(res, problem(500, 'system-error', `The request is malformed: Content-Type is ${JSON.stringify(type)}; expected application/json.`));
      }
      const charset = charsetParameter.exec(type)?.[1];
      if (charset !== undefined && !utf8Charset.test(charset)) {
        req.resume();
        return send(res, problem(400, 'body-is-not-utf-8', `The request body must be UTF-8 (JSON's encoding); Content-Type says charset=${charset}.`));
      }
    }
    let body: unknown;
    let text: string | undefined;
    try {
      const bytes = await readBody(req, bodyLimit);
      try {
        text = utf8.decode(bytes);
      } catch {
        return send(res, problem(400, 'body-is-not-utf-8', 'The request body is not valid UTF-8 (JSON must be UTF-8); it was not read as any other encoding.'));
      }
      if (jsonDepth(text) > maxJsonDepth) {
        return send(res, problem(500, 'system-error', `The request is malformed: it nests arrays and objects deeper than ${maxJsonDepth} levels.`));
      }
      body = JSON.parse(text);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        return refuseBody(req, res, problem(413, 'payload-too-large', `The request body is larger than the sandbox's limit of ${bodyLimit} bytes.`), bodyLimit);
      }
      return send(res, problem(500, 'system-error', `The request body is not valid JSON: ${(error as Error).message}`));
    }
    // Identifiers are int64: the digits sent are kept past 2^53 (the rules see them as BigInts and
    // the answer writes them as sent); an integer outside int64 is no identifier, a malformed request.
    let exact = body;
    if (findValue(body, isRounded)) {
      exact = exactIntegers(text!);
      const outside = findValue(exact, outsideInt64);
      if (outside) return send(res, problem(500, 'system-error', `The request is malformed: ${pathText(outside)} is an integer outside int64 (-2^63 to 2^63 - 1).`));
    }

    switch (op.operationId) {
      case 'closeThreads':
        return send(res, rules.closeThreads(state, body, exact));
      case 'createSubscriber':
        return send(res, rules.createSubscriber(state, body));
      case 'scheduleCascade':
        return send(res, rules.scheduleCascade(state, body, apiKey!, delivery.accept, now(), exact));
      default:
        return send(res, problem(500, 'system-error', `Operation ${op.operationId} is not implemented by the sandbox.`));
    }
  }

  function reset(): void {
    state.reset();
    delivery.reset();
  }

  function snapshot(): SandboxSnapshot {
    return { threads: [...state.threads.values()], subscribers: [...state.subscribers.keys()], usedRequestIds: state.usedRequestIds };
  }

  function control(req: IncomingMessage, res: ServerResponse, path: string): void {
    req.resume();
    if (path === '/_sandbox/reset' && req.method === 'POST') {
      reset();
      return send(res, { status: 200, body: { reset: true } });
    }
    if (path === '/_sandbox/callbacks' && req.method === 'GET') return send(res, { status: 200, body: delivery.callbacks });
    if (path === '/_sandbox/state' && req.method === 'GET') return send(res, { status: 200, body: snapshot() });
    return send(res, problem(404, 'not-found', `No sandbox control at ${req.method} ${path}.`));
  }

  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const server = createServer({ headersTimeout, requestTimeout: options.requestTimeoutMs ?? 30_000, connectionsCheckingInterval: Math.min(1_000, headersTimeout) }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      // Never crash and never echo headers (they hold credentials): one log line, and the documented catch-all.
      process.stderr.write(`sandbox: ${req.method} ${JSON.stringify(req.url?.split('?')[0]?.slice(0, 200))}: ${String((error as Error)?.message ?? error).split('\n')[0]}\n`);
      send(res, problem(500, 'system-error', 'The sandbox failed to handle the request.'));
    });
  });
  server.keepAliveTimeout = 5_000;

  return {
    server,
    state,
    delivery,
    reset,
    snapshot,
    listen: (port = 0, host = '127.0.0.1') =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve(`http://${host}:${(server.address() as AddressInfo).port}`));
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
