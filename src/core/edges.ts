// The edges of a request schema: for each limit the schema states on the way down to the values
// of an example (maxLength and minLength in code points, maxItems and minItems, minimum and
// maximum, int64, date and date-time, items of a kind counted by maxContains and minContains,
// non-empty open sets, and those inside `if/then`), a value at the limit and one just past it;
// UUID-like strings and free text are probed too, and each value is broken once (the wrong type,
// missing, a bad format, out of its set). Nothing is restated: every limit is read from
// the document walked. The conformance suite sends them (at the limit accepted, past it refused);
// the breaking-change gate uses the values at the limits as witnesses of what was valid.
import { deref, flatSchema, openapi, refChain } from './document.ts';
import { copyJson, Digits, type Json } from './digits.ts';
import { marked, markedFor, type ExpectationKind } from './examples.ts';
import { markedSentence } from './words.ts';

type Schema = Record<string, any>;
export type Path = Array<string | number>;

/** Integers an int64 holds that 32-bit or double-precision code gets wrong, and the first it does not hold. */
const int64Inside = [
  ['2^31', '2147483648'],
  ['2^53 + 1', '9007199254740993'],
  ['2^63 - 1', '9223372036854775807'],
  ['-(2^53 + 1)', '-9007199254740993'],
  // The same integer in JSON's other number forms (RFC 8259 section 6): a reader that takes an exponent as a double
  // rounds it.
  ['2^53 + 1 with an exponent', '9007199254740993e0'],
  ['2^53 + 1 with a fraction and an exponent', '90071992547409930e-1'],
] as const;
const int64Outside = ['2^63', '9223372036854775808'] as const;

/** Text of `n` code points in one script; an emoji is one code point and two UTF-16 units. */
const scripts = { Latin: 'a', Cyrillic: 'ж', emoji: '😀', CJK: '漢' } as const;
const textOf = (n: number, script: keyof typeof scripts) => scripts[script].repeat(n);
const severalScripts = 'Заказ 1234 готов · 订单已准备好 👋🏽 ¡Olé!';
/** Text of `n` code points of brackets and braces: a parser that counts depth inside strings refuses it. */
const brackets = (n: number) => '[{'.repeat(Math.ceil(n / 2)).slice(0, n);
/** A list holds this many distinct items where the schema sets no limit on its count. */
const many = 1000;
/** A list of objects holds this many (a parser that counts objects as depth, or caps them low, shows). */
const manyObjects = 100;
/** The position past which a value is also put (a list filled up to it): a limit read at one-digit positions only shows. */
const farPosition = 10;

export const uuidShaped = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const at = (root: unknown, path: Path) => path.reduce<any>((node, key) => node?.[key], root);

/** "content.whatsappContent.keyboard.rows.[].buttons": a path with its list indices left out. */
export const pattern = (path: Path) => path.map((k) => (typeof k === 'number' ? '[]' : k)).join('.');

/** A copy of `root` with `value` at `path` (undefined: the property left out). */
export function setAt(root: Json, path: Path, value: Json | undefined): Json {
  if (path.length === 0) return value as Json;
  const copy = copyJson(root) as any;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  if (value === undefined) delete node[path.at(-1)!];
  else node[path.at(-1)!] = value;
  return copy;
}

/** One request at or past one limit. */
export interface Edge {
  /** "comment: 300 code points (Cyrillic)". */
  name: string;
  path: Path;
  /** The field and keyword, for the scorecard: "comment maxLength 300"; none for a probe of free text. */
  limit?: string;
  side: 'at' | 'past';
  /** Undefined: the property is left out. */
  value: Json | undefined;
  kind: ExpectationKind;
  /** Placed as it is: not cut down or filled with other items (a count across list elements). */
  asIs?: boolean;
  /** Broken past no limit of a size: the wrong type, missing, a bad format, out of its set. */
  broken?: true;
  /** A list of many objects, past no limit the document states (the open point `array-sizes`). */
  manyObjects?: true;
  /** The description's words on the field's schema (`x-words`, a `$ref` on the way followed), where it has any. */
  words?: string[];
  /** A probe an open point of the node is about (its other answer refuses it): the points' ids. */
  points?: string[];
  /** Where the edge's refusal is this contract's decision: the sentence of the schema that marks it. */
  decision?: string;
}

