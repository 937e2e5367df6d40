// An example may use only what the document defines. The schemas are open to extra properties
// (the service may add fields), so validating an example against them cannot catch a property
// that no schema names, such as a YAML slip that splits one value into two keys. Here every
// example (request, response, callback) is validated against a strict copy of the document in
// which every object position also says `unevaluatedProperties: false`.
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { openapi, resolvePointer } from '../src/core/document.ts';
import { escapePointer } from '../src/core/pointers.ts';
import { describeErrors, type SchemaError } from '../src/core/validation.ts';

type Node = Record<string, unknown>;
const strictId = 'urn:messaging-contract:strict';

// Inside these, a subschema describes a condition on part of an object, not the whole of it.
const conditional = new Set(['if', 'then', 'else', 'not', 'contains', 'dependentSchemas', 'propertyNames']);
// Values, not schemas.
const data = new Set(['examples', 'example', 'const', 'enum', 'default', 'x-request']);

const wrap = (schema: unknown, inCondition: boolean) =>
  inCondition ? schema : { allOf: [schema], unevaluatedProperties: false };

/** A copy of a schema whose every property and item position admits only the properties its schemas evaluate. */
function strictSchema(node: unknown, inCondition = false): unknown {
  if (Array.isArray(node)) return node.map((n) => strictSchema(n, inCondition));
  if (node === null || typeof node !== 'object') return node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node as Node)) {
    if (data.has(key) || key.startsWith('x-')) out[key] = value;
    else if (key === 'properties' || key === 'patternProperties') {
      out[key] = Object.fromEntries(
        Object.entries(value as Node).map(([k, s]) => [k, wrap(strictSchema(s, inCondition), inCondition)]),
      );
    } else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object'))
      out[key] = wrap(strictSchema(value, inCondition), inCondition);
    else if (key === 'prefixItems')
      out[key] = (value as unknown[]).map((s) => wrap(strictSchema(s, inCondition), inCondition));
    else out[key] = strictSchema(value, inCondition || conditional.has(key));
  }
  return out;
}

/** The strict document: component schemas and every media type's schema made strict; examples left as they are. */
function strictDocument(): Node {
  const doc = structuredClone(openapi) as Node;
  const components = doc.components as { schemas: Node };
  components.schemas = Object.fromEntries(
    Object.entries(components.schemas).map(([name, s]) => [name, strictSchema(s)]),
  );
  return doc;
}

/** Every named example with the pointer of the schema it is an example of. */
function namedExamples(): Array<{ label: string; schemaPointer: string; value: unknown }> {
  const found: Array<{ label: string; schemaPointer: string; value: unknown }> = [];
  const deref = (node: Node): [Node, string | undefined] =>
    typeof node.$ref === 'string' ? [resolvePointer(node.$ref) as Node, node.$ref] : [node, undefined];
  const media = (owner: Node | undefined, pointer: string, label: string) => {
    const json = (owner?.content as Node | undefined)?.['application/json'] as Node | undefined;
    if (!json) return;
    for (const [name, raw] of Object.entries((json.examples ?? {}) as Node)) {
      found.push({
        label: `${label} ${name}`,
        schemaPointer: `${pointer}/content/application~1json/schema`,
        value: deref(raw as Node)[0].value,
      });
    }
  };
  const operations = (root: 'paths' | 'webhooks') => {
    for (const [path, item] of Object.entries((openapi[root] ?? {}) as Node)) {
      for (const [method, op] of Object.entries(item as Node)) {
        const base = `#/${root}/${escapePointer(path)}/${method}`;
        const [body, bodyRef] = deref(((op as Node).requestBody ?? {}) as Node);
        media(body, bodyRef ?? `${base}/requestBody`, `${path} request`);
        for (const [status, raw] of Object.entries(((op as Node).responses ?? {}) as Node)) {
          const [response, ref] = deref(raw as Node);
          media(response, ref ?? `${base}/responses/${status}`, `${path} ${status}`);
        }
      }
    }
  };
  operations('paths');
  operations('webhooks');
  return found;
}

const ajv = new Ajv2020({ allErrors: true, strict: false });
// ajv-formats is CommonJS: its default import is the plugin or the module holding it, by loader.
const addFormats = (typeof formatsModule === 'function' ? formatsModule : formatsModule.default) as unknown as (
  a: Ajv2020,
) => void;
addFormats(ajv);
ajv.addSchema(strictDocument(), strictId);
const strictValidator = (pointer: string) =>
  ajv.compile({ allOf: [{ $ref: `${strictId}${pointer}` }], unevaluatedProperties: false });

describe('examples use only what the document defines', () => {
  const examples = namedExamples();

  it('finds the examples of every operation, response and callback', () => {
    expect(examples.length).toBeGreaterThanOrEqual(80);
    expect(examples.some((e) => e.label.startsWith('messageStatus'))).toBe(true);
    expect(examples.some((e) => e.label.endsWith('default unknownCode'))).toBe(true);
  });

  it.each(examples.map((e) => [e.label, e] as const))('%s', (_label, example) => {
    const validate = strictValidator(example.schemaPointer);
    const valid = validate(example.value);
    expect(valid ? [] : describeErrors(validate.errors as SchemaError[], example.value)).toEqual([]);
  });

  it('the strict copy rejects a property no schema defines, at any depth, and keeps the conditions as they were', () => {
    const schedule = strictValidator(
      `#/paths/${escapePointer('/api/cascade/schedule')}/post/requestBody/content/application~1json/schema`,
    );
    const body = {
      requestId: 'r-1',
      cascadeId: 1004,
      subscriberFilter: { address: '79001234567', type: 'PHONE' },
      content: {
        whatsappContent: {
          contentType: 'DOCUMENT',
          attachment: { url: 'https://x.example/a.pdf', name: 'a.pdf', size: 1 },
        },
      },
    };
    expect(schedule(body)).toBe(true);
    const slipped = structuredClone(body) as any;
    slipped.content.whatsappContent.location = { latitude: 1, longitude: 2, address: 'Alexanderplatz 1', Berlin: null };
    expect(schedule(slipped)).toBe(false);
    expect(describeErrors(schedule.errors as SchemaError[], slipped)).toContain(
      'content.whatsappContent.location.Berlin: present; expected it not to be there (unknown field)',
    );
  });
});
