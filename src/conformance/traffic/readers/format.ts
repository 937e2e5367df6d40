// What a traffic reader is, and what the formats share: exchanges made of lines or entries, and the field readers.
import { createReadStream } from 'node:fs';
import { maxAnswerBytes, type RecordedExchange } from '../../ground/model.ts';

/** A file that cannot be read as traffic: where (line or entry), and what is wrong there. Exit 2. */
export class TrafficError extends Error {}

/** The most of one line or entry a reader holds: one answer the suite reads (16 MiB) each side, and room for the rest. */
export const maxExchangeBytes = 2 * maxAnswerBytes + 8 * 1024 * 1024;

/** How much one line or entry may hold; tests lower it. */
export type TrafficLimits = { maxBytes?: number };

export interface TrafficReader<Name extends string = string> {
  name: Name;
  /** Whether a file of this name is in this format (the last of the readers takes the files none claims). */
  detect(path: string): boolean;
  /** The exchanges in file order, never sorted (`merged` in run.ts orders), read as they are taken, never ahead. */
  read(path: string, limits?: TrafficLimits): AsyncGenerator<RecordedExchange>;
}

export type Obj = Record<string, unknown>;
export const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
// Own properties only: a key such as `__proto__` or `constructor` must not reach Object.prototype.
export const own = (o: Obj, key: string) => (Object.hasOwn(o, key) ? o[key] : undefined);

/** A value as an error message shows it: short, whatever its size. */
export const shown = (v: unknown): string => {
  if (v === undefined) return 'nothing';
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  return Array.isArray(v) ? 'a list' : isObject(v) ? 'an object' : String(v);
};

export function fail(where: string, what: string): never {
  throw new TrafficError(`${where}: ${what}`);
}
export function object(v: unknown, where: string, what: string): Obj {
  if (!isObject(v)) fail(where, `${what}, got ${shown(v)}`);
  return v;
}
export function text(v: unknown, where: string, field: string): string | undefined {
  if (v !== undefined && typeof v !== 'string') fail(where, `${field} must be a string, got ${shown(v)}`);
  return v;
}

/** An HTTP status a recording may hold for an answer. */
export const isStatus = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 100 && (v as number) < 600;

/** Why no answer came, when the recording says (a string). */
export const errorOf = (v: unknown) => (typeof v === 'string' && v !== '' ? { error: v.slice(0, 500) } : {});

/** Headers with lower-case names, several of one name joined with `, `. A Map first: no key can reach a prototype. */
export function headersFrom(pairs: Iterable<[string, unknown]>, where: string, field: string): Record<string, string> {
  const out = new Map<string, string>();
  for (const [name, raw] of pairs) {
    const value = Array.isArray(raw) && raw.every((v) => typeof v === 'string') ? raw.join(', ') : raw;
    if (typeof value !== 'string')
      fail(where, `${field} ${JSON.stringify(name)} must be a string (or a list of strings), got ${shown(raw)}`);
    const key = name.toLowerCase();
    out.set(key, out.has(key) ? `${out.get(key)}, ${value}` : value);
  }
  return Object.fromEntries(out); // own properties: `__proto__` stays a header, the prototype untouched
}

// RFC 3339's profile of ISO 8601, zone required: a time without one would be read in this machine's zone.
const dateTimePattern = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
function timeOf(v: unknown): number | undefined {
  const m = typeof v === 'string' ? dateTimePattern.exec(v) : null;
  const at = m ? Date.parse((v as string).toUpperCase()) : Number.NaN;
  // Date.parse takes 2026-02-30 for March 2: the day must exist in its month.
  const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).getUTCDate() : 0;
  return Number.isNaN(at) || day !== Number(m?.[3]) ? undefined : at;
}

// A method is an RFC 9110 token, upper-cased when read: loggers (axios) write `post` for what went out as POST.
const methodPattern = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const isMethod = (m: unknown): m is string => typeof m === 'string' && methodPattern.test(m);
const isHttp = (url: string) => ['http:', 'https:'].includes(new URL(url).protocol);
export function methodAndUrl(r: Obj, where: string): { method: string; url: string } {
  const [method, url] = [own(r, 'method'), own(r, 'url')];
  if (!isMethod(method))
    fail(where, `request.method must be a string, a method name such as GET, got ${shown(method)}`);
  if (typeof url !== 'string' || !URL.canParse(url) || !isHttp(url))
    fail(where, `request.url must be an absolute http(s) URL, got ${shown(url)}`);
  return { method: method.toUpperCase(), url };
}

type Rest = (o: Obj, at: number, where: string) => RecordedExchange;
/**
 * The exchanges of a file's lines or entries ([JSON, where] each): objects (`shape`) with a start time (`time`) and the
 * rest read by `rest`. An absolute URL not http(s) (a browser's `blob:`, `data:`, `ws:`) is kept with nothing else of
 * it checked, the judge counting it outside the document; without a time it takes the one before, keeping file order.
 */
export async function* exchanges(items: AsyncIterable<[string, string]>, shape: string, time: string, rest: Rest) {
  let at = 0;
  for await (const [json, where] of items) {
    let v: unknown;
    try {
      v = JSON.parse(json);
    } catch (error) {
      fail(where, `not JSON (${(error as Error).message})`);
    }
    const o = object(v, where, shape);
    const r = own(o, 'request');
    const url = isObject(r) ? own(r, 'url') : undefined;
    const started = own(o, time);
    if (typeof url === 'string' && URL.canParse(url) && !isHttp(url)) {
      const m = own(r as Obj, 'method');
      const method = isMethod(m) ? m.toUpperCase() : 'GET';
      at = timeOf(started) ?? at;
      yield { at, request: { method, url, headers: {}, body: undefined }, response: undefined, source: where };
    } else {
      const why = `${time} must be an ISO 8601 date-time, got ${shown(started)} (with its zone: 2026-11-20T10:00:00Z)`;
      at = timeOf(started) ?? fail(where, why);
      yield rest(o, at, where);
    }
  }
}

export const size = (n: number) => (n >= 2 ** 20 ? `${Math.round(n / 2 ** 20)} MiB` : `${Math.round(n / 1024)} KiB`);
/** The file's bytes, chunk by chunk; the stream pauses while the consumer works on a chunk. */
export async function* chunks(path: string): AsyncGenerator<Buffer> {
  try {
    // A consumer that stops early ends this loop, and that closes the file.
    for await (const chunk of createReadStream(path)) yield chunk as Buffer;
  } catch (error) {
    throw new TrafficError(`cannot read ${path}: ${(error as Error).message}`);
  }
}
