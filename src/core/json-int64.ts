// JSON with int64 identifiers kept exact past 2^53 both ways, for every part of the project: an
// integer a JavaScript number cannot hold exactly is read as a BigInt of the digits sent, and a
// BigInt is written as its digits. Node 20's JSON.parse gives a reviver no source text, so the text
// is read once, by one JSON.parse: of the text itself when it holds no such integer (a test of one
// regular expression), or of the text with each such integer written as a marked string.

/** An integer JSON.parse has rounded: a JavaScript number holds integers exactly up to 2^53 - 1. */
export const isRounded = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v);

/** A BigInt no int64 holds (-2^63 to 2^63 - 1). */
export const outsideInt64 = (v: unknown) =>
  typeof v === 'bigint' && (v < -9223372036854775808n || v > 9223372036854775807n);

/**
 * Whether `text` may hold a number literal past 2^53 - 1: a run of 16 digits, or a literal with an
 * exponent (a number starts a value, after `:`, `,`, `[` or nothing). A string that looks so only
 * costs a scan; a text without a match is read by JSON.parse alone.
 */
const bigIntegerLike = /\d{16}|(?:^|[:,[])\s*-?\d+(?:\.\d+)?[eE]/;
export const mayHoldBigIntegers = (text: string) => bigIntegerLike.test(text);
/** A JSON number literal (no leading zeros, as JSON has it). */
const numberToken = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const literalParts = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** A prefix for strings that stand for BigInts while JSON is read or written: a nonce no input can guess. */
const nonceMark = () => `${crypto.randomUUID()}:`;

/**
 * The exact value of a number literal whose JavaScript value is an integer past 2^53 - 1, as the
 * digits of a BigInt; undefined when the literal is not an integer (9007199254740993.5). Work and
 * result are bounded: a finite number has at most 309 digits before its point.
 */
function exactDigits(token: string): string | undefined {
  const [, sign, whole, fraction = '', exponent = '0'] = literalParts.exec(token)!;
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  const shift = Number(exponent) - fraction.length;
  if (shift >= 0) return `${sign}${digits}${'0'.repeat(shift)}`;
  const kept = digits.slice(0, shift);
  return /^0*$/.test(digits.slice(shift)) && kept !== '' ? `${sign}${kept}` : undefined;
}

/**
 * JSON.parse, except that every number literal whose value is an integer past 2^53 - 1 (either
 * sign) is read as a BigInt of its exact value: int64 identifiers stay exact. Linear in the text;
 * throws a SyntaxError where JSON.parse does.
 */
export function parseJson(text: string): unknown {
  if (!mayHoldBigIntegers(text)) return JSON.parse(text);
  const mark = nonceMark();
  const out: string[] = [];
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    // Character codes: 34 ", 92 \, 45 -, 48 to 57 the digits.
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 45 || (c >= 48 && c <= 57)) {
      numberToken.lastIndex = i;
      const token = numberToken.exec(text)?.[0];
      if (token === undefined) continue; // not a number: JSON.parse says where
      const digits = isRounded(Number(token)) ? exactDigits(token) : undefined;
      if (digits !== undefined) out.push(text.slice(from, i), `"${mark}${digits}"`);
      else out.push(text.slice(from, i + token.length));
      from = i + token.length;
      i = from - 1;
    }
  }
  if (out.length === 0) return JSON.parse(text);
  out.push(text.slice(from));
  return revive(JSON.parse(out.join('')), mark);
}

/** The parsed marked text with each marked string turned into its BigInt, walked without recursion. */
function revive(root: unknown, mark: string): unknown {
  const exact = (v: unknown) => (typeof v === 'string' && v.startsWith(mark) ? BigInt(v.slice(mark.length)) : v);
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    for (const key of Object.keys(node)) {
      // A number where a key belongs is no JSON, though its mark would be a valid key.
      if (key.startsWith(mark)) throw new SyntaxError('Unexpected number as a property name in JSON');
      const value = (node as Record<string, unknown>)[key];
      const read = exact(value);
      // An own "__proto__" (JSON.parse makes one) is a data property: assigning it sets no prototype.
      if (read !== value) (node as Record<string, unknown>)[key] = read;
      else stack.push(value);
    }
  }
  return exact(root);
}

/**
 * JSON.stringify, except that each BigInt (and each value `digitsOf` gives digits for) is written as
 * its digits, a JSON number. A value without one costs one JSON.stringify.
 */
export function toJson(value: unknown, digitsOf?: (v: unknown) => string | undefined): string {
  // An app may give BigInt a toJSON (as a string): the digits are then written here all the same.
  if (digitsOf === undefined && !('toJSON' in BigInt.prototype)) {
    try {
      return JSON.stringify(value);
    } catch (error) {
      if (!(error instanceof TypeError)) throw error; // a BigInt, or a cycle (thrown again below)
    }
  }
  const mark = nonceMark();
  const marked = JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const raw = this[key]; // as held, before any toJSON
    const digits = typeof raw === 'bigint' ? String(raw) : digitsOf?.(raw);
    return digits === undefined ? v : `${mark}${digits}`;
  });
  // Each marked string, `"<nonce>:<digits>"`, becomes its digits.
  return marked
    .split(`"${mark}`)
    .map((part, i) => (i === 0 ? part : part.replace('"', '')))
    .join('');
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

/** A path as the problem's detail writes it: `content.items[2].id`, or `(body)` for the body itself. */
export const pathText = (segments: Array<string | number>) =>
  segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('') || '(body)';

/**
 * The first number past 2^53 - 1 in a value to be written as JSON, which a number may hold rounded,
 * with its field: `threadIds[0] is 9007199254740992`.
 */
export function roundedNumberAt(value: unknown): string | undefined {
  const at = findValue(value, isRounded);
  return at && `${pathText(at)} is ${at.reduce((node: unknown, key) => (node as Record<string, unknown>)[key], value)}`;
}
