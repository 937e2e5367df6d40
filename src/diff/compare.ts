// The changes between two bundled documents, classified and worded for a person. api-smart-diff
// finds and classifies them on the wire view (wire.ts: webhooks judged by their receivers); this
// file adds what it does not know: the open sets of this contract (`anyOf: [Known..., string]`,
// where a value added or removed breaks nobody), one line per change at the operations and
// webhooks it reaches instead of one per place it shows, the witnesses' second opinion
// (witnesses.ts), and the wording.
import { apiCompare } from 'api-smart-diff';
import { unescapePointer } from '../core/pointers.ts';
import { classOf, effectOf, readerOf } from './direction.ts';
import { answerOf, fromWire, isPayloadMediaType, toPointer, wireView } from './wire.ts';
import { flips } from './witnesses.ts';

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
  /** What saw it: the structural diff, a witness instance, or both. */
  found: 'structure' | 'witness' | 'both';
  /**
   * Who a breaking change (or a correction) breaks: the callers who send a request, the clients who read a response, the
   * receivers who read a webhook's payload and write its answer.
   */
  breaks?: Reader;
  /** The instance that shows it: valid under the writer's document, refused under the reader's. */
  witness?: string;
}

export type Reader = 'callers' | 'clients' | 'receivers';

/** Who a change at a place breaks, from the place's name ("request body of ...", "callback ...", "answer 200 to ..."). */
const breaksAt = (where: string): Reader =>
  /^(callback|answer) /.test(where) ? 'receivers' : /^(response|header) /.test(where) ? 'clients' : 'callers';

type Doc = Record<string, any>;
type Path = Array<string | number>;
const show = (v: unknown) =>
  v === undefined ? 'none' : typeof v === 'object' ? JSON.stringify(v).slice(0, 60) : JSON.stringify(v);

/**
 * Is the change at `path` (in `doc`) a value added to or removed from the known values of an open
 * set: an `enum` inside a member of an `anyOf` whose other member takes any string? Every other
 * change there (the open member's pattern or length) is judged as any schema's.
 */
