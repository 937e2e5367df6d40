// JSON as the sandbox reads and writes it: nesting measured before parsing, and int64 identifiers
// kept exact past 2^53 both ways (read as BigInts of the digits sent, written back as digits), by
// the reader and writer the client shares (src/core/json-int64.ts).
// `exactIntegers`: the body with every integer literal that JSON.parse rounds read as a BigInt of
// the digits sent.
export {
  findValue,
  isRounded,
  outsideInt64,
  parseJson as exactIntegers,
  pathText,
  toJson,
} from '../../core/json-int64.ts';

/** Deepest nesting of arrays and objects accepted; the contract's deepest shape is far shallower. */
export const maxJsonDepth = 64;

// The scan compares character codes, numbers, rather than one-character strings.
const quote = '"'.charCodeAt(0);
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
