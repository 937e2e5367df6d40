// Reading recorded traffic, streaming, with bounded memory: NDJSON (one exchange per line) and HAR 1.2 (the entries of
// `log.entries`, one at a time). A line or an entry is held alone, up to `maxExchangeBytes`, and checked field by
// field; the first thing wrong ends the reading with its place and what was expected. The HAR scanner is written here:
// streaming JSON libraries say they are not for hostile input, and a HAR's shape needs one array found and split.
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { maxExchangeBytes, type RecordedAnswer, type RecordedExchange, TrafficError } from './exchange.ts';

export type TrafficFormat = 'har' | 'ndjson';

/** The format of a file: as given, else HAR for a `.har` name and NDJSON for any other. */
export const trafficFormat = (path: string, format?: TrafficFormat): TrafficFormat =>
  format ?? (/\.har$/i.test(path) ? 'har' : 'ndjson');

/** How much one line or entry may hold; tests lower it. */
export interface TrafficLimits {
  maxBytes?: number;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
// Own properties only: a key such as `__proto__` or `constructor` must not reach Object.prototype.
const own = (o: Obj, key: string) => (Object.hasOwn(o, key) ? o[key] : undefined);

/** A value as an error message shows it: short, whatever its size. */
const shown = (v: unknown): string => {
  if (v === undefined) return 'nothing';
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  if (Array.isArray(v)) return 'a list';
  return isObject(v) ? 'an object' : String(v);
};

function fail(where: string, what: string): never {
  throw new TrafficError(`${where}: ${what}`);
}

/** Headers with lower-case names, several of one name joined with `, `. A Map first: no key can reach a prototype. */
function headersFrom(pairs: Iterable<[string, unknown]>, where: string, field: string): Record<string, string> {
  const out = new Map<string, string>();
  for (const [name, raw] of pairs) {
    const value = Array.isArray(raw) && raw.every((v) => typeof v === 'string') ? raw.join(', ') : raw;
    if (typeof value !== 'string')
      fail(where, `${field} ${JSON.stringify(name)} must be a string (or a list of strings), got ${shown(raw)}`);
    const key = name.toLowerCase();
    const before = out.get(key);
    out.set(key, before === undefined ? value : `${before}, ${value}`);
  }
  // Object.fromEntries defines own properties: `__proto__` stays a header, the prototype untouched.
  return Object.fromEntries(out);
}

// RFC 3339's profile of ISO 8601, zone required: a time without one would be read in this machine's zone.
const dateTimePattern = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

function dateTime(v: unknown, where: string, field: string): number {
  const m = typeof v === 'string' ? dateTimePattern.exec(v) : null;
  const at = m ? Date.parse((v as string).toUpperCase()) : Number.NaN;
  // Date.parse takes 2026-02-30 for March 2: the day must exist in its month.
  const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).getUTCDate() : 0;
  if (Number.isNaN(at) || day !== Number(m?.[3]))
    fail(where, `${field} must be an ISO 8601 date-time, got ${shown(v)} (with its zone: 2026-11-20T10:00:00Z)`);
  return at;
}

// An RFC 9110 token. Upper-cased when read: loggers (axios) write `post` for what went out as POST.
const methodPattern = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
function method(v: unknown, where: string): string {
  if (typeof v !== 'string' || !methodPattern.test(v))
    fail(where, `request.method must be a string, a method name such as GET, got ${shown(v)}`);
  return v.toUpperCase();
}

function httpUrl(v: unknown, where: string): string {
  const ok = typeof v === 'string' && URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol);
  if (!ok) fail(where, `request.url must be an absolute http(s) URL, got ${shown(v)}`);
  return v as string;
}

function object(v: unknown, where: string, what: string): Obj {
  if (!isObject(v)) fail(where, `${what}, got ${shown(v)}`);
  return v;
}

function text(v: unknown, where: string, field: string): string | undefined {
  if (v !== undefined && typeof v !== 'string') fail(where, `${field} must be a string, got ${shown(v)}`);
  return v as string | undefined;
}

