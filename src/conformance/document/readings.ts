// The other readings of a request that the description allows: where an open point is about what a request means
// (how characters are counted, what a left-out option stands for), the same body as an implementation that took
// another answer reads it. The schema reads a body as this contract decides (code points, a left-out option unset),
// so another answer is the schema applied to a view of the body: strings whose astral characters count twice, the
// left-out option written in. A body valid under the decided reading but refused under another may get either answer.
import { flatSchema } from '../../core/document.ts';
import type { Operation } from '../../core/examples.ts';
import { openPoint, type OpenPoint } from '../../core/open-points.ts';

type Body = unknown;
const asIs = (b: Body) => b;

/** Whether any string in the body has a character past U+FFFF: only then do the two ways of counting differ. */
function hasAstral(value: Body): boolean {
  if (typeof value === 'string') return /[\u{10000}-\u{10FFFF}]/u.test(value);
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).some(hasAstral);
}

/** Each string with every character past U+FFFF written as two: its length in code points is its length in UTF-16 units. */
function asUtf16Units(value: Body): Body {
  if (typeof value === 'string') return value.replace(/[\u{10000}-\u{10FFFF}]/gu, '\u00b7\u00b7');
  if (Array.isArray(value)) return value.map(asUtf16Units);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asUtf16Units(v)]));
}

/** The body with each left-out property that carries the open point `id` written in as `value`, found along the schema. */
function fillLeftOut(value: Body, schema: Record<string, any>, id: string, fill: unknown): Body {
  const s = flatSchema(schema);
  if (Array.isArray(value)) {
    if (!s?.items) return value;
    const items = value.map((v) => fillLeftOut(v, s.items, id, fill));
    return items.every((v, i) => v === value[i]) ? value : items;
  }
  if (value === null || typeof value !== 'object' || !s?.properties) return value;
  // The same object where nothing is filled in under it: a reading that changes nothing is the decided one.
  let out: Record<string, unknown> | undefined;
  for (const [name, property] of Object.entries<Record<string, any>>(s.properties)) {
    const had = Object.hasOwn(value, name);
    const now = had
      ? fillLeftOut((value as Record<string, unknown>)[name], property, id, fill)
      : property?.['x-open-points']?.[id]
        ? fill
        : undefined;
    if ((had && now !== (value as Record<string, unknown>)[name]) || (!had && now !== undefined)) {
      out ??= { ...(value as Record<string, unknown>) };
      out[name] = now;
    }
  }
  return out ?? value;
}

/** Per open point about a request's meaning: each answer's view of a body (the decided answer's is the body itself). */
const readers = (op: Operation) => readersOf.get(op) ?? readersOf.set(op, makeReaders(op)).get(op)!;
const readersOf = new Map<Operation, Array<{ point: OpenPoint; view: Record<string, (b: Body) => Body> }>>();

const makeReaders = (op: Operation): Array<{ point: OpenPoint; view: Record<string, (b: Body) => Body> }> => {
  const schema = { $ref: op.requestSchemaPointer! };
  const characters = openPoint('characters', ['code-points', 'utf-16-units'] as const);
  const leftOut = openPoint('absent-marketing-option', ['absent-is-unset', 'absent-is-false'] as const);
  const views: Array<{ point: OpenPoint; view: Record<string, (b: Body) => Body> }> = [
    { point: characters, view: { 'code-points': asIs, 'utf-16-units': (b) => (hasAstral(b) ? asUtf16Units(b) : b) } },
    {
      point: leftOut,
      view: {
        'absent-is-unset': asIs,
        'absent-is-false': (b: Body) => fillLeftOut(b, schema, leftOut.id, false),
      },
    },
  ];
  for (const { point, view } of views)
    if (view[point.decision] !== asIs)
      throw new Error(`${point.pointer}/decision: the request schemas read a body as ${Object.keys(view)[0]}`);
  return views;
};

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
