// The direction of a change to a schema keyword, judged by who reads the place it changes. A
// change that tightens a schema (fewer instances valid) breaks whoever writes to it: the callers
// of a request, the receivers answering a webhook. One that loosens it breaks whoever reads it:
// the clients of a response, the receivers of a webhook payload (a property no longer promised, a
// type or format changed, a value added to a closed set). api-smart-diff finds the changes; for
// these keywords it does not always know the direction (a type changed in a response it calls
// non-breaking), so they are judged here, and every other change keeps its classification.
type Path = Array<string | number>;

/** What a keyword change does to the set of instances the schema accepts ('none': the same set). */
export type Effect = 'tightens' | 'loosens' | 'changes' | 'none';

const upper = new Set(['maxLength', 'maxItems', 'maximum', 'exclusiveMaximum', 'maxContains', 'maxProperties']);
const lower = new Set(['minLength', 'minItems', 'minimum', 'exclusiveMinimum', 'minContains', 'minProperties']);
/** Keywords that only narrow: adding one tightens, removing one loosens, changing one does either. */
const narrowing = new Set(['format', 'pattern', 'const', 'multipleOf', 'uniqueItems', 'contentMediaType']);

const types = (v: unknown) => new Set(Array.isArray(v) ? v : v === undefined ? [] : [v]);
const subset = (a: Set<unknown>, b: Set<unknown>) => [...a].every((x) => b.has(x));

/**
 * The effect of one change at `rest` (the keyword path inside a field's schema: ["maxLength"],
 * ["required", 2], ["enum", 3], ["type"]), or undefined where this file has no rule.
 */
export function effectOf(rest: Path, action: string, before: unknown, after: unknown): Effect | undefined {
  const [keyword, index, ...deeper] = rest;
  if (typeof keyword !== 'string' || deeper.length > 0) return undefined;
  const added = action === 'add';
  const removed = action === 'remove';
  if (upper.has(keyword) || lower.has(keyword)) {
    if (index !== undefined) return undefined;
    if (added) return 'tightens';
    if (removed) return 'loosens';
    if (typeof before !== 'number' || typeof after !== 'number') return 'changes';
    const raised = after > before;
    return upper.has(keyword) === raised ? 'loosens' : 'tightens';
  }
  // `required: true` of a request body or a header: whether it must be there at all.
  if (keyword === 'required' && index === undefined && (typeof before === 'boolean' || typeof after === 'boolean'))
    return before === after ? 'none' : after === true ? 'tightens' : 'loosens';
  if (keyword === 'required' || keyword === 'enum') {
    // A name now required, or a value no longer listed: fewer instances. The whole list added or removed likewise.
    if (index === undefined) return added ? 'tightens' : removed ? 'loosens' : 'changes';
    const more = keyword === 'required' ? added : removed;
    return action === 'replace' ? 'changes' : more ? 'tightens' : 'loosens';
  }
  if (keyword === 'type') {
    if (index !== undefined) return added ? 'loosens' : removed ? 'tightens' : 'changes';
    if (added) return 'tightens';
    if (removed) return 'loosens';
    // A number takes every integer: integer -> number widens, number -> integer narrows.
    const [was, now] = [types(before), types(after)].map(
      (t) => new Set([...t, ...(t.has('number') ? ['integer'] : [])]),
    ) as [Set<unknown>, Set<unknown>];
    const [narrower, wider] = [subset(now, was), subset(was, now)];
    return narrower && wider ? 'none' : narrower ? 'tightens' : wider ? 'loosens' : 'changes';
  }
  if (keyword === 'additionalProperties' && index === undefined) {
    // `true` is what an absent keyword means already.
    const [was, now] = [removed ? true : before, added || action === 'replace' ? after : true];
    if (was === now || (was === true && now === undefined)) return 'none';
    if (now === false || (was === true && now !== true)) return 'tightens';
    if (was === false || now === true) return 'loosens';
    return 'changes';
  }
  if (narrowing.has(keyword) && index === undefined) return added ? 'tightens' : removed ? 'loosens' : 'changes';
  return undefined;
}

/** Who reads a place of the wire view: the service (requests, webhook answers) or its clients and receivers. */
export function readerOf(path: Path): 'service' | 'client' | undefined {
  if (path[0] !== 'paths') return undefined;
  const part = path[3];
  if (part === 'requestBody' || part === 'parameters') return 'service';
  if (part === 'responses') return 'client';
  return undefined;
}

/** The class of a change with this effect at a place this reader reads. */
export const classOf = (effect: Effect, reader: 'service' | 'client') =>
  effect === 'changes' ? 'breaking' : (effect === 'tightens') === (reader === 'service') ? 'breaking' : 'non-breaking';