/** Why no answer came, when the recording says (a string). */
const errorOf = (v: unknown) => (typeof v === 'string' && v !== '' ? { error: v.slice(0, 500) } : {});

/** An exchange from one NDJSON line's value. */
function fromLine(v: unknown, where: string): RecordedExchange {
  const o = object(v, where, 'an exchange must be a JSON object {startedAt, request, response}');
  const at = dateTime(own(o, 'startedAt'), where, 'startedAt');
  const r = object(own(o, 'request'), where, 'request must be an object {method, url, headers, body}');
  const request = {
    method: method(own(r, 'method'), where),
    url: httpUrl(own(r, 'url'), where),
    headers: headersFrom(
      Object.entries(object(own(r, 'headers') ?? {}, where, 'request.headers must be an object of strings')),
      where,
      'request.headers',
    ),
    body: text(own(r, 'body') ?? undefined, where, 'request.body'),
  };
  const a = own(o, 'response') ?? undefined;
  let response: RecordedAnswer | undefined;
  if (a !== undefined) {
    const answer = object(a, where, 'response must be an object {status, headers, body}, or null for no answer');
    const status = own(answer, 'status');
    if (!Number.isInteger(status) || (status as number) < 100 || (status as number) > 599)
      fail(where, `response.status must be an integer from 100 to 599, got ${shown(status)}`);
    response = {
      status: status as number,
      headers: headersFrom(
        Object.entries(object(own(answer, 'headers') ?? {}, where, 'response.headers must be an object of strings')),
        where,
        'response.headers',
      ),
      body: text(own(answer, 'body') ?? undefined, where, 'response.body') ?? '',
    };
  }
  return { at, request, response, ...errorOf(own(o, 'error')), source: where };
}

/** The name/value pairs of a HAR headers list, HTTP/2 pseudo-headers (`:authority`, `:path`) left out. */
function harPairs(list: unknown, where: string, field: string): Array<[string, unknown]> {
  if (list !== undefined && list !== null && !Array.isArray(list))
    fail(where, `${field} must be a list of {name, value}, got ${shown(list)}`);
  const pairs: Array<[string, unknown]> = [];
  for (const h of (list ?? []) as unknown[]) {
    const name = isObject(h) ? own(h, 'name') : undefined;
    if (typeof name !== 'string') fail(where, `${field} must be a list of {name, value}, got ${shown(h)} in it`);
    if (!name.startsWith(':')) pairs.push([name, own(h as Obj, 'value')]);
  }
  return pairs;
}

/** An exchange from one HAR entry. */
function fromEntry(v: unknown, where: string): RecordedExchange {
  const e = object(v, where, 'an entry must be an object {startedDateTime, request, response}');
  const at = dateTime(own(e, 'startedDateTime'), where, 'startedDateTime');
  const r = object(own(e, 'request'), where, 'request must be an object {method, url, headers}');
  const post = own(r, 'postData');
  const request = {
    method: method(own(r, 'method'), where),
    url: httpUrl(own(r, 'url'), where),
    headers: headersFrom(harPairs(own(r, 'headers'), where, 'request.headers'), where, 'request.headers'),
    body: isObject(post) ? text(own(post, 'text'), where, 'request.postData.text') : undefined,
  };
  const a = object(own(e, 'response'), where, 'response must be an object {status, headers, content}');
  const status = own(a, 'status');
  if (!Number.isInteger(status) || (status !== 0 && ((status as number) < 100 || (status as number) > 599)))
    fail(where, `response.status must be an integer from 100 to 599 (or 0: no answer), got ${shown(status)}`);
  // Status 0: the browser got no answer (a failed or blocked request); Chrome says why in `_error`.
  if (status === 0) return { at, request, response: undefined, ...errorOf(own(a, '_error')), source: where };
  const content = own(a, 'content');
  const body = isObject(content) ? text(own(content, 'text'), where, 'response.content.text') : undefined;
  const base64 = isObject(content) && own(content, 'encoding') === 'base64';
  const response: RecordedAnswer = {
    status: status as number,
    headers: headersFrom(harPairs(own(a, 'headers'), where, 'response.headers'), where, 'response.headers'),
    body: body === undefined ? '' : base64 ? Buffer.from(body, 'base64').toString('utf8') : body,
  };
  return { at, request, response, source: where };
}