/** How to walk: the document, and what the walker cannot see for itself. */
export interface Walk {
  /** The document the schema's `$ref`s point into (default: the bundled one). */
  root?: unknown;
  /**
   * An identifier the deployment takes once: it keeps its uniqueness, only its case and shape vary
   * (default: none).
   */
  fresh?: (path: Path) => boolean;
  /** Whether the document refuses the example with `value` at `path`: a limit in an `if/then` binds only where so. */
  refused: (path: Path, value: Json | undefined) => boolean;
  /** Inside an item placed past the tenth position: its own lists get no such item again. */
  inFar?: boolean;
  /** A list of objects with no limit on its count gets one of `manyObjects` items (copies of its own). */
  manyObjects?: boolean;
}

/**
 * Whether the schema node (or a `$ref` on the way to it) says a limit of it is this contract's own decision: all of
 * them, or where the mark says which (`x-decided: [maxContains]`), the limit of that keyword only (`limit` is the
 * edge's "maxContains 1 (...)"; none for a value broken past no limit).
 */
function kindOf(schema: Schema, root: unknown): (limit?: string) => ExpectationKind {
  for (const node of refChain(schema, root))
    if (marked(node)) return (limit) => (markedFor(node, limit?.split(' ')[0]) ? 'decision' : 'described');
  return () => 'described';
}

/** The sentence of the schema node (or a node its `$ref`s lead to) that marks a limit of it a decision. */
const decisions = new WeakMap<object, string | undefined>();
function decisionOf(schema: Schema, root: unknown): string | undefined {
  // Asked for every value of every example a run plans: the document's nodes never change, so once each.
  if (decisions.has(schema)) return decisions.get(schema);
  let found: string | undefined;
  for (const node of refChain(schema, root))
    if (marked(node)) {
      found = markedSentence(node);
      break;
    }
  decisions.set(schema, found);
  return found;
}

/** The `x-words` of a schema node, or of a node its `$ref`s lead to: the description's words on that field. */
function wordsOf(schema: Schema, root: unknown): string[] | undefined {
  for (const node of refChain(schema, root)) if (Array.isArray(node['x-words'])) return node['x-words'] as string[];
  return undefined;
}

/** The `then` and `else` branches of the schema and of its `allOf` members, nested ones included. */
function branches(schema: Schema, root: unknown): Schema[] {
  const s = deref(schema, root);
  if (!s || typeof s !== 'object') return [];
  const own = s.if
    ? [s.then, s.else].filter(Boolean).flatMap((b: Schema) => [deref(b, root), ...branches(b, root)])
    : [];
  return [...own, ...(s.allOf ?? []).flatMap((m: Schema) => branches(m, root))];
}

/** The counts the array schema limits (`contains` with `maxContains`/`minContains`), by the properties they fix. */
function countLimits(
  schema: Schema,
  root: unknown,
): Array<{ fixed: Record<string, Json>; max?: number; min?: number }> {
  return [deref(schema, root), ...branches(schema, root)]
    .filter((s) => s.contains && (typeof s.maxContains === 'number' || typeof s.minContains === 'number'))
    .map((s) => ({
      fixed: Object.fromEntries(
        Object.entries<Schema>(flatSchema(s.contains, root).properties ?? {})
          .filter(([, p]) => 'const' in p)
          .map(([k, p]) => [k, p.const]),
      ),
      max: s.maxContains,
      min: s.minContains,
    }))
    .filter((l) => Object.keys(l.fixed).length > 0);
}

/** Makes an edge of the limit being walked: its side, the limit (none for a probe), its name and the value sent. */
type MakeEdge = (side: Edge['side'], limit: string | undefined, name: string, v: Json | undefined) => Edge;

