// NDJSON: one exchange a line, {startedAt, request, response, error}, as the proxy and most loggers write it. A line is
// held alone, up to the limit, split on the byte LF so that a character of several bytes is never cut.
import { basename } from 'node:path';
import type { RecordedExchange } from '../../ground/model.ts';
import { chunks, errorOf, exchanges, fail, headersFrom, isStatus, methodAndUrl, type Obj } from './format.ts';
import { maxExchangeBytes, object, own, shown, size, text, TrafficError, type TrafficReader } from './format.ts';

const shape = 'an exchange must be a JSON object {startedAt, request, response}';
function fromLine(o: Obj, at: number, where: string): RecordedExchange {
  const r = object(own(o, 'request'), where, 'request must be an object {method, url, headers, body}');
  const headers = (v: unknown, field: string) =>
    headersFrom(Object.entries(object(v ?? {}, where, `${field} must be an object of strings`)), where, field);
  const request = {
    ...methodAndUrl(r, where),
    headers: headers(own(r, 'headers'), 'request.headers'),
    body: text(own(r, 'body') ?? undefined, where, 'request.body'),
  };
  // `reset: true`: the suite's reset hook (the rules over time start again).
  const mark = { ...errorOf(own(o, 'error')), source: where, ...(own(o, 'reset') === true ? { reset: true } : {}) };
  const a = own(o, 'response') ?? undefined;
  if (a === undefined) return { at, request, response: undefined, ...mark };
  const answer = object(a, where, 'response must be an object {status, headers, body}, or null for no answer');
  const status = own(answer, 'status');
  if (!isStatus(status)) fail(where, `response.status must be an integer from 100 to 599, got ${shown(status)}`);
  const answerHeaders = headers(own(answer, 'headers'), 'response.headers');
  const body = text(own(answer, 'body') ?? undefined, where, 'response.body') ?? '';
  return { at, request, response: { status, headers: answerHeaders, body }, ...mark };
}

/** The lines that are not blank, with their places, each at most `max` bytes: a longer one fails as it passes that. */
async function* lines(path: string, max = maxExchangeBytes): AsyncGenerator<[string, string]> {
  const name = basename(path);
  let held: Buffer[] = []; // the start of a line that goes on into the next chunk
  let heldSize = 0;
  let number = 0;
  const tooLong = () => new TrafficError(`${name} line ${number + 1} is over ${size(max)}`);
  function* line(bytes: Buffer): Generator<[string, string]> {
    let text = bytes.toString('utf8').replace(/\r$/, '');
    if (++number === 1) text = text.replace(/^\uFEFF/, ''); // a byte order mark some editors write
    if (text.trim() !== '') yield [text, `${name} line ${number}`];
  }
  for await (const chunk of chunks(path)) {
    let from = 0;
    for (let end = chunk.indexOf(10); end >= 0; end = chunk.indexOf(10, from)) {
      if (heldSize + end - from > max) throw tooLong();
      yield* line(heldSize === 0 ? chunk.subarray(from, end) : Buffer.concat([...held, chunk.subarray(from, end)]));
      [held, heldSize, from] = [[], 0, end + 1];
    }
    heldSize += chunk.length - from;
    if (heldSize > max) throw tooLong();
    if (from < chunk.length) held.push(chunk.subarray(from));
  }
  if (heldSize > 0) yield* line(Buffer.concat(held)); // the last line, without its LF
}

export const ndjson: TrafficReader<'ndjson'> = {
  name: 'ndjson',
  detect: (path) => /\.(ndjson|jsonl)$/i.test(path),
  read: (path, limits) => exchanges(lines(path, limits?.maxBytes), shape, 'startedAt', fromLine),
};
