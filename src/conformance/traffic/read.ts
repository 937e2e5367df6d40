// Reading recorded traffic, streaming, with bounded memory: NDJSON (one exchange per line) and HAR 1.2 (the entries of
// `log.entries`, one at a time). A line or an entry is held alone, up to `maxExchangeBytes`, and checked field by
// field; the first thing wrong ends the reading with its place and what was expected. The HAR scanner is written here:
// streaming JSON libraries say they are not for hostile input, and a HAR's shape needs one array found and split.
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { maxExchangeBytes, TrafficError, type RecordedAnswer, type RecordedExchange } from './exchange.ts';

export type TrafficFormat = 'har' | 'ndjson';

/** The format of a file: as given, else HAR for a `.har` name and NDJSON for any other. */
export const trafficFormat = (path: string, format?: TrafficFormat): TrafficFormat =>
  format ?? (/\.har$/i.test(path) ? 'har' : 'ndjson');

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const own = (o: Obj, key: string) => (Object.hasOwn(o, key) ? o[key] : undefined);

/** Headers with lower-case names (several of one name joined with `, `), no prototype to pollute. */
function headersFrom(pairs: Array<[string, unknown]>, where: string): Record<string, string> {
  const out = new Map<string, string>();
  for (const [name, raw] of pairs) {
    const value = Array.isArray(raw) && raw.every((v) => typeof v === 'string') ? raw.join(', ') : raw;
    if (typeof value !== 'string')
      throw new TrafficError(`${where}: the header ${JSON.stringify(name)} must be a string`);
    const key = name.toLowerCase();
    out.set(key, out.has(key) ? `${out.get(key)}, ${value}` : value);
  }
  return Object.fromEntries(out);
}

