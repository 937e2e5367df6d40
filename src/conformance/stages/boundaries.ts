// Stage boundaries: every limit the request schemas state, met and passed by one. A request at a
// limit must be accepted; one just past it must get an error the document allows. The limits are
// read from the document (maxLength and minLength in code points, maxItems and minItems, minimum
// and maximum, int64, date and date-time, items of a kind counted by maxContains and minContains,
// non-empty open sets, and those inside `if/then`), never restated here; UUID-like strings and free
// text are probed too. Each edge starts from a named success example, so the rest of the request is
// one the document says is accepted. A past-edge check on a limit the document marks [contract
// decision] is a decision.
import { deref, flatSchema, resolvePointer } from '../../core/document.ts';
import { marked, examplePairs, documentOperations, type ExpectationKind, type Operation } from '../../core/examples.ts';
import { schemaValidator, validator } from '../../core/validators/all.ts';
import { documentViolation } from '../../core/schema-violations.ts';
import {
  answerOf,
  check,
  noAnswer,
  perRun,
  runs,
  send,
  type CheckOutcome,
  type CheckResult,
  type Stage,
  type SuiteContext,
} from '../stage-runtime.ts';
import { describeAllowed, invalidBodyExpectation, type Allowed, type Expectation } from '../expectations.ts';
import { pairRequest, type PairRequest } from '../pairs.ts';
import { prepare, withFreshIdentifiers } from '../vars.ts';
import { Digits, listsDigits, parsed, serialize, type Json } from '../digits.ts';
import { judgeError } from './bad-input.ts';

type Schema = Record<string, any>;
export type Path = Array<string | number>;

/** Integers an int64 holds that 32-bit or double-precision code gets wrong, and the first it does not hold. */
const int64Inside = [
  ['2^31', '2147483648'],
  ['2^53 + 1', '9007199254740993'],
  ['2^63 - 1', '9223372036854775807'],
] as const;
const int64Outside = ['2^63', '9223372036854775808'] as const;

/** Text of `n` code points in one script; an emoji is one code point and two UTF-16 units. */
const scripts = { Latin: 'a', Cyrillic: 'ж', emoji: '😀', CJK: '漢' } as const;
const textOf = (n: number, script: keyof typeof scripts) => scripts[script].repeat(n);
const severalScripts = 'Заказ 1234 готов · 订单已准备好 👋🏽 ¡Olé!';

export const uuidShaped = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether the schema node (or a `$ref` on the way to it) says it is this contract's own decision. */
function kindOf(schema: Schema): ExpectationKind {
  let s = schema;
  for (let hops = 0; s && hops < 50; hops++) {
    if (marked(s)) return 'decision';
    if (!s.$ref) break;
    s = resolvePointer(s.$ref) as Schema;
  }
  return 'described';
}

export const at = (root: unknown, path: Path) => path.reduce<any>((node, key) => node?.[key], root);

/** "content.whatsappContent.keyboard.rows.[].buttons": a path with its list indices left out. */
const pattern = (path: Path) => path.map((k) => (typeof k === 'number' ? '[]' : k)).join('.');

/** One request at or past one limit. */
interface Edge {
  /** "comment: 300 code points (Cyrillic)". */
  name: string;
  path: Path;
  /** The field and keyword, for the scorecard: "comment maxLength 300"; none for a probe of free text. */
  limit?: string;
  side: 'at' | 'past';
  value: Json;
  kind: ExpectationKind;
  /** Placed as it is: not cut down or filled with other items (a count across list elements). */
  asIs?: boolean;
}

/** The `then` and `else` branches of the schema and of its `allOf` members, nested ones included. */
function branches(schema: Schema): Schema[] {
  const s = deref(schema);
  if (!s || typeof s !== 'object') return [];
  const own = s.if ? [s.then, s.else].filter(Boolean).flatMap((b: Schema) => [deref(b), ...branches(b)]) : [];
  return [...own, ...(s.allOf ?? []).flatMap(branches)];
}