const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;

/** The file's bytes, chunk by chunk; the stream pauses while the consumer works on a chunk. */
async function* chunks(path: string): AsyncGenerator<Buffer> {
  const stream = createReadStream(path);
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch (error) {
    throw new TrafficError(`cannot read ${path}: ${(error as Error).message}`);
  } finally {
    stream.destroy();
  }
}

/**
 * The lines of a file as Buffers with their numbers, split on the byte LF (so a character of several bytes is never
 * cut), each at most `max` bytes: a longer line fails as soon as it passes the limit, never held whole.
 */
async function* lines(path: string, max: number): AsyncGenerator<[Buffer, number]> {
  const name = basename(path);
  let held: Buffer[] = []; // the start of a line that goes on into the next chunk
  let heldSize = 0;
  let number = 0;
  const tooLong = () => new TrafficError(`${name} line ${number + 1} is over ${size(max)}`);
  for await (const chunk of chunks(path)) {
    let from = 0;
    for (let end = chunk.indexOf(10); end >= 0; end = chunk.indexOf(10, from)) {
      if (heldSize + end - from > max) throw tooLong();
      const line = heldSize === 0 ? chunk.subarray(from, end) : Buffer.concat([...held, chunk.subarray(from, end)]);
      held = [];
      heldSize = 0;
      from = end + 1;
      yield [line, ++number];
    }
    heldSize += chunk.length - from;
    if (heldSize > max) throw tooLong();
    if (from < chunk.length) held.push(chunk.subarray(from));
  }
  if (heldSize > 0) yield [Buffer.concat(held), ++number]; // the last line, without its LF
}

