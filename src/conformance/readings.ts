// The other readings of a request that the description allows: where an open point is about what a request means
// (how characters are counted, what a left-out option stands for), the same body as an implementation that took
// another answer reads it. The schema reads a body as this contract decides (code points, a left-out option unset),
// so another answer is the schema applied to a view of the body: strings whose astral characters count twice, the
// left-out option written in. A body valid under the decided reading but refused under another may get either answer.
import { flatSchema } from '../core/document.ts';
import type { Operation } from '../core/examples.ts';
import { openPoint, type OpenPoint } from '../core/open-points.ts';

type Body = unknown;
const asIs = (b: Body) => b;

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
  if (Array.isArray(value)) return s?.items ? value.map((v) => fillLeftOut(v, s.items, id, fill)) : value;
  if (value === null || typeof value !== 'object' || !s?.properties) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [name, property] of Object.entries<Record<string, any>>(s.properties)) {
    if (Object.hasOwn(out, name)) out[name] = fillLeftOut(out[name], property, id, fill);
    else if (property?.['x-open-points']?.[id]) out[name] = fill;
  }
  return out;
}

/** Per open point about a request's meaning: each answer's view of a body (the decided answer's is the body itself). */
const readers = (op: Operation): Array<{ point: OpenPoint; view: Record<string, (b: Body) => Body> }> => {
  const schema = { $ref: op.requestSchemaPointer! };
  const characters = openPoint('characters', ['code-points', 'utf-16-units'] as const);
  const leftOut = openPoint('absent-marketing-option', ['absent-is-unset', 'absent-is-false'] as const);
  const views: Array<{ point: OpenPoint; view: Record<string, (b: Body) => Body> }> = [
    { point: characters, view: { 'code-points': asIs, 'utf-16-units': asUtf16Units } },
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
  return readings.filter((r) => r.answers.length > 0);
}