function inOpenSet(doc: Doc, path: Path): boolean {
  const at = path.lastIndexOf('enum');
  if (at < 0 || at < path.length - 2) return false;
  let node: any = doc;
  for (let i = 0; i < at; i++) {
    // The library walks the document with its references resolved: so does this.
    for (let hops = 0; typeof node?.$ref === 'string' && hops < 20; hops++) node = resolve(doc, node.$ref);
    if (node === null || typeof node !== 'object') return false;
    if (Array.isArray(node.anyOf) && path[i] === 'anyOf') {
      const member = path[i + 1];
      const open = node.anyOf.findIndex((m: any) => m?.type === 'string' && !m.enum && !m.const);
      if (open >= 0 && open !== member) return true;
    }
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

/**
 * "request body of closeThreads", "response 200 of closeThreads" or "callback messageStatus", and the
 * field path inside it, for a path of the wire view `doc`.
 */
function place(doc: Doc, path: Path): { where: string; field: string; rest: Path } {
  const { webhook } = fromWire(path);
  if (webhook) {
    const schemaAt = path.indexOf('schema');
    return { where: webhook, ...fieldOf(schemaAt >= 0 ? path.slice(schemaAt + 1) : path.slice(3)) };
  }
  if (path[0] === 'paths') {
    const op = doc[path[0]]?.[path[1]!]?.[path[2]!];
    const name = op?.operationId ?? `${String(path[2]).toUpperCase()} ${path[1]}`;
    const schemaAt = path.indexOf('schema');
    // A response's header is a place of its own: its `required` is the header's, not the body's.
    const header = path[3] === 'responses' && path[5] === 'headers' ? String(path[6]) : undefined;
    const part =
      path[3] === 'requestBody'
        ? 'request body'
        : header
          ? `header ${header} of response ${path[4]}`
          : path[3] === 'responses'
            ? `response ${path[4]}`
            : path[3] === undefined
              ? 'operation'
              : String(path[3]);
    const inner = schemaAt >= 0 ? path.slice(schemaAt + 1) : path.slice(header ? 7 : path[3] === 'responses' ? 5 : 4);
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
      : where.startsWith('callback')
        ? 'the payload'
        : where.startsWith('header')
          ? 'the header'
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

/** The components the operations and webhooks reach through `$ref`s ("schemas/StatusCallback"). */
function reached(doc: Doc): Set<string> {
  const found = new Set<string>();
  const stack: unknown[] = [doc.paths, doc.webhooks];
  const seen = new Set<unknown>();
  while (stack.length) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/')) {
      const [kind, name] = ref.slice('#/components/'.length).split('/').map(unescapePointer);
      if (kind && name && !found.has(`${kind}/${name}`)) {
        found.add(`${kind}/${name}`);
        stack.push(doc.components?.[kind]?.[name]);
      }
    }
    stack.push(...Object.values(node));
  }
  return found;
}

export function compareDocuments(before: Doc, after: Doc, corrections: Correction[] = []): Change[] {
  const wire = { before: wireView(before), after: wireView(after) };
  // api-smart-diff changes its inputs: it gets copies.
  const { diffs } = apiCompare(structuredClone(wire.before), structuredClone(wire.after));
  const onWire = new Set([...reached(before), ...reached(after)]);
  // A webhook added or removed whole: its answers go with it.
  const whole = new Set(diffs.filter((d) => d.path.length <= 3 && d.path[0] === 'paths').map((d) => d.path[1]));
  const classed = diffs.flatMap((d) => {
    const path = d.path as Path;
    // A release's version is no change of the contract: every release has one.
    if (path.length === 2 && path[0] === 'info' && path[1] === 'version') return [];
    const doc = d.action === 'remove' ? wire.before : wire.after;
    // api-smart-diff's own names: unclassified is an annotation, deprecated a deprecation.
    let type =
      d.type === 'unclassified' ? 'annotation' : d.type === 'deprecated' ? 'deprecation' : (d.type as ChangeClass);
    // A component the wire reaches is judged where it reaches (api-smart-diff reports it there too,
    // with the direction of each place); one it does not reach changes nothing on the wire.
    if (path[0] === 'components' && path.length > 1) {
      // A component, or a whole section of them added or removed.
      const names = path.length > 2 ? [path[2]] : Object.keys((d.after ?? d.before ?? {}) as object);
      if (names.length && names.every((name) => onWire.has(`${path[1]}/${name}`))) return [];
      if (path[1] === 'schemas') type = 'annotation';
    }
    const answer = answerOf(path);
    if (answer && path.length <= 3 && whole.has(answer)) return [];
    // The keywords whose direction is known are judged by who reads the place.
    const reader = readerOf(path);
    const effect = reader && effectOf(place(doc, path).rest, d.action, d.before, d.after);
    if (reader && effect) type = effect === 'none' ? 'annotation' : classOf(effect, reader);
    // A media type the service may now send a webhook in: receivers built for the others break.
    if (isPayloadMediaType(path) && d.action === 'add') type = 'breaking';
    // A required body added to a request (or to a webhook's answer): whoever sent none breaks.
    if (path[0] === 'paths' && path.length === 4 && path[3] === 'requestBody' && d.action === 'add')
      if ((d.after as { required?: unknown } | undefined)?.required === true) type = 'breaking';
    // A value added to or removed from an open set is accepted by every client and server.
    if (type === 'breaking' && inOpenSet(doc, path)) type = 'non-breaking';
    return [{ ...d, path, class: type as ChangeClass, doc }];
  });
  // A change inside a component shows under every operation that uses it: one line per change
  // with the places listed.
  const key = (d: (typeof classed)[number]) => {
    const { field, rest } = place(d.doc, d.path);
    const keyword = rest.map((k) => (typeof k === 'number' ? '[]' : k)).join('.');
    return JSON.stringify([d.action, d.before ?? null, d.after ?? null, keyword, field]);
  };
  const groups = new Map<string, (typeof classed)[number][]>();
  for (const d of classed) {
    const k = `${d.class} ${key(d)}`;
    groups.set(k, [...(groups.get(k) ?? []), d]);
  }
  const structural = [...groups.values()].map((group) => {
    const first = group[0]!;
    // The field each place is about (for `required`, the property named), for the witnesses to match.
    const places = group.map((d) => {
      const p = place(d.doc, d.path);
      const name = p.rest[0] === 'required' ? (d.after ?? d.before) : undefined;
      return { ...p, field: typeof name === 'string' ? [p.field, name].filter(Boolean).join('.') : p.field };
    });
    const wheres = [...new Set(places.map((p) => p.where))];
    const described = describe(first.doc, first);
    return {
      class: first.class,
      pointer: toPointer(fromWire(first.path).path),
      sentence: wheres.length > 1 ? `${described} (also ${wheres.slice(1).join(', ')})` : described,
      places,
      found: 'structure' as Change['found'],
      witness: undefined as string | undefined,
    };
  });
  // The witnesses: a flip the structural diff already calls breaking at that place and field confirms it.
  const [was, now] = [before.info?.version, after.info?.version];
  const version =
    was && now && was !== now ? { before: was, after: now } : { before: 'the base', after: 'the document' };
  const witnessed = flips(before, after).flatMap((flip) => {
    const same = structural.find(
      (c) =>
        c.class === 'breaking' &&
        c.places.some(
          (p) =>
            p.where === flip.where &&
            (flip.field === p.field || flip.field.startsWith(`${p.field}.`) || flip.field.startsWith(`${p.field}[`)),
        ),
    );
    const more = flip.count > 1 ? ` (and ${flip.count - 1} more instance${flip.count > 2 ? 's' : ''})` : '';
    const witness = `${flip.instance}, valid under ${version[flip.writer]}, is refused by ${version[flip.writer === 'before' ? 'after' : 'before']} (${flip.error})${more}`;
    if (same) {
      same.found = 'both';
      same.witness ??= witness;
      return [];
    }
    return [
      {
        class: 'breaking' as ChangeClass,
        pointer: flip.pointer,
        sentence: `${flip.where}: \`${flip.field || '(body)'}\`: ${flip.keyword} of ${version[flip.writer === 'before' ? 'after' : 'before']} refuses the witness ${flip.instance} of ${version[flip.writer]} (${flip.error})${more}`,
        places: [{ where: flip.where, field: flip.field, rest: [] as Path }],
        found: 'witness' as Change['found'],
        witness: undefined as string | undefined,
      },
    ];
  });
  const order: ChangeClass[] = ['breaking', 'correction', 'deprecation', 'non-breaking', 'annotation'];
  return [...structural, ...witnessed]
    .map(({ places, witness, ...c }): Change => {
      const correction = c.class === 'breaking' ? corrections.find((k) => k.at === c.pointer) : undefined;
      const who =
        c.class === 'breaking' ? { breaks: breaksAt(places[0]?.where ?? ''), ...(witness ? { witness } : {}) } : {};
      return correction ? { ...c, ...who, class: 'correction', why: correction.why } : { ...c, ...who };
    })
    .sort((a, b) => order.indexOf(a.class) - order.indexOf(b.class));
}