/** The edges of a string's limits: lengths in code points, a non-empty open set, a date, a date-time's offsets. */
/** `oneScript`: the first script's text of each limit only (enough where what is tested is a list position). */
function* textEdges(s: Schema, value: string, edge: MakeEdge, root: unknown, oneScript: boolean): Generator<Edge> {
  const scripts = <T extends string>(all: readonly T[]) => (oneScript ? all.slice(0, 1) : all);
  if (typeof s.maxLength === 'number') {
    for (const script of scripts(['Latin', 'Cyrillic', 'emoji'] as const))
      yield edge(
        'at',
        `maxLength ${s.maxLength}`,
        `${s.maxLength} code points (${script})`,
        textOf(s.maxLength, script),
      );
    if (!oneScript)
      yield edge('at', `maxLength ${s.maxLength}`, `${s.maxLength} code points ([ and {)`, brackets(s.maxLength));
    for (const script of scripts(['Latin', 'emoji'] as const))
      yield edge(
        'past',
        `maxLength ${s.maxLength}`,
        `${s.maxLength + 1} code points (${script})`,
        textOf(s.maxLength + 1, script),
      );
    // A space is a character (section 8: "spaces included"): a length counted after trimming accepts this one.
    if (!oneScript && s.maxLength >= 2)
      yield edge(
        'past',
        `maxLength ${s.maxLength}`,
        `${s.maxLength + 1} code points, a space at each end`,
        ` ${textOf(s.maxLength - 1, 'Latin')} `,
      );
  }
  if (typeof s.minLength === 'number' && s.minLength > 0) {
    for (const script of scripts(['Latin', 'emoji'] as const))
      yield edge(
        'at',
        `minLength ${s.minLength}`,
        `${s.minLength} code point(s) (${script})`,
        textOf(s.minLength, script),
      );
    yield edge('past', `minLength ${s.minLength}`, `${s.minLength - 1} code points`, textOf(s.minLength - 1, 'Latin'));
  }
  // An open set of names (known ones, or any non-empty string): the empty string is past it.
  const nonEmpty = (b: Schema) => {
    const f = flatSchema(b, root);
    return f.minLength > 0 || (Array.isArray(f.enum) && f.enum.every((v: unknown) => v !== ''));
  };
  if (Array.isArray(s.anyOf) && s.anyOf.every(nonEmpty)) yield edge('past', 'non-empty', 'empty', '');
  if (s.format === 'date') {
    yield edge('at', 'date', 'a leap day', '2024-02-29');
    yield edge('past', 'date', 'a day no month has', '2023-02-30');
  }
  if (s.format === 'date-time' && !Number.isNaN(Date.parse(value))) {
    const instant = new Date(Date.parse(value));
    const pad = (n: number) => String(n).padStart(2, '0');
    const local = (offsetMinutes: number) => {
      const t = new Date(instant.getTime() + offsetMinutes * 60_000);
      const sign = offsetMinutes < 0 ? '-' : '+';
      const abs = Math.abs(offsetMinutes);
      return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}T${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
    };
    yield edge('at', 'date-time', 'offset Z', instant.toISOString().replace(/\.\d+Z$/, 'Z'));
    yield edge('at', 'date-time', 'offset +03:00', local(180));
    yield edge('at', 'date-time', 'offset -05:30', local(-330));
    yield edge('at', 'date-time', 'fraction of a second', instant.toISOString());
  }
}

/** The edges of a number's range, and of int64 written digit for digit. */
function* numberEdges(s: Schema, edge: MakeEdge): Generator<Edge> {
  const step = s.type === 'integer' ? 1 : 1e-6;
  if (typeof s.minimum === 'number') {
    yield edge('at', `minimum ${s.minimum}`, `${s.minimum}`, s.minimum);
    yield edge('past', `minimum ${s.minimum}`, `${s.minimum - step}`, s.minimum - step);
  }
  if (typeof s.maximum === 'number') {
    yield edge('at', `maximum ${s.maximum}`, `${s.maximum}`, s.maximum);
    yield edge('past', `maximum ${s.maximum}`, `${s.maximum + step}`, s.maximum + step);
  }
  if (s.format === 'int64') {
    for (const [name, digits] of int64Inside) yield edge('at', 'int64', name, new Digits(digits));
    yield edge('past', 'int64', int64Outside[0], new Digits(int64Outside[1]));
  }
}

/** What stands for a value of the wrong type, by the type of the value it replaces. */
const wrongType: Record<string, Json> = {
  string: 12345,
  number: 'not-a-number',
  boolean: 'yes',
  array: { not: 'an array' },
  object: ['not', 'an', 'object'],
  null: 0,
};
/** A string that breaks each format. */
const badFormats: Record<string, string> = {
  uuid: 'not-a-uuid',
  date: '17.05.1990',
  'date-time': 'yesterday at noon',
  uri: 'not a uri',
  int64: 'x',
};
const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * A request broken in one place past no numeric limit: the wrong type, a required property
 * missing, a bad format, a value out of its set, an empty object or list the schema says is not.
 * Whether the document refuses it, and how, is read later (the schema decides, not this list).
 */
