// The other readings of a request the description allows: where an open point is about what a request means (how
// characters are counted, what a left-out option stands for), the body as an implementation that took another answer
// reads it. The schema reads it as this contract decides (code points, a left-out option unset), so another reading is
// the schema applied to a view of the body (astral characters counted twice, the left-out option written in).
import { flatSchema } from '../../core/document.ts';
import type { Operation } from '../../core/examples.ts';
import { openPoint, type OpenPoint } from '../../core/open-points.ts';

type Body = unknown;
type Obj = Record<string, unknown>;
type Reader = { point: OpenPoint; view: Record<string, (b: Body) => Body> };
const asIs = (b: Body) => b;

/** Whether any string in the body has a character past U+FFFF: only then do the two ways of counting differ. */
const hasAstral = (v: Body): boolean =>
  typeof v === 'string'
    ? /[\u{10000}-\u{10FFFF}]/u.test(v)
    : v !== null && typeof v === 'object' && Object.values(v).some(hasAstral);

/** Each string with every character past U+FFFF written as two: its length in code points is its length in UTF-16 units. */
function asUtf16Units(v: Body): Body {
  if (typeof v === 'string') return v.replace(/[\u{10000}-\u{10FFFF}]/gu, '\u00b7\u00b7');
  if (Array.isArray(v)) return v.map(asUtf16Units);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asUtf16Units(x)]));
}

/** The body with each left-out property that carries the open point `id` written in as false, found along the schema. */
function fillLeftOut(value: Body, schema: Record<string, any>, id: string): Body {
  const s = flatSchema(schema);
  if (Array.isArray(value)) {
    if (!s?.items) return value;
    const items = value.map((v) => fillLeftOut(v, s.items, id));
    return items.every((v, i) => v === value[i]) ? value : items;
  }
  if (value === null || typeof value !== 'object' || !s?.properties) return value;
  // The same object where nothing is filled in under it: a reading that changes nothing is the decided one.
  const obj = value as Obj;
  const filled: Obj = {};
  for (const [name, property] of Object.entries<Record<string, any>>(s.properties)) {
    const had = Object.hasOwn(obj, name);
    const now = had ? fillLeftOut(obj[name], property, id) : property?.['x-open-points']?.[id] ? false : undefined;
    if (now !== (had ? obj[name] : undefined)) filled[name] = now;
  }
  return Object.keys(filled).length > 0 ? { ...obj, ...filled } : value;
}

/** Per open point about a request's meaning: each answer's view of a body (the decided answer's is the body itself). */
const readersOf = new Map<Operation, Reader[]>();
function readers(op: Operation): Reader[] {
  if (readersOf.has(op)) return readersOf.get(op)!;
  const characters = openPoint('characters', ['code-points', 'utf-16-units'] as const);
  const leftOut = openPoint('absent-marketing-option', ['absent-is-unset', 'absent-is-false'] as const);
  const schema = { $ref: op.requestSchemaPointer! };
  const views: Reader[] = [
    { point: characters, view: { 'code-points': asIs, 'utf-16-units': (b) => (hasAstral(b) ? asUtf16Units(b) : b) } },
    { point: leftOut, view: { 'absent-is-unset': asIs, 'absent-is-false': (b) => fillLeftOut(b, schema, leftOut.id) } },
  ];
  for (const { point, view } of views)
    if (view[point.decision] !== asIs)
      throw new Error(`${point.pointer}/decision: the request schemas read a body as ${Object.keys(view)[0]}`);
  readersOf.set(op, views);
  return views;
}

/** A body as read under each combination of answers other than all the decided ones, with the answers taken. */
export function otherReadings(op: Operation, body: Body): Array<{ answers: OpenPoint[]; body: Body }> {
  let readings: Array<{ answers: OpenPoint[]; body: Body }> = [{ answers: [], body }];
  for (const { point, view } of readers(op))
    readings = readings.flatMap((r) =>
      point.answers.map((answer) =>
        answer === point.decision ? r : { answers: [...r.answers, point], body: view[answer]!(r.body) },
      ),
    );
  // A reading that leaves the body as it is (no character past U+FFFF, no option left out) is the decided one.
  return readings.filter((r) => r.answers.length > 0 && r.body !== body);
}
