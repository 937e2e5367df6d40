// The changes between two bundled documents, classified and worded for a person. api-smart-diff
// finds and classifies them (it knows request vs response direction); this file only adds what
// it does not know: the open sets of this contract (`anyOf: [Known..., string]`, where a value
// added or removed breaks nobody), one line per change instead of one per place it shows, and
// the wording.
import { apiCompare } from 'api-smart-diff';
import { escapePointer, unescapePointer } from '../core/pointers.ts';

export type ChangeClass = 'breaking' | 'correction' | 'non-breaking' | 'deprecation' | 'annotation';

/**
 * A breaking change accepted without a new major version, because the document said what the
 * service never did (releases/corrections.json, per version). `at` is the change's pointer.
 */
export interface Correction {
  at: string;
  why: string;
}

export interface Change {
  class: ChangeClass;
  /** JSON pointer of the first place the change shows. */
  pointer: string;
  /** Where it shows, e.g. "response 200 of closeThreads", and what changed. */
  sentence: string;
  /** For a correction: why the breaking change needs no new major version. */
  why?: string;
}

type Doc = Record<string, any>;
type Path = Array<string | number>;

const toPointer = (path: Path) => `#/${path.map((s) => escapePointer(String(s))).join('/')}`;
const show = (v: unknown) =>
  v === undefined ? 'none' : typeof v === 'object' ? JSON.stringify(v).slice(0, 60) : JSON.stringify(v);

/** Is the node at `path` (in `doc`) inside an open set: an `anyOf` with a plain string member? */
function inOpenSet(doc: Doc, path: Path): boolean {
  let node: any = doc;
  for (let i = 0; i < path.length; i++) {
    // The library walks the document with its references resolved: so does this.
    for (let hops = 0; typeof node?.$ref === 'string' && hops < 20; hops++) node = resolve(doc, node.$ref);
    if (node === null || typeof node !== 'object') return false;
    if (
      Array.isArray(node.anyOf) &&
      path[i] === 'anyOf' &&
      node.anyOf.some((m: any) => m?.type === 'string' && !m.enum)
    )
      return true;
    node = node[path[i]!];
  }
  return false;
}

const resolve = (doc: Doc, ref: string): unknown =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .map(unescapePointer)
    .reduce((node: any, key) => node?.[key], doc);

/** "request body of closeThreads" or "response 200 of closeThreads", and the field path inside it. */
function place(doc: Doc, path: Path): { where: string; field: string; rest: Path } {
  if (path[0] === 'paths' || path[0] === 'webhooks') {
    const op = doc[path[0]]?.[path[1]!]?.[path[2]!];
    const name = op?.operationId ?? `${String(path[2]).toUpperCase()} ${path[1]}`;
    const schemaAt = path.indexOf('schema');
    const part =
      path[3] === 'requestBody'
        ? 'request body'
        : path[3] === 'responses'
          ? `response ${path[4]}`
          : path[3] === undefined
            ? 'operation'
            : String(path[3]);
    const inner = schemaAt >= 0 ? path.slice(schemaAt + 1) : path.slice(path[3] === 'responses' ? 5 : 4);
    return { where: `${part} of ${name}`, ...fieldOf(inner) };
  }
  return { where: path.slice(0, 3).join('/'), ...fieldOf(path.slice(3)) };
}

/** Reads property names out of a schema path: properties/a/items/properties/b/maxLength -> a[].b, [maxLength]. */
function fieldOf(inner: Path): { field: string; rest: Path } {
  let field = '';
  let i = 0;
  for (; i < inner.length; i++) {
    if (inner[i] === 'properties' && i + 1 < inner.length) field += `${field ? '.' : ''}${inner[++i]}`;
    else if (inner[i] === 'items') field += '[]';
    else if (['allOf', 'anyOf', 'oneOf'].includes(String(inner[i])) && typeof inner[i + 1] === 'number') i++;
    else break;
  }
  return { field, rest: inner.slice(i) };
}

function describe(doc: Doc, d: { action: string; path: Path; before?: unknown; after?: unknown }): string {
  const { where, field, rest } = place(doc, d.path);
  const subject = field
    ? `\`${field}\``
    : where.startsWith('response') || where.startsWith('request')
      ? 'the body'
      : 'it';
  const [keyword, index] = rest;
  let what: string;
  if (rest.length === 0 && field)
    what =
      d.action === 'remove'
        ? `property \`${field}\` removed`
        : d.action === 'add'
          ? `property \`${field}\` added`
          : `${subject} changed`;
  else if (rest.length === 0) what = d.action === 'remove' ? 'removed' : d.action === 'add' ? 'added' : 'changed';
  else if (keyword === 'required' && index !== undefined)
    what = `\`${[field, d.after ?? d.before].filter(Boolean).join('.')}\` ${d.action === 'add' ? 'became required' : 'is no longer required'}`;
  else if (keyword === 'enum' && index !== undefined)
    what = `${subject}: value ${show(d.after ?? d.before)} ${d.action === 'add' ? 'added' : d.action === 'remove' ? 'removed' : 'changed'}`;
  else
    what = `${subject}: ${rest.join('.')} ${d.action === 'replace' ? `${show(d.before)} -> ${show(d.after)}` : d.action === 'add' ? `${show(d.after)} added` : `${show(d.before)} removed`}`;
  return `${where}: ${what}`;
}

export function compareDocuments(before: Doc, after: Doc, corrections: Correction[] = []): Change[] {
  // api-smart-diff changes its inputs: it gets copies.
  const { diffs } = apiCompare(structuredClone(before), structuredClone(after));
  const classed = diffs.map((d) => {
    const doc = d.action === 'remove' ? before : after;
    let type = d.type === 'unclassified' ? 'annotation' : (d.type as ChangeClass);
    // A value added to or removed from an open set is accepted by every client and server.
    if (type === 'breaking' && inOpenSet(doc, d.path as Path)) type = 'non-breaking';
    return { ...d, path: d.path as Path, class: type as ChangeClass, doc };
  });
  // A change inside a component shows under every operation that uses it: one line per change
  // with the places listed, and a component's own line only when no operation shows it.
  const key = (d: (typeof classed)[number]) =>
    JSON.stringify([d.action, d.before ?? null, d.after ?? null, place(d.doc, d.path).rest.at(-2) ?? null]);
  const shown = new Set(classed.filter((d) => d.path[0] !== 'components').map(key));
  const groups = new Map<string, (typeof classed)[number][]>();
  for (const d of classed) {
    if (d.path[0] === 'components' && shown.has(key(d))) continue;
    const k = `${d.class} ${key(d)}`;
    groups.set(k, [...(groups.get(k) ?? []), d]);
  }
  const order: ChangeClass[] = ['breaking', 'correction', 'deprecation', 'non-breaking', 'annotation'];
  return [...groups.values()]
    .map((group): Change => {
      const first = group[0]!;
      const places = [...new Set(group.map((d) => place(d.doc, d.path).where))];
      const described = describe(first.doc, first);
      const sentence = places.length > 1 ? `${described} (also ${places.slice(1).join(', ')})` : described;
      const pointer = toPointer(first.path);
      const correction = first.class === 'breaking' ? corrections.find((c) => c.at === pointer) : undefined;
      return correction
        ? { class: 'correction', pointer, sentence, why: correction.why }
        : { class: first.class, pointer, sentence };
    })
    .sort((a, b) => order.indexOf(a.class) - order.indexOf(b.class));
}