function* brokenEdges(s: Schema, value: Json, make: MakeEdge): Generator<Edge> {
  const edge = (limit: string, name: string, v: Json): Edge => ({ ...make('past', limit, name, v), broken: true });
  yield edge('type', 'wrong type', wrongType[typeOf(value)]!);
  if (typeof value === 'string' && typeof s.format === 'string' && badFormats[s.format])
    yield edge(`format ${s.format}`, `bad ${s.format}`, badFormats[s.format]!);
  if (Array.isArray(s.enum)) yield edge('enum', 'not one of the values', 'NOT_A_KNOWN_VALUE');
  if (typeof s.minProperties === 'number' && s.minProperties > 0)
    yield edge(`minProperties ${s.minProperties}`, 'empty object', {});
  if (Array.isArray(value) && typeof s.minItems === 'number' && s.minItems > 0)
    yield edge(`minItems ${s.minItems}`, 'empty list', []);
}

/**
 * The edges of every limit on the way from `schema` down to the values the example `base` has.
 * A value the schema allows is one the description allows too (it states fewer limits): only an
 * edge past a limit can be this contract's decision.
 */
export function* edgesOf(base: Json, schema: Schema, walk: Walk, path: Path = []): Generator<Edge> {
  const root = walk.root ?? openapi;
  const fresh = walk.fresh ?? (() => false);
  const s = flatSchema(schema, root);
  const value = at(base, path);
  if (value === undefined || !s) return;
  const kind = kindOf(schema, root);
  const words = wordsOf(schema, root);
  const decision = decisionOf(schema, root);
  const edgeAt =
    (where: Path): MakeEdge =>
    (side, limit, name, v) => {
      const edgeKind = side === 'at' ? 'described' : kind(limit);
      return {
        name: `${where.length ? where.join('.') : '(body)'}: ${name}`,
        path: where,
        ...(limit === undefined ? {} : { limit: `${pattern(where) || '(body)'} ${limit}` }),
        side,
        value: v,
        kind: edgeKind,
        ...(words ? { words } : {}),
        ...(decision && edgeKind === 'decision' ? { decision } : {}),
      };
    };
  const edge = edgeAt(path);
  yield* brokenEdges(s, value, edge);
  // A fresh identifier's `minLength` gets no edge at the limit: a staging with no reset takes each
  // value once for good, and one-character values (about a million) would be taken in a few runs.
  if (typeof value === 'string')
    for (const e of textEdges(s, value, edge, root, walk.inFar === true))
      if (!fresh(path) || e.side === 'past') yield e;
  // A probe the node's open point is about (`x-open-points`: the description allows refusing it too): this
  // contract's decision to accept it.
  const points = Object.keys((s['x-open-points'] as object | undefined) ?? {});
  const probed = (e: Edge): Edge => (points.length ? { ...e, kind: 'decision', points } : e);
  if (typeof value === 'string' && fresh(path) && uuidShaped.test(value)) {
    // Probes, not limits: the document says "UUID-like" but states no format.
    yield edge('at', undefined, 'a UUID in upper case', value.toUpperCase());
    yield probed(edge('at', undefined, 'a string that is no UUID', `order-${value}-attempt-1`));
  }
  if (typeof value === 'string' && !fresh(path)) {
    const free = !s.enum && !s.format && !s.pattern && !s.const && / /.test(value) && typeof s.maxLength !== 'number';
    if (free) {
      yield edge('at', undefined, 'text in several scripts and an emoji', severalScripts);
      yield edge('at', undefined, 'text of [ and {', brackets(60));
    }
  }
  if (typeof value === 'number' && (s.type === 'integer' || s.type === 'number')) yield* numberEdges(s, edge);
  if (Array.isArray(value)) {
    const fill = (n: number) => Array.from({ length: n }, (_, i) => value[i % value.length] as Json);
    if (typeof s.maxItems === 'number' && value.length > 0) {
      yield edge('at', `maxItems ${s.maxItems}`, `${s.maxItems} items`, fill(s.maxItems));
      yield edge('past', `maxItems ${s.maxItems}`, `${s.maxItems + 1} items`, fill(s.maxItems + 1));
    }
    if (typeof s.minItems === 'number' && value.length >= s.minItems && s.minItems > 0)
      yield edge('at', `minItems ${s.minItems}`, `${s.minItems} item(s)`, value.slice(0, s.minItems));
    // No limit on the count: many distinct scalars (identifiers) must be taken.
    const first = value[0];
    if (s.maxItems === undefined && (typeof first === 'number' || typeof first === 'string'))
      yield probed(
        edge(
          'at',
          undefined,
          `${many} distinct items`,
          Array.from({ length: many }, (_, i) => (typeof first === 'number' ? first + i : `${first}-${i}`)),
        ),
      );
    // No limit on the count of objects: a long list (its items copied) is no malformed request.
    if (walk.manyObjects && s.maxItems === undefined && first !== null && typeof first === 'object')
      yield {
        ...edge('at', undefined, `${manyObjects} items (its own, copied)`, fill(manyObjects)),
        manyObjects: true,
      };
    yield* countEdges(base, schema, path, kind, root);
    if (s.items) for (let i = 0; i < value.length; i++) yield* edgesOf(base, s.items, walk, [...path, i]);
    // Each limit of an item again in a list filled past the tenth position, the item last: a limit
    // read at one-digit positions only shows. Not where an item holds a value taken once (copies
    // would reuse it).
    const leaves = (node: Json, where: Path): Path[] =>
      node !== null && typeof node === 'object' && !(node instanceof Digits)
        ? Object.entries(node).flatMap(([k, v]) => leaves(v as Json, [...where, Array.isArray(node) ? Number(k) : k]))
        : [where];
    if (
      !walk.inFar &&
      s.items &&
      value.length > 0 &&
      value.length <= farPosition &&
      (s.maxItems ?? Number.POSITIVE_INFINITY) > farPosition &&
      !leaves(value, path).some(fresh)
    ) {
      const far = setAt(base, path, [...fill(farPosition), value[0] as Json]);
      const listWith = (p: Path, v: Json | undefined) => at(setAt(far, p, v), path) as Json;
      const inFar: Walk = { ...walk, inFar: true, refused: (p, v) => walk.refused(path, listWith(p, v)) };
      // One text per limit is enough to show a position read wrong (inFar: the first script of each).
      for (const e of edgesOf(far, s.items, inFar, [...path, farPosition]))
        if (e.limit !== undefined && !e.broken)
          yield {
            ...e,
            name: `${e.name} (position ${farPosition + 1})`,
            path,
            value: listWith(e.path, e.value),
            asIs: true,
          };
    }
  } else if (value !== null && typeof value === 'object') {
    for (const key of s.required ?? [])
      if (Object.hasOwn(value, key))
        yield { ...edgeAt([...path, key])('past', 'required', 'missing', undefined), broken: true };
    // An optional property an open point is about (`x-open-points`: what its absence means) is also left out.
    for (const [key, child] of Object.entries<Schema>(s.properties ?? {}))
      if (Object.hasOwn(value, key) && !(s.required ?? []).includes(key) && child?.['x-open-points'])
        yield edgeAt([...path, key])(
          'at',
          undefined,
          `left out (${Object.keys(child['x-open-points']).join(', ')})`,
          undefined,
        );
    for (const [key, child] of Object.entries<Schema>(s.properties ?? {}))
      yield* edgesOf(base, child, walk, [...path, key]);
    for (const branch of branches(schema, root))
      for (const [key, child] of Object.entries<Schema>(branch.properties ?? {})) {
        const edges = [...edgesOf(base, child, walk, [...path, key])];
        const binding = new Set(
          edges.filter((e) => e.side === 'past' && walk.refused(e.path, e.value)).map((e) => e.limit),
        );
        yield* edges.filter((e) => binding.has(e.limit));
      }
  }
}