/** The counts the array schema limits (`contains` with `maxContains`/`minContains`), by the properties they fix. */
function countLimits(schema: Schema): Array<{ fixed: Record<string, Json>; max?: number; min?: number }> {
  return [deref(schema), ...branches(schema)]
    .filter((s) => s.contains && (typeof s.maxContains === 'number' || typeof s.minContains === 'number'))
    .map((s) => ({
      fixed: Object.fromEntries(
        Object.entries<Schema>(flatSchema(s.contains).properties ?? {})
          .filter(([, p]) => 'const' in p)
          .map(([k, p]) => [k, p.const]),
      ),
      max: s.maxContains,
      min: s.minContains,
    }))
    .filter((l) => Object.keys(l.fixed).length > 0);
}

/** Makes an edge of the limit being walked: its side, the limit (none for a probe), its name and the value sent. */
type MakeEdge = (side: Edge['side'], limit: string | undefined, name: string, v: Json) => Edge;

/** The edges of a string's limits: lengths in code points, a non-empty open set, a date, a date-time's offsets. */
function* textEdges(s: Schema, value: string, edge: MakeEdge): Generator<Edge> {
  if (typeof s.maxLength === 'number') {
    for (const script of ['Latin', 'Cyrillic', 'emoji'] as const)
      yield edge(
        'at',
        `maxLength ${s.maxLength}`,
        `${s.maxLength} code points (${script})`,
        textOf(s.maxLength, script),
      );
    for (const script of ['Latin', 'emoji'] as const)
      yield edge(
        'past',
        `maxLength ${s.maxLength}`,
        `${s.maxLength + 1} code points (${script})`,
        textOf(s.maxLength + 1, script),
      );
  }
  if (typeof s.minLength === 'number' && s.minLength > 0) {
    for (const script of ['Latin', 'emoji'] as const)
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
    const f = flatSchema(b);
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

/**
 * The edges of every limit on the way from `schema` down to the values the example has. An
 * identifier the deployment takes once (`fresh`) keeps its uniqueness: only its case and shape
 * vary. `refused` says whether the document refuses the example with `value` at `path`: a limit in
 * an `if/then` binds only where going past it is refused.
 */
function* edgesOf(
  base: Json,
  schema: Schema,
  fresh: (path: Path) => boolean,
  refused: (path: Path, value: Json) => boolean,
  path: Path = [],
): Generator<Edge> {
  const s = flatSchema(schema);
  const value = at(base, path);
  if (value === undefined || !s) return;
  // A value the schema allows is one the description allows too (it states fewer limits): only
  // the answer past a limit can be this contract's decision.
  const marked = kindOf(schema);
  const here = path.length ? path.join('.') : '(body)';
  const edge: MakeEdge = (side, limit, name, v) => ({
    name: `${here}: ${name}`,
    path,
    ...(limit === undefined ? {} : { limit: `${pattern(path) || '(body)'} ${limit}` }),
    side,
    value: v,
    kind: side === 'at' ? 'described' : marked,
  });
  if (typeof value === 'string' && !fresh(path)) yield* textEdges(s, value, edge);
  // A fresh identifier's `minLength` gets no edge at the limit: a staging with no reset takes each
  // value once for good, and one-character values (about a million) would be taken in a few runs.
  if (typeof value === 'string' && fresh(path) && uuidShaped.test(value)) {
    // Probes, not limits: the document says "UUID-like" but states no format.
    yield edge('at', undefined, 'a UUID in upper case', value.toUpperCase());
    yield edge('at', undefined, 'a string that is no UUID', `order-${value}-attempt-1`);
  }
  if (typeof value === 'string' && !fresh(path)) {
    const free = !s.enum && !s.format && !s.pattern && !s.const && / /.test(value) && typeof s.maxLength !== 'number';
    if (free) yield edge('at', undefined, 'text in several scripts and an emoji', severalScripts);
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
    yield* countEdges(base, schema, path, marked);
    if (s.items) for (let i = 0; i < value.length; i++) yield* edgesOf(base, s.items, fresh, refused, [...path, i]);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries<Schema>(s.properties ?? {}))
      yield* edgesOf(base, child, fresh, refused, [...path, key]);
    for (const branch of branches(schema))
      for (const [key, child] of Object.entries<Schema>(branch.properties ?? {})) {
        const edges = [...edgesOf(base, child, fresh, refused, [...path, key])];
        const binding = new Set(edges.filter((e) => e.side === 'past' && refused(e.path, e.value)).map((e) => e.limit));
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
function* countEdges(base: Json, schema: Schema, path: Path, kind: ExpectationKind): Generator<Edge> {
  const s = flatSchema(schema);
  const counts = countLimits(schema);
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
    return { path: list, value: spread.map((items) => setAt(structuredClone(elements[0]!), rest, items)) };
  };
  const over = list ? ` over 2 ${String(list.at(-1))}` : '';
  const make = (side: Edge['side'], limit: string, name: string, items: Json[]): Edge => ({
    ...place(items),
    name: `${here}: ${name}${over}`,
    limit: `${pattern(path)} ${limit}`,
    side,
    kind: side === 'at' ? 'described' : kind,
    asIs: true,
  });
  if (list && typeof s.maxItems === 'number') {
    const fill = (n: number) =>
      Array.from({ length: Math.max(0, n - 2) }, (_, i) => structuredClone(free[i % free.length]!));
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
    const of = (n: number) => [...Array.from({ length: n }, () => structuredClone(sample)), ...others];
    if (typeof max === 'number') {
      yield make('at', `maxContains ${max} (${what})`, `${max} of ${what}`, of(max));
      yield make('past', `maxContains ${max} (${what})`, `${max + 1} of ${what}`, of(max + 1));
    }
    if (typeof min === 'number' && min > 0)
      yield make('past', `minContains ${min} (${what})`, `${min - 1} of ${what}`, of(min - 1));
  }
}

export function setAt(root: Json, path: Path, value: Json): Json {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as any;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  node[path.at(-1)!] = value;
  return copy;
}

/**
 * Bodies with the edge's value at its path, to try in turn: as it is, then with each list on the
 * way down cut to the element on the path (a limit such as "10 buttons" holds across all rows, so
 * the row at the limit must stand alone). A list at the limit is tried filled with each of its
 * items in turn (the first may be of a kind the schema allows only once or twice).
 */
function* placements(base: Json, edge: Edge, source: Json): Generator<Json> {
  if (edge.asIs) {
    yield setAt(base, edge.path, edge.value);
    return;
  }
  const values: Json[] = [edge.value];
  const original = at(source, edge.path);
  if (Array.isArray(original) && Array.isArray(edge.value))
    for (const filler of original) values.push((edge.value as Json[]).map(() => structuredClone(filler)));
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

/**
 * Business answers a request at a limit may also get, as the description states them for a
 * value the suite changed: content the account's template does not match (rule 4 of schedule
 * cascade), a cascade identifier the deployment does not have.
 */
const businessAnswers: Array<{
  operationId: string;
  /** The field it is about: a change at or under it (or of a list holding it) may get this answer. */
  under: string;
  code: string;
  kind: ExpectationKind;
  basis: string;
}> = [
  {
    operationId: 'scheduleCascade',
    under: 'content',
    code: 'matched-template-not-found',
    kind: 'described',
    basis: '#/paths/~1api~1cascade~1schedule/post/description (4. The content must match the template of its channel)',
  },
  {
    operationId: 'scheduleCascade',
    under: 'cascadeId',
    code: 'cascade-not-found',
    kind: 'described',
    basis: '#/components/schemas/CascadeId/description (an existing cascade)',
  },
  {
    operationId: 'createSubscriber',
    under: 'parameterValues.[].name',
    code: 'parameter-not-found',
    kind: 'decision',
    basis:
      '#/paths/~1api~1subscribers~1create/post/description ([contract decision]: a name that is no parameter of the account)',
  },
  {
    operationId: 'createSubscriber',
    under: 'tagValues.[].name',
    code: 'tag-not-found',
    kind: 'decision',
    basis:
      '#/paths/~1api~1subscribers~1create/post/description ([contract decision]: a name that is no tag of the account)',
  },
];

interface Boundary {
  name: string;
  operation: Operation;
  edge: Edge;
  request: PairRequest;
  /** At a limit: accepted (200, or a business answer the change may cause). Past it: an error the document allows. */
  expectation: Expectation;
}

export const successPointer = (op: Operation) => `${op.pointer}/responses/200/content/application~1json/schema`;

export function boundaries(ctx: SuiteContext): Boundary[] {
  const out: Boundary[] = [];
  const seen = new Set<string>();
  for (const op of documentOperations()) {
    if (!op.requestSchemaPointer) continue;
    for (const pair of examplePairs().filter(
      (p) => p.operation.operationId === op.operationId && p.paired && p.status === 200 && !p.trigger.sendTwice,
    )) {
      const source = prepare(pair, ctx.values).body as Json;
      const again = withFreshIdentifiers(op.operationId, source, { status: 200 });
      const fresh = (path: Path) => at(again, path) !== at(source, path);
      const refused = (path: Path, value: Json) => !isAccepted(op, setAt(source, path, value));
      for (const edge of edgesOf(source, { $ref: op.requestSchemaPointer }, fresh, refused)) {
        const key = `${op.operationId} ${pattern(edge.path)} ${edge.name.slice(edge.name.indexOf(':'))}`;
        if (seen.has(key)) continue;
        // Each send gets identifiers of its own; the edge is placed after, so it can be about one.
        const base = withFreshIdentifiers(op.operationId, structuredClone(source), { status: 200 }) as Json;
        // Items copied for a count may carry such identifiers: each copy gets its own.
        const placed = (b: Json) =>
          edge.asIs ? (withFreshIdentifiers(op.operationId, b, { status: 200 }) as Json) : b;
        let body: Json | undefined;
        let expectation: Expectation | undefined;
        if (edge.side === 'at') {
          body = [...placements(base, edge, source)].map(placed).find((b) => isAccepted(op, b));
          if (body === undefined) continue; // no accepted request holds this edge: not a boundary of this example
          expectation = acceptedExpectation(
            op,
            [edge.path],
            `${op.requestSchemaPointer} (${edge.limit ?? edge.name}: accepted)`,
            edge.kind,
          );
        } else {
          body = placed(setAt(base, edge.path, edge.value));
          // A value no JS number holds exactly is judged as the wrong type it is for the schema.
          const judged = edge.value instanceof Digits ? setAt(base, edge.path, 'not-an-int64') : body;
          expectation = invalidBodyExpectation(op, parsed(judged), ctx.profile);
          if (!expectation) continue;
          if (edge.kind === 'decision') expectation = { ...expectation, kind: 'decision' };
        }
        seen.add(key);
        const request = { ...pairRequest(ctx.server, pair, ctx.credentials, () => null), body: serialize(body) };
        out.push({
          name: `${op.operationId}: ${edge.side} the limit, ${edge.name}`,
          operation: op,
          edge,
          request,
          expectation,
        });
      }
    }
  }
  return out;
}

/** Whether the document says a request with this body is valid: its schema, and the button limits across rows. */
export const isAccepted = (op: Operation, body: Json) => documentViolation(op.operationId, parsed(body)) === null;

/** What a valid request may get: 200, or a business answer a value changed at one of `changed` may cause. */
export function acceptedExpectation(
  op: Operation,
  changed: Path[],
  basis: string,
  kind: ExpectationKind = 'described',
): Expectation {
  const under = businessAnswers.filter(
    (b) =>
      b.operationId === op.operationId &&
      changed.map(pattern).some((p) => `${p}.`.startsWith(`${b.under}.`) || `${b.under}.`.startsWith(`${p}.`)),
  );
  const allowed: Allowed[] = [{ status: 200 }, ...under.map((b) => ({ status: 400, code: b.code }))];
  // A business answer this contract decides makes the check one of its decisions.
  return {
    allowed,
    kind: under.some((b) => b.kind === 'decision') ? 'decision' : kind,
    basis: [basis, ...under.map((b) => b.basis)].join('; '),
  };
}

/**
 * The answer to a valid request: 200 with a body the schema allows, or one of the business
 * answers. Closed thread ids come back digit for digit: every identifier sent is in one list.
 */
export async function judgeAccepted(
  ctx: SuiteContext,
  request: PairRequest,
  operation: Operation,
  expectation: Expectation,
): Promise<CheckOutcome> {
  const expected = describeAllowed(expectation.allowed);
  const sent = await send(ctx, request);
  if (!sent.answer) return noAnswer(request, expected, sent.error);
  const { status, text, body } = sent.answer;
  const answer = answerOf(status, body);
  const title = (body as { title?: unknown } | undefined)?.title;
  const short = `${status} ${text.slice(0, 200)}`;
  if (status === 200) {
    const valid = validator(successPointer(operation))(body);
    if (!valid.valid)
      return { ok: false, request, expected, actual: `200 not as the schema says: ${valid.errors.join('; ')}`, answer };
    if (operation.operationId === 'closeThreads') {
      // Every identifier sent is in exactly one list, digit for digit as sent.
      const sent = [
        ...new Set(
          (/"threadIds"\s*:\s*\[([^\]]*)\]/.exec(request.body ?? '')?.[1] ?? '')
            .split(',')
            .map((d) => d.trim())
            .filter(Boolean),
        ),
      ];
      const lost = sent.filter((d) => !listsDigits(text, d));
      const listed = Object.values(body as Record<string, unknown[]>).reduce(
        (n, list) => n + (Array.isArray(list) ? list.length : 0),
        0,
      );
      if (lost.length || listed !== sent.length)
        return {
          ok: false,
          request,
          expected: `200 listing each of ${sent.length} identifiers once, as sent`,
          actual: short,
          answer,
        };
    }
    return { ok: true, request, expected, actual: short, answer };
  }
  const allowed =
    expectation.allowed.some((a) => a.status === status && a.code === title) && schemaValidator('Problem')(body).valid;
  return { ok: allowed, request, expected, actual: short, answer };
}

const selected = perRun((ctx) => boundaries(ctx).filter((b) => runs(ctx, b.expectation.kind)));

export const boundariesStage: Stage = {
  name: 'boundaries',
  description:
    'every limit of the request schemas: at the limit accepted, just past it refused as the document allows (code points in several scripts, int64 past 2^31 and 2^53, date-time offsets, UUID case)',
  count: (ctx) => selected(ctx).length,
  async run(ctx: SuiteContext): Promise<CheckResult[]> {
    const results: CheckResult[] = [];
    for (const b of selected(ctx)) {
      const { expectation, operation, edge } = b;
      const covers = { operationId: operation.operationId, limit: edge.limit, side: edge.side };
      const spec = { stage: 'boundaries', name: b.name, kind: expectation.kind, basis: expectation.basis, covers };
      results.push(
        await check(ctx, spec, () =>
          edge.side === 'at'
            ? judgeAccepted(ctx, b.request, operation, expectation)
            : judgeError(ctx, { name: b.name, operation, request: b.request, expectation }),
        ),
      );
    }
    return results;
  },
};