const isHttpUrl = (v: unknown): v is string => {
  if (typeof v !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};

function checked<T>(ok: boolean, value: T, where: string, what: string): T {
  if (!ok) throw new TrafficError(`${where}: ${what}`);
  return value;
}

/** An exchange from one NDJSON line's value. */
function fromLine(v: unknown, where: string): RecordedExchange {
  checked(isObject(v), v, where, 'an exchange must be a JSON object {startedAt, request, response}');
  const o = v as Obj;
  const startedAt = own(o, 'startedAt');
  const at = typeof startedAt === 'string' ? Date.parse(startedAt) : Number.NaN;
  checked(
    !Number.isNaN(at),
    at,
    where,
    `startedAt must be an ISO 8601 date-time, got ${JSON.stringify(startedAt ?? null)}`,
  );
  const request = own(o, 'request');
  checked(isObject(request), request, where, 'request must be an object {method, url, headers, body}');
  const r = request as Obj;
  const method = own(r, 'method');
  checked(
    typeof method === 'string' && /^[A-Za-z]+$/.test(method),
    method,
    where,
    'request.method must be a method name',
  );
  const url = own(r, 'url');
  checked(
    isHttpUrl(url),
    url,
    where,
    `request.url must be an absolute http(s) URL, got ${JSON.stringify(url ?? null)}`,
  );
  const body = own(r, 'body');
  checked(
    body === undefined || body === null || typeof body === 'string',
    body,
    where,
    'request.body must be a string',
  );
  const headers = own(r, 'headers') ?? {};
  checked(isObject(headers), headers, where, 'request.headers must be an object of strings');
  const response = own(o, 'response');
  let answer: RecordedAnswer | undefined;
  if (response !== undefined && response !== null) {
    checked(isObject(response), response, where, 'response must be an object {status, headers, body} or null');
    const a = response as Obj;
    const status = own(a, 'status');
    checked(
      Number.isInteger(status) && (status as number) >= 100 && (status as number) <= 599,
      status,
      where,
      `response.status must be an integer from 100 to 599, got ${JSON.stringify(status ?? null)}`,
    );
    const text = own(a, 'body') ?? '';
    checked(typeof text === 'string', text, where, 'response.body must be a string');
    const h = own(a, 'headers') ?? {};
    checked(isObject(h), h, where, 'response.headers must be an object of strings');
    answer = {
      status: status as number,
      headers: headersFrom(Object.entries(h as Obj), `${where} response.headers`),
      body: text as string,
    };
  }
  return {
    at,
    request: {
      method: (method as string).toUpperCase(),
      url: url as string,
      headers: headersFrom(Object.entries(headers as Obj), `${where} request.headers`),
      body: (body ?? undefined) as string | undefined,
    },
    response: answer,
    ...errorOf(own(o, 'error')),
    source: where,
  };
}

/** Why no answer came, when the recording says (a string). */
const errorOf = (v: unknown) => (typeof v === 'string' && v !== '' ? { error: v.slice(0, 500) } : {});

/** An exchange from one HAR entry. */
function fromEntry(v: unknown, where: string): RecordedExchange {
  checked(isObject(v), v, where, 'an entry must be an object {startedDateTime, request, response}');
  const e = v as Obj;
  const started = own(e, 'startedDateTime');
  const at = typeof started === 'string' ? Date.parse(started) : Number.NaN;
  checked(
    !Number.isNaN(at),
    at,
    where,
    `startedDateTime must be an ISO 8601 date-time, got ${JSON.stringify(started ?? null)}`,
  );
  const request = own(e, 'request');
  checked(isObject(request), request, where, 'request must be an object');
  const r = request as Obj;
  const method = own(r, 'method');
  checked(
    typeof method === 'string' && /^[A-Za-z]+$/.test(method),
    method,
    where,
    'request.method must be a method name',
  );
  const url = own(r, 'url');
  checked(
    isHttpUrl(url),
    url,
    where,
    `request.url must be an absolute http(s) URL, got ${JSON.stringify(url ?? null)}`,
  );
  const pairs = (list: unknown, what: string): Array<[string, unknown]> => {
    checked(Array.isArray(list ?? []), list, where, `${what} must be a list of {name, value}`);
    return ((list ?? []) as unknown[]).flatMap((h) => {
      const name = isObject(h) ? own(h, 'name') : undefined;
      checked(typeof name === 'string', name, where, `${what} must be a list of {name, value}`);
      // HTTP/2 pseudo-headers (:authority, :path) are the request line's, not headers.
      return (name as string).startsWith(':') ? [] : [[name as string, own(h as Obj, 'value')]];
    });
  };
  const post = own(r, 'postData');
  const body = isObject(post) ? own(post, 'text') : undefined;
  checked(body === undefined || typeof body === 'string', body, where, 'request.postData.text must be a string');
  const response = own(e, 'response');
  checked(isObject(response), response, where, 'response must be an object');
  const a = response as Obj;
  const status = own(a, 'status');
  checked(
    Number.isInteger(status) && (status as number) >= 0 && (status as number) <= 599,
    status,
    where,
    'response.status must be an integer',
  );
  let answer: RecordedAnswer | undefined;
  // Status 0: the browser got no answer (a failed or blocked request).
  if (status !== 0) {
    const content = own(a, 'content');
    const text = isObject(content) ? own(content, 'text') : undefined;
    checked(text === undefined || typeof text === 'string', text, where, 'response.content.text must be a string');
    const base64 = isObject(content) && own(content, 'encoding') === 'base64';
    answer = {
      status: status as number,
      headers: headersFrom(pairs(own(a, 'headers'), 'response.headers'), `${where} response.headers`),
      body:
        text === undefined ? '' : base64 ? Buffer.from(text as string, 'base64').toString('utf8') : (text as string),
    };
  }
  return {
    at,
    request: {
      method: (method as string).toUpperCase(),
      url: url as string,
      headers: headersFrom(pairs(own(r, 'headers'), 'request.headers'), `${where} request.headers`),
      body: body as string | undefined,
    },
    response: answer,
    ...(answer ? {} : errorOf(own(a, '_error'))),
    source: where,
  };
}

const mib = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;

async function* chunks(path: string): AsyncGenerator<Buffer> {
  const stream = createReadStream(path);
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch (error) {
    throw new TrafficError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** The lines of a file as Buffers, split on LF (a character of several bytes is never cut), each at most `max` bytes. */
async function* lines(path: string, max: number): AsyncGenerator<[Buffer, number]> {
  let held: Buffer[] = [];
  let size = 0;
  let number = 0;
  const name = basename(path);
  for await (const chunk of chunks(path)) {
    let from = 0;
    for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, from)) {
      if (size + at - from > max) throw new TrafficError(`${name} line ${number + 1} is over ${mib(max)}`);
      held.push(chunk.subarray(from, at));
      yield [Buffer.concat(held), ++number];
      held = [];
      size = 0;
      from = at + 1;
    }
    size += chunk.length - from;
    if (size > max) throw new TrafficError(`${name} line ${number + 1} is over ${mib(max)}`);
    held.push(chunk.subarray(from));
  }
  if (size > 0) yield [Buffer.concat(held), ++number];
}

async function* readNdjson(path: string, max: number): AsyncGenerator<RecordedExchange> {
  const name = basename(path);
  for await (const [bytes, number] of lines(path, max)) {
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') continue;
    const where = `${name} line ${number}`;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new TrafficError(`${where}: not JSON (${(error as Error).message})`);
    }
    yield fromLine(value, where);
  }
}