/**
 * The edges of the array's item counts (at most so many items, at most and at least so many of a
 * kind). Inside an element of a list (the buttons of a keyboard's rows), the items are spread over
 * two elements, so that a limit held for each element alone is seen to differ from one held for
 * all together; a body the document allows past it is left out later.
 */
function* countEdges(
  base: Json,
  schema: Schema,
  path: Path,
  kind: (limit?: string) => ExpectationKind,
  root: unknown,
): Generator<Edge> {
  const s = flatSchema(schema, root);
  const counts = countLimits(schema, root);
  const last = path.map((k) => typeof k).lastIndexOf('number');
  const list = last < 0 ? undefined : path.slice(0, last);
  const rest = path.slice(last + 1);
  const elements: Json[] = list ? at(base, list) : [];
  const pool: Json[] = list ? elements.flatMap((e) => at(e, rest) ?? []) : at(base, path);
  const isOf = (fixed: Record<string, Json>) => (item: Json) =>
    Object.entries(fixed).every(([k, v]) => (item as any)?.[k] === v);
  // Items no count limits: they fill a list to its size and keep each element from being empty.
  const free = pool.filter((item) => !counts.some((c) => isOf(c.fixed)(item)));
  if (list && free.length === 0) return;
  const here = list ? `${pattern(list)}.[].${rest.join('.')}` : path.join('.') || '(body)';
  const place = (items: Json[]): { path: Path; value: Json } => {
    if (!list) return { path, value: items };
    // Alternately in two elements, each starting with an item no count limits.
    const spread = [0, 1].map((r) => [free[r % free.length]!, ...items.filter((_, i) => i % 2 === r)]);
    return { path: list, value: spread.map((items) => setAt(copyJson(elements[0]!), rest, items)) };
  };
  const over = list ? ` over 2 ${String(list.at(-1))}` : '';
  const make = (side: Edge['side'], limit: string, name: string, items: Json[]): Edge => ({
    ...place(items),
    name: `${here}: ${name}${over}`,
    limit: `${pattern(path)} ${limit}`,
    side,
    kind: side === 'at' ? 'described' : kind(limit),
    asIs: true,
  });
  if (list && typeof s.maxItems === 'number') {
    const fill = (n: number) => Array.from({ length: Math.max(0, n - 2) }, (_, i) => copyJson(free[i % free.length]!));
    yield make('at', `maxItems ${s.maxItems}`, `${s.maxItems} items`, fill(s.maxItems));
    yield make('past', `maxItems ${s.maxItems}`, `${s.maxItems + 1} items`, fill(s.maxItems + 1));
  }
  for (const { fixed, max, min } of counts) {
    const sample = pool.find(isOf(fixed));
    if (sample === undefined) continue;
    const what = Object.entries(fixed)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    const others = list ? [] : pool.filter((item) => !isOf(fixed)(item));
    const of = (n: number) => [...Array.from({ length: n }, () => copyJson(sample)), ...others];
    if (typeof max === 'number') {
      yield make('at', `maxContains ${max} (${what})`, `${max} of ${what}`, of(max));
      yield make('past', `maxContains ${max} (${what})`, `${max + 1} of ${what}`, of(max + 1));
    }
    if (typeof min === 'number' && min > 0)
      yield make('past', `minContains ${min} (${what})`, `${min - 1} of ${what}`, of(min - 1));
  }
}

/**
 * Bodies with the edge's value at its path, to try in turn: as it is, then with each list on the
 * way down cut to the element on the path (a limit such as "10 buttons" holds across all rows, so
 * the row at the limit must stand alone). A list at the limit is tried filled with each of its
 * items in turn (the first may be of a kind the schema allows only once or twice).
 */
export function* placements(base: Json, edge: Edge, source: Json): Generator<Json> {
  if (edge.asIs) {
    yield setAt(base, edge.path, edge.value);
    return;
  }
  const values: Array<Json | undefined> = [edge.value];
  const original = at(source, edge.path);
  if (Array.isArray(original) && Array.isArray(edge.value))
    for (const filler of original) values.push((edge.value as Json[]).map(() => copyJson(filler)));
  for (const value of values) {
    let body = setAt(base, edge.path, value);
    yield body;
    for (let i = edge.path.length - 1; i > 0; i--) {
      if (typeof edge.path[i] !== 'number') continue;
      const list = edge.path.slice(0, i);
      body = setAt(body, list, [at(body, edge.path.slice(0, i + 1))]);
      yield body;
    }
  }
}
