// JSON as the sandbox reads and writes it: nesting measured before parsing, and int64 identifiers
// kept exact past 2^53 both ways (read as BigInts of the digits sent, written back as digits).
import { randomBytes } from 'node:crypto';

/** Deepest nesting of arrays and objects accepted; the contract's deepest shape is far shallower. */
export const maxJsonDepth = 64;

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
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === backslash)
        i++; // skip the escaped character
      else if (c === quote) inString = false;
    } else if (c === quote) inString = true;
    else if (c === openBracket || c === openBrace) max = Math.max(max, ++depth);
    else if (c === closeBracket || c === closeBrace) depth--;
  }
  return max;
}

/**
 * The path of the first value in `value` that passes `test`, as its segments. Every request is
 * walked, so a path is built only on the way back from a find.
 */
export function findValue(value: unknown, test: (leaf: unknown) => boolean): Array<string | number> | undefined {
  if (test(value)) return [];
  if (value === null || typeof value !== 'object') return undefined;
  for (const key of Object.keys(value)) {
    const found = findValue((value as Record<string, unknown>)[key], test);
    if (found) return [Array.isArray(value) ? Number(key) : key, ...found];
  }
  return undefined;
}

/** An integer JSON.parse has rounded: a JavaScript number holds integers exactly up to 2^53 - 1. */
export const isRounded = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v);
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
export const outsideInt64 = (v: unknown) => typeof v === 'bigint' && (v < int64Min || v > int64Max);
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
export function exactIntegers(text: string): unknown {
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
      if (integerLiteral.test(token) && isRounded(Number(token)))
        out.push(text.slice(from, i), JSON.stringify(`${mark}${token}`));
      else out.push(text.slice(from, i + token.length));
      from = i + token.length;
      i = from - 1;
    }
  }
  out.push(text.slice(from));
  return JSON.parse(out.join(''), (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(mark) ? BigInt(value.slice(mark.length)) : value,
  );
}

/** A path as the problem's detail writes it: `content.items[2].id`, or `(body)` for the body itself. */
export const pathText = (segments: Array<string | number>) =>
  segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('') || '(body)';

/** JSON of an answer; an int64 identifier held as a BigInt is written as its digits. */
export function toJson(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    const mark = nonceMark();
    const marked = JSON.stringify(body, (_key, value: unknown) =>
      typeof value === 'bigint' ? `${mark}${value}` : value,
    );
    // Each marked string, `"\u0000<nonce>:<digits>"`, becomes its digits.
    return marked
      .split(JSON.stringify(mark).slice(0, -1))
      .map((part, i) => (i === 0 ? part : part.replace(/^(-?\d+)"/, '$1')))
      .join('');
  }
}
