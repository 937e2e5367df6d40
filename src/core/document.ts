// The bundled contract as data: the document itself and JSON Pointer look-ups (limits and other
// facts are read from here, never restated). The client does not import this module: it would
// carry the whole document.
import bundled from '../../generated/openapi.json' with { type: 'json' };
import { unescapePointer } from './pointers.ts';

export const openapi = bundled as unknown as Record<string, unknown>;

/** The `$id` the document has inside the generated validators: `${documentId}#/components/...`. */
export const documentId = 'urn:messaging-contract:openapi';

/**
 * The value at a JSON Pointer ("#/components/schemas/Problem") of the bundled document, or of a copy of it (`root`).
 */
export function resolvePointer(pointer: string, root: unknown = openapi): unknown {
  if (root === openapi) {
    // The bundled document never changes, and the stages look the same pointers up thousands of times.
    if (!resolved.has(pointer)) resolved.set(pointer, walk(pointer, root, 'generated/openapi.json'));
    return resolved.get(pointer);
  }
  return walk(pointer, root, 'the document');
}
const resolved = new Map<string, unknown>();

/** A node, then each node its `$ref`s lead to in turn (a few hops at most): where a schema's marks and words may stand. */
export function* refChain(node: unknown, root: unknown = openapi): Generator<Record<string, unknown>> {
  for (let hops = 0; hops < 50 && node !== null && typeof node === 'object' && !Array.isArray(node); hops++) {
    yield node as Record<string, unknown>;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return;
    node = resolvePointer(ref, root);
  }
}

function walk(pointer: string, root: unknown, name: string): unknown {
  const parts = pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((p) => p !== '');
  let node: unknown = root;
  for (const raw of parts) {
    const key = unescapePointer(raw);
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) {
      throw new Error(`${pointer} does not exist in ${name} (no "${key}")`);
    }
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

type Schema = Record<string, any>;

/** A node of the document with its `$ref`s followed (at most 50 hops: a cycle of refs ends there). */
export function deref<T = Schema>(node: unknown, root: unknown = openapi): T {
  let current = node as Schema;
  for (let hops = 0; typeof current?.$ref === 'string' && hops < 50; hops++)
    current = resolvePointer(current.$ref, root) as Schema;
  return current as T;
}

/**
 * A schema of the document (or of another, `root`) as one node: its `$ref`s followed (at most 50 hops), and the members of
 * an `allOf` folded in, so that their keywords, properties and required names are seen.
 */
export function flatSchema(schema: Schema, root: unknown = openapi): Schema {
  const s = deref(schema, root);
  if (!Array.isArray(s?.allOf)) return s;
  // The bundled document does not change: each of its nodes is folded once (a recorded log reads the same ones often).
  const known = root === openapi ? flattened.get(s) : undefined;
  if (known) return known;
  const parts = s.allOf.map((p: Schema) => flatSchema(p, root));
  const flat = Object.assign({}, ...parts, s, {
    properties: Object.assign({}, ...parts.map((p: Schema) => p.properties ?? {}), s.properties ?? {}),
    required: [...new Set([...parts.flatMap((p: Schema) => p.required ?? []), ...(s.required ?? [])])],
  });
  if (root === openapi) flattened.set(s, flat);
  return flat;
}
const flattened = new WeakMap<Schema, Schema>();