/**
 * The entries of a HAR file, streaming: a scanner over the bytes tracks strings and nesting, finds the array at
 * `log.entries`, and hands each element's bytes (at most `max`) to JSON.parse alone. Nothing outside it is kept but
 * the key being read (at most 256 bytes).
 */
const maxDepth = 256;

async function* readHar(path: string, max: number): AsyncGenerator<RecordedExchange> {
  const name = basename(path);
  // The keys of the open objects, by depth; the depth of the entries array once found.
  const keys: Array<string | undefined> = [];
  const stack: number[] = []; // 123 `{` or 91 `[` per open container
  let inString = false;
  let escaped = false;
  let key: number[] | undefined; // the bytes of a string read at an object's key position
  let expectKey = false;
  let entriesDepth = -1;
  let entry: Buffer[] = [];
  let entryStart = -1; // where the current entry starts in the current chunk (-1: not in one)
  let entrySize = 0;
  let count = 0;
  let sawEntries = false;
  const parse = (bytes: Buffer) => {
    const where = `${name} entry ${++count}`;
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      throw new TrafficError(`${where}: not JSON (${(error as Error).message})`);
    }
    return fromEntry(value, where);
  };
  for await (const chunk of chunks(path)) {
    const out: RecordedExchange[] = [];
    if (entryStart === -2) entryStart = 0; // an entry goes on from the chunk before
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (inString) {
        if (key && key.length < 256) key.push(c);
        if (escaped) escaped = false;
        else if (c === 92) escaped = true;
        else if (c === 34) {
          inString = false;
          if (key) {
            key.pop();
            keys[stack.length] = Buffer.from(key).toString('utf8');
            key = undefined;
          }
        }
        continue;
      }
      const inEntries = entriesDepth >= 0 && stack.length === entriesDepth;
      if (c === 34) {
        if (inEntries && entryStart < 0)
          throw new TrafficError(
            `${name} entry ${count + 1}: an entry must be an object {startedDateTime, request, response}`,
          );
        inString = true;
        if (expectKey && stack.at(-1) === 123) key = [];
        expectKey = false;
      } else if (c === 123 || c === 91) {
        if (inEntries && entryStart < 0) {
          if (c === 91)
            throw new TrafficError(
              `${name} entry ${count + 1}: an entry must be an object {startedDateTime, request, response}`,
            );
          entryStart = i;
        }
        // The array under log.entries: depth 2 (the root object, then log).
        if (c === 91 && stack.length === 2 && keys[1] === 'log' && keys[2] === 'entries') {
          entriesDepth = 3;
          sawEntries = true;
        }
        // A hostile file nests without end: a HAR entry is a few levels deep.
        if (stack.length >= maxDepth) throw new TrafficError(`${name}: nested deeper than ${maxDepth} levels`);
        stack.push(c);
        expectKey = c === 123;
      } else if (c === 125 || c === 93) {
        stack.pop();
        if (entriesDepth >= 0 && stack.length === entriesDepth - 1) entriesDepth = -1; // the entries array ended
        if (entriesDepth >= 0 && stack.length === entriesDepth && entryStart >= 0) {
          entry.push(chunk.subarray(entryStart, i + 1));
          entrySize += i + 1 - entryStart;
          if (entrySize > max) throw new TrafficError(`${name} entry ${count + 1} is over ${mib(max)}`);
          out.push(parse(Buffer.concat(entry)));
          entry = [];
          entrySize = 0;
          entryStart = -1;
        }
      } else if (c === 44) {
        expectKey = stack.at(-1) === 123;
      } else if (inEntries && entryStart < 0 && c > 32) {
        throw new TrafficError(
          `${name} entry ${count + 1}: an entry must be an object {startedDateTime, request, response}`,
        );
      }
    }
    if (entryStart >= 0) {
      entry.push(chunk.subarray(entryStart));
      entrySize += chunk.length - entryStart;
      if (entrySize > max) throw new TrafficError(`${name} entry ${count + 1} is over ${mib(max)}`);
      entryStart = -2;
    }
    yield* out;
  }
  if (!sawEntries) throw new TrafficError(`${name}: not a HAR file: no log.entries array`);
  if (stack.length > 0 || inString)
    throw new TrafficError(`${name}: the file ends inside entry ${count + 1} or after it (cut short?)`);
}

/** The exchanges of a file, one at a time, in file order (HAR writers record in start order; so does the proxy). */
export function readTraffic(
  path: string,
  format?: TrafficFormat,
  limits: { maxBytes?: number } = {},
): AsyncGenerator<RecordedExchange> {
  const max = limits.maxBytes ?? maxExchangeBytes;
  return trafficFormat(path, format) === 'har' ? readHar(path, max) : readNdjson(path, max);
}
