// HAR 1.2 as browsers (Chrome's export, Playwright's recordHar) and the recorder write it. A linear scanner finds the
// array at `log.entries` and hands on one entry at a time, keeping nothing else but the keys of the open objects; it is
// written here as streaming JSON libraries say they are not for hostile input, and a HAR needs one array found and split.
import { basename } from 'node:path';
import type { RecordedExchange } from '../../ground/model.ts';
import { chunks, errorOf, exchanges, fail, headersFrom, isObject, isStatus, methodAndUrl, type Obj } from './format.ts';
import { maxExchangeBytes, object, own, shown, size, text, TrafficError, type TrafficReader } from './format.ts';

const shape = 'an entry must be an object {startedDateTime, request, response}';
function fromEntry(e: Obj, at: number, where: string): RecordedExchange {
  // Headers are a list of {name, value}; HTTP/2 pseudo-headers (`:authority`, `:path`) are left out.
  const headers = (o: Obj, field: string) => {
    const list = own(o, 'headers') ?? [];
    if (!Array.isArray(list)) fail(where, `${field} must be a list of {name, value}, got ${shown(list)}`);
    const pairs = list.flatMap((h): Array<[string, unknown]> => {
      const name = isObject(h) ? own(h, 'name') : undefined;
      if (typeof name !== 'string') fail(where, `${field} must be a list of {name, value}, got ${shown(h)} in it`);
      return name.startsWith(':') ? [] : [[name, own(h as Obj, 'value')]];
    });
    return headersFrom(pairs, where, field);
  };
  const r = object(own(e, 'request'), where, 'request must be an object {method, url, headers}');
  const post = own(r, 'postData');
  const request = {
    ...methodAndUrl(r, where),
    headers: headers(r, 'request.headers'),
    body: isObject(post) ? text(own(post, 'text'), where, 'request.postData.text') : undefined,
  };
  // `_reset: true`: the suite's reset hook (the rules over time start again).
  const mark = { source: where, ...(own(e, '_reset') === true ? { reset: true } : {}) };
  const a = object(own(e, 'response'), where, 'response must be an object {status, headers, content}');
  const status = own(a, 'status');
  if (status !== 0 && !isStatus(status))
    fail(where, `response.status must be an integer from 100 to 599 (or 0: no answer), got ${shown(status)}`);
  // Status 0: the browser got no answer (a failed or blocked request); Chrome says why in `_error`.
  if (status === 0) return { at, request, response: undefined, ...errorOf(own(a, '_error')), ...mark };
  const c = own(a, 'content');
  const content = isObject(c) ? c : {};
  const raw = text(own(content, 'text'), where, 'response.content.text') ?? '';
  const body = own(content, 'encoding') === 'base64' ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  return { at, request, response: { status, headers: headers(a, 'response.headers'), body }, ...mark };
}

// An entry is a few levels deep; a hostile file of brackets would otherwise grow the stack without end.
const maxDepth = 256;
// The keys the scanner keeps to know where it is (`log`, `entries`); a longer key is only skipped.
const maxKeyBytes = 256;

function keyText(bytes: number[]): string | undefined {
  try {
    return JSON.parse(`"${Buffer.from(bytes).toString('utf8')}"`) as string; // escapes read as JSON.parse would
  } catch {}
}

/** The entries' JSON texts and places, each at most `max` bytes. */
async function* entryTexts(path: string, max = maxExchangeBytes): AsyncGenerator<[string, string]> {
  const name = basename(path);
  const stack: number[] = []; // per open container: 123 `{` or 91 `[`
  const keys: Array<string | undefined> = []; // keys[d]: the last key read in the object at depth d
  let inString = false;
  let escaped = false;
  let key: number[] | undefined; // the bytes of the key being read, outside the entries
  let expectKey = false;
  let entriesDepth = -1; // the depth of the entries' elements while inside log.entries
  let sawEntries = false;
  let start = -1; // where the entry being read starts in this chunk (0: in one before), -1 between entries
  let parts: Buffer[] = []; // the entry's bytes from the chunks before this one
  let partsSize = 0;
  let count = 0;
  const notAnEntry = () => new TrafficError(`${name} entry ${count + 1}: ${shape}`);
  const tooLarge = () => new TrafficError(`${name} entry ${count + 1} is over ${size(max)}`);
  for await (const chunk of chunks(path)) {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 92) escaped = true;
        else if (c === 34) {
          inString = false;
          if (key) keys[stack.length] = key.length > maxKeyBytes ? undefined : keyText(key);
          key = undefined;
          continue;
        }
        if (key && key.length <= maxKeyBytes) key.push(c); // a byte past the most: too long
        continue;
      }
      // Directly inside log.entries, between elements: only an object, a comma, the end or white space.
      const between = stack.length === entriesDepth && start < 0;
      if (between && c !== 123 && c !== 44 && c !== 93 && c !== 125 && c > 32) throw notAnEntry();
      if (c === 34) {
        inString = true;
        key = expectKey && entriesDepth < 0 ? [] : undefined;
        expectKey = false;
      } else if (c === 123 || c === 91) {
        if (between) start = i;
        if (stack.length >= maxDepth) throw new TrafficError(`${name}: nested deeper than ${maxDepth} levels`);
        // A key is only read in an object: the top value and `log` are objects when these keys are theirs.
        if (c === 91 && stack.length === 2 && keys[1] === 'log' && keys[2] === 'entries') {
          // JSON.parse would keep the last of two; reading both would judge exchanges it drops.
          if (sawEntries) throw new TrafficError(`${name}: not a HAR file: log.entries appears twice`);
          sawEntries = true;
          entriesDepth = 3;
        }
        stack.push(c);
        keys[stack.length] = undefined; // a new object: no key read in it yet
        expectKey = c === 123;
      } else if (c === 125 || c === 93) {
        stack.pop();
        if (stack.length < entriesDepth)
          entriesDepth = -1; // the entries array ended
        else if (start >= 0 && stack.length === entriesDepth) {
          if (partsSize + i + 1 - start > max) throw tooLarge();
          const bytes = Buffer.concat([...parts, chunk.subarray(start, i + 1)]);
          [parts, partsSize, start] = [[], 0, -1];
          yield [bytes.toString('utf8'), `${name} entry ${++count}`];
        }
      } else if (c === 44) expectKey = stack.at(-1) === 123;
    }
    if (start >= 0) {
      partsSize += chunk.length - start;
      if (partsSize > max) throw tooLarge();
      parts.push(chunk.subarray(start));
      start = 0;
    }
  }
  if (!sawEntries) throw new TrafficError(`${name}: not a HAR file: no log.entries array`);
  if (start >= 0) throw new TrafficError(`${name}: the file ends inside entry ${count + 1} (cut short?)`);
  if (entriesDepth >= 0 || stack.length > 0)
    throw new TrafficError(`${name}: the file ends before its last bracket, after entry ${count} (cut short?)`);
}

export const har: TrafficReader<'har'> = {
  name: 'har',
  detect: (path) => /\.har$/i.test(path),
  read: (path, limits) => exchanges(entryTexts(path, limits?.maxBytes), shape, 'startedDateTime', fromEntry),
};
