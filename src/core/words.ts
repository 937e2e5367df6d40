// The trace from a rule of the document to the description's words (`x-words`, beside the node it concerns; see
// openapi/README.md): a check's basis names nodes of the document, and the words are those of the nearest node on the
// way to each (a `$ref` on the way followed). An open point's own `words` count: they quote the description too.
import { openapi, refChain } from './document.ts';
import { decisionMark } from './examples.ts';
import { unescapePointer } from './pointers.ts';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A node's own words: its `x-words` (a list of quotes), or an open point's `words`. */
function ownWords(node: unknown, key: string | undefined, parentKey: string | undefined): string[] {
  if (!isObject(node)) return [];
  const words = node['x-words'];
  if (Array.isArray(words)) return words.filter((w): w is string => typeof w === 'string');
  if (parentKey === 'x-open-points' && typeof node.words === 'string' && key !== undefined) return [node.words];
  // An answer a valid request may get quotes the description in its `why`, unless it is this contract's decision.
  if (parentKey === 'x-business-answers' && typeof node.why === 'string' && !node.why.includes(decisionMark))
    return [node.why];
  return [];
}

/** Each node on the way from the root to `pointer` (with its key and its parent's); undefined past a missing key. */
function walk(pointer: string, root: unknown) {
  const keys = pointer.replace(/^#\/?/, '').split('/').filter(Boolean).map(unescapePointer);
  const way: Array<{ node: unknown; key?: string; parentKey?: string }> = [{ node: root }];
  for (const [i, key] of keys.entries()) {
    const parent = way.at(-1)!.node;
    if (!isObject(parent) && !Array.isArray(parent)) break;
    if (!Object.hasOwn(parent, key)) break;
    way.push({ node: (parent as Obj)[key], key, parentKey: keys[i - 1] });
  }
  return way;
}

/** The words of the nearest node to `pointer` that has any (deepest first), a `$ref` on the way followed. */
export function wordsAt(pointer: string, root: unknown = openapi): string[] {
  const way = walk(pointer, root);
  // A pointer to nothing rests on nothing: a mistyped basis must not borrow an ancestor's words.
  if (way.length - 1 !== pointer.replace(/^#\/?/, '').split('/').filter(Boolean).length) return [];
  for (const step of way.reverse())
    for (const node of refChain(step.node, root)) {
      const words = ownWords(node, step.key, step.parentKey);
      if (words.length) return words;
    }
  return [];
}

/** The pointers a basis names (`#/paths/...`, each up to a space or `;`). */
export const basisPointers = (basis: string) => basis.match(/#\/[^\s;()]+/g) ?? [];

/** The words every pointer of a basis rests on, each once, in order. */
export const basisWords = (basis: string | undefined, root: unknown = openapi): string[] => [
  ...new Set(basisPointers(basis ?? '').flatMap((p) => wordsAt(p, root))),
];

/**
 * The sentence of a node's description (or summary) that marks it `[contract decision]`; with `code`, only one whose
 * paragraph a table follows with a row naming it (an operation's error codes), that row added.
 */
export function markedSentence(node: unknown, code?: string): string | undefined {
  if (!isObject(node)) return undefined;
  for (const text of [node.description, node.summary]) {
    if (typeof text !== 'string' || !text.includes(decisionMark)) continue;
    const paragraphs = text.split(/\n\s*\n/);
    const at = paragraphs.findIndex((p) => p.includes(decisionMark));
    const flat = (t: string) => t.replace(/\s+/g, ' ').trim();
    const sentence = flat(paragraphs[at]!)
      .split(/(?<=\.)\s+(?=[A-Z0-9`*(])/)
      .find((t) => t.includes(decisionMark))!;
    if (code === undefined) return sentence;
    const rows = paragraphs[at + 1]?.split('\n').filter((l) => l.startsWith('|')) ?? [];
    const row = rows.find((r) => r.split('|')[1]?.replace(/[`\s]/g, '') === code);
    if (row) return `${sentence} ${flat(row)}`;
  }
  return undefined;
}

/**
 * The marked sentence of the nearest node to `pointer` marked a decision (deepest first, `$ref`s followed): one whose
 * table names `code` (an operation's error codes) wherever it is, else the nearest below the operation (an operation's
 * own decisions are about other answers than this one).
 */
function decisionAt(pointer: string, code?: string, root: unknown = openapi): string | undefined {
  const way = walk(pointer, root);
  if (way.length - 1 !== pointer.replace(/^#\/?/, '').split('/').filter(Boolean).length) return undefined;
  // #/paths/<path>/<method>: the operation is at depth 3; #/info's words are about the whole document.
  const below = pointer.startsWith('#/paths/') ? 4 : 2;
  const nodes = (from: number) =>
    way
      .slice(from)
      .reverse()
      .flatMap((step) => [...refChain(step.node, root)]);
  const found =
    code &&
    nodes(0)
      .map((n) => markedSentence(n, code))
      .find(Boolean);
  return (
    found ||
    nodes(below)
      .map((n) => markedSentence(n))
      .find(Boolean)
  );
}

/** The first decision a basis's pointers rest on, as the document words it. */
export const basisDecision = (basis: string | undefined, code?: string, root: unknown = openapi) =>
  basisPointers(basis ?? '')
    .map((p) => decisionAt(p, code, root))
    .find(Boolean);
