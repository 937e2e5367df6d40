// The direction of a change to a schema keyword, judged by who reads the place it changes. A
// change that tightens a schema (fewer instances valid) breaks whoever writes to it: the callers
// of a request, the receivers answering a webhook. One that loosens it breaks whoever reads it:
// the clients of a response, the receivers of a webhook payload (a property no longer promised, a
// type or format changed, a value added to a closed set). api-smart-diff finds the changes; for
// these keywords it does not always know the direction (a type changed in a response it calls
// non-breaking), so they are judged here, and every other change keeps its classification.
type Path = Array<string | number>;

/** What a keyword change does to the set of instances the schema accepts. */
export type Effect = 'tightens' | 'loosens' | 'changes';

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
  if (keyword === 'required' || keyword === 'enum') {
    // A name now required, or a value no longer listed: fewer instances. The whole list added or removed likewise.
    if (index === undefined) return added ? 'tightens' : removed ? 'loosens' : 'changes';
    const more = keyword === 'required' ? added : removed;
    return action === 'replace' ? 'changes' : more ? 'tightens' : 'loosens';
  }
  if (keyword === 'type') {
    if (index !== undefined) return added ? 'loosens' : removed ? 'tightens' : 'changes';
    const [was, now] = [types(before), types(after)];
    if (added) return 'tightens';
    if (removed) return 'loosens';
    if (subset(now, was)) return 'tightens';
    return subset(was, now) ? 'loosens' : 'changes';
  }
  if (keyword === 'additionalProperties' && index === undefined) {
    if (after === false || (added && after !== true)) return 'tightens';
    if (before === false || removed) return 'loosens';
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