async function* readNdjson(path: string, max: number): AsyncGenerator<RecordedExchange> {
  const name = basename(path);
  for await (const [bytes, number] of lines(path, max)) {
    let line = bytes.toString('utf8');
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (number === 1 && line.startsWith('\uFEFF')) line = line.slice(1); // a byte order mark some editors write
    if (line.trim() === '') continue;
    const where = `${name} line ${number}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      fail(where, `not JSON (${(error as Error).message})`);
    }
    yield fromLine(value, where);
  }
}

// A HAR entry is a few levels deep; a hostile file of brackets would otherwise grow the stack without end.
const maxDepth = 256;
// The keys the scanner keeps to know where it is (`log`, `entries`); a longer key is only skipped.
const maxKeyBytes = 256;

const keyText = (bytes: number[]): string | undefined => {
  try {
    return JSON.parse(`"${Buffer.from(bytes).toString('utf8')}"`) as string; // escapes read as JSON.parse would
  } catch {
    return undefined;
  }
};

/**
 * The entries of a HAR file, streaming: a linear scanner over the bytes tracks strings, escapes and nesting, finds the
 * array at `log.entries`, and hands each element's bytes (at most `max`) to JSON.parse alone. Nothing outside it is
 * kept but the keys of the open objects (each at most 256 bytes, at most 256 deep).
 */
async function* readHar(path: string, max: number): AsyncGenerator<RecordedExchange> {
  const name = basename(path);
  const stack: number[] = []; // per open container: 123 `{` or 91 `[`
  const keys: Array<string | undefined> = []; // keys[d]: the last key read in the object at depth d
  let inString = false;
  let escaped = false;
  let key: number[] | undefined; // the bytes of the key being read, outside the entries
  let keyOverflow = false;
  let expectKey = false;
  let entriesDepth = -1; // the depth of the entries' elements while inside log.entries
  let sawEntries = false;
  let inEntry = false;
  let parts: Buffer[] = []; // the entry's bytes from the chunks before this one
  let partsSize = 0;
  let count = 0;
  const notAnEntry = () =>
    new TrafficError(`${name} entry ${count + 1}: an entry must be an object {startedDateTime, request, response}`);
  const tooLarge = () => new TrafficError(`${name} entry ${count + 1} is over ${size(max)}`);
  for await (const chunk of chunks(path)) {
    let start = inEntry ? 0 : -1; // where the current entry starts in this chunk
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 92) escaped = true;
        else if (c === 34) {
          inString = false;
          if (key) keys[stack.length] = keyOverflow ? undefined : keyText(key);
          key = undefined;
          continue;
        }
        if (key && key.length < maxKeyBytes) key.push(c);
        else if (key) keyOverflow = true;
        continue;
      }
      const between = stack.length === entriesDepth && !inEntry; // directly inside log.entries, between elements
      if (c === 34) {
        if (between) throw notAnEntry();
        inString = true;
        key = expectKey && entriesDepth < 0 ? [] : undefined;
        keyOverflow = false;
        expectKey = false;
      } else if (c === 123 || c === 91) {
        if (between) {
          if (c === 91) throw notAnEntry();
          inEntry = true;
          start = i;
        }
        if (stack.length >= maxDepth) throw new TrafficError(`${name}: nested deeper than ${maxDepth} levels`);
        const entries = c === 91 && stack.length === 2 && stack[0] === 123 && stack[1] === 123 && keys[1] === 'log';
        stack.push(c);
        if (entries && keys[2] === 'entries') {
          // JSON.parse would keep the last of two; reading both would judge exchanges it drops.
          if (sawEntries) throw new TrafficError(`${name}: not a HAR file: log.entries appears twice`);
          sawEntries = true;
          entriesDepth = 3;
        }
        keys[stack.length] = undefined; // a new object: no key read in it yet
        expectKey = c === 123;
      } else if (c === 125 || c === 93) {
        stack.pop();
        if (stack.length < entriesDepth)
          entriesDepth = -1; // the entries array ended
        else if (inEntry && stack.length === entriesDepth) {
          if (partsSize + i + 1 - start > max) throw tooLarge();
          const bytes =
            partsSize === 0 ? chunk.subarray(start, i + 1) : Buffer.concat([...parts, chunk.subarray(start, i + 1)]);
          parts = [];
          partsSize = 0;
          inEntry = false;
          const where = `${name} entry ${++count}`;
          let value: unknown;
          try {
            value = JSON.parse(bytes.toString('utf8'));
          } catch (error) {
            fail(where, `not JSON (${(error as Error).message})`);
          }
          yield fromEntry(value, where);
        }
      } else if (c === 44) {
        expectKey = stack.at(-1) === 123;
      } else if (between && c > 32) {
        throw notAnEntry();
      }
    }
    if (inEntry) {
      partsSize += chunk.length - start;
      if (partsSize > max) throw tooLarge();
      parts.push(chunk.subarray(start));
    }
  }
  if (!sawEntries) throw new TrafficError(`${name}: not a HAR file: no log.entries array`);
  if (inEntry) throw new TrafficError(`${name}: the file ends inside entry ${count + 1} (cut short?)`);
  if (entriesDepth >= 0 || stack.length > 0)
    throw new TrafficError(`${name}: the file ends before its last bracket, after entry ${count} (cut short?)`);
}

/**
 * The exchanges of a file, one at a time, in file order: nothing is sorted (HAR writers and the proxy record in start
 * order; `merged` in run.ts orders across files). The file is read as the exchanges are taken, never ahead.
 */
export function readTraffic(
  path: string,
  format?: TrafficFormat,
  limits: TrafficLimits = {},
): AsyncGenerator<RecordedExchange> {
  const max = limits.maxBytes ?? maxExchangeBytes;
  return trafficFormat(path, format) === 'har' ? readHar(path, max) : readNdjson(path, max);
}
