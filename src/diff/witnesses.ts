// A second opinion by instances. A structural diff misses what it does not model (a limit inside
// `if/then`, a `maxContains`); an instance does not. What the writer of a message was allowed to
// send must still be read: the old document's request examples (and webhook answers), and the
// values at each of their limits (core/edges.ts), must validate under the new schemas, because
// callers were built for them; the new document's response and webhook examples, and the values at
// their limits, must validate under the old schemas, because clients and receivers were built for
// those. An instance that flips is a breaking change, named with the instance and the keyword that
// refuses it.
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { documentAjv } from '../build/ajv.ts';
import { buttonsInOneRow } from '../core/button-rows.ts';
import { parsed, type Json } from '../core/digits.ts';
import { edgesOf, pattern, placements, setAt, type Path } from '../core/edges.ts';
import { resolvePointer } from '../core/document.ts';
import { unescapePointer } from '../core/pointers.ts';
import { describeErrors, errorParts, type SchemaError } from '../core/validation.ts';
import { messages, type Message } from './wire.ts';

type Doc = Record<string, any>;

/** An instance valid under the writer's document and refused under the reader's. */
export interface Flip {
  where: string;
  /** The field refused, list positions as [] ("content.whatsappContent.keyboard.rows[].buttons"). */
  field: string;
  keyword: string;
  /** "example scheduledWhatsAppTemplate with comment: 300 code points (Latin)". */
  instance: string;
  /** Which document the witness was valid under and which refuses it. */
  writer: 'before' | 'after';
  /** The reader's error, naming the field, the value and what was expected. */
  error: string;
  /** The message's schema in the reader's document. */
  pointer: string;
  /** How many instances show the same flip. */
  count: number;
}

const id = 'urn:messaging-contract:witness';

/**
 * The check of each document against the JSON Schema meta-schema that addSchema makes (same options, same error, in
 * the same order), by one ajv for the process: a new ajv compiled the meta-schema again for every document, a sixth
 * of the CPU of the diff tests, which compare dozens of documents in one process.
 */
let metaSchemaAjv: Ajv2020 | undefined;

/** Validates bodies against the schemas of one document, each compiled once. */
function validatorOf(doc: Doc) {
  const ajv = documentAjv({ validateSchema: false });
  ajv.addSchema(doc, id);
  metaSchemaAjv ??= documentAjv();
  metaSchemaAjv.validateSchema(doc, true);
  const compiled = new Map<string, ValidateFunction>();
  const errorsOf = (pointer: string, body: unknown): SchemaError[] => {
    let fn = compiled.get(pointer);
    if (!fn) {
      fn = ajv.compile({ $ref: `${id}${pointer}` });
      compiled.set(pointer, fn);
    }
    return fn(body) ? [] : [...((fn.errors ?? []) as SchemaError[])];
  };
  // The button limits hold for all rows together (KeyboardButtons says so): the rows are also read as one.
  return (pointer: string, body: unknown): SchemaError[] => {
    const errors = errorsOf(pointer, body);
    const merged = buttonsInOneRow(body);
    return merged === body ? errors : [...errors, ...errorsOf(pointer, merged)];
  };
}

/** The instances a message of `doc` was allowed to carry: its examples, and each at every limit on the way down. */
function* instances(
  message: Message,
  valid: (body: unknown) => boolean,
  doc: Doc,
): Generator<{ name: string; body: unknown }> {
  for (const example of message.examples) {
    const base = example.value as Json;
    if (!valid(base)) continue; // an example of a refused request is no witness of what is accepted
    yield { name: `example ${example.name}`, body: base };
    const refused = (path: Path, value: Json | undefined) => !valid(parsed(setAt(base, path, value)));
    for (const edge of edgesOf(base, { $ref: message.schema }, { root: doc, refused })) {
      if (edge.side !== 'at') continue;
      const body = [...placements(base, edge, base)].map(parsed).find(valid);
      if (body !== undefined) yield { name: `example ${example.name} with ${edge.name}`, body };
    }
  }
}

const fieldOf = (instancePath: string, e: SchemaError) => {
  const parts: Path = instancePath
    .split('/')
    .slice(1)
    .map((p) => (/^\d+$/.test(p) ? 0 : unescapePointer(p)));
  const missing = (e.params as { missingProperty?: string }).missingProperty;
  return pattern(missing ? [...parts, missing] : parts).replace(/\.\[\]/g, '[]');
};

/** ajv reports `maxContains` and `minContains` under `contains`. */
const keywordOf = (e: SchemaError) => {
  const p = e.params as { maxContains?: number; minContains?: number };
  return e.keyword === 'contains' && p.maxContains !== undefined ? 'maxContains' : e.keyword;
};

/** The schema at `pointer` with its `$ref`s written out (a cycle is cut at its second visit), as text. */
function resolvedText(doc: Doc, pointer: string): string {
  const expand = (node: unknown, trail: string[]): unknown => {
    if (node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map((n) => expand(n, trail));
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') {
      if (trail.includes(ref)) return { $cycle: ref };
      return expand(resolvePointer(ref, doc), [...trail, ref]);
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, expand(v, trail)]));
  };
  return JSON.stringify(expand(resolvePointer(pointer, doc), [pointer]));
}

/** Instances that flip between the two documents, one per message, field and keyword. */
export function flips(before: Doc, after: Doc): Flip[] {
  // Compiled only when a message's schema changed: where it did not, no instance can flip.
  let validate: { before: ReturnType<typeof validatorOf>; after: ReturnType<typeof validatorOf> } | undefined;
  const theirs = new Map(messages(after).map((m) => [m.key, m]));
  const found = new Map<string, Flip>();
  for (const old of messages(before)) {
    const now = theirs.get(old.key);
    if (!now) continue; // a message removed is the structural diff's to report
    if (resolvedText(before, old.schema) === resolvedText(after, now.schema)) continue;
    validate ??= { before: validatorOf(before), after: validatorOf(after) };
    // Who wrote under which document: the service reads old callers; clients and receivers read the new service.
    const [writer, reader, writerDoc] =
      old.reader === 'service' ? ([old, now, 'before'] as const) : ([now, old, 'after'] as const);
    const readerDoc = writerDoc === 'before' ? 'after' : 'before';
    const check = validate;
    const writerValid = (body: unknown) => check[writerDoc](writer.schema, body).length === 0;
    for (const { name, body } of instances(writer, writerValid, writerDoc === 'before' ? before : after)) {
      // The errors that are causes of their own, as every line of the project reads them.
      const errors = check[readerDoc](reader.schema, body).filter((e) => errorParts(e, body) !== undefined);
      const first = errors[0];
      if (!first) continue;
      const field = fieldOf(first.instancePath, first);
      const keyword = keywordOf(first);
      const key = `${reader.where} ${field} ${keyword}`;
      const seen = found.get(key);
      if (seen) {
        seen.count++;
        continue;
      }
      found.set(key, {
        where: reader.where,
        field,
        keyword,
        instance: name,
        writer: writerDoc,
        // ajv words a count of `contains` plainly; the other keywords name the value and what was expected.
        error:
          first.keyword === 'contains'
            ? `${fieldOf(first.instancePath, first).replace(/\[\]/g, '[0]')}: ${first.message}`
            : (describeErrors([first], body)[0] ?? `${field}: ${first.message}`),
        pointer: reader.schema,
        count: 1,
      });
    }
  }
  return [...found.values()];
}
