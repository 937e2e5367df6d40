// The bundled contract as data: the document itself, JSON Pointer look-ups (limits are read from
// here, never restated) and JSON Schema 2020-12 validators for any part of it.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import bundled from '../../generated/openapi.json' with { type: 'json' };

export const openapi = bundled as unknown as Record<string, unknown>;

const documentId = 'urn:messaging-contract:openapi';

// ajv-formats is CommonJS: under NodeNext TypeScript types its default import as the module
// object, whose callable plugin is `.default`; at run time either may be the function.
type FormatsPlugin = typeof formatsModule.default;
const addFormats: FormatsPlugin =
  typeof formatsModule === 'function' ? (formatsModule as unknown as FormatsPlugin) : formatsModule.default;

// verbose: errors carry their schema, so messages can say what a `contains` or `not` rule wants.
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true, verbose: true });
addFormats(ajv);
ajv.addSchema(openapi, documentId);

/** The value at a JSON Pointer ("#/components/schemas/Problem") of the bundled document. */
export function resolvePointer(pointer: string): unknown {
  const parts = pointer.replace(/^#\/?/, '').split('/').filter((p) => p !== '');
  let node: unknown = openapi;
  for (const raw of parts) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) {
      throw new Error(`${pointer} does not exist in generated/openapi.json (no "${key}")`);
    }
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

export interface ValidationResult {
  valid: boolean;
  /** One line per problem: the field path, what was found and what was expected. */
  errors: string[];
}

const compiled = new Map<string, ValidateFunction>();

/** Escapes a JSON Pointer for use as a $ref URI fragment. */
function fragment(pointer: string): string {
  return pointer.replace(/^#/, '').split('/').map((p) => encodeURIComponent(p.replace(/~1/g, '/')).replace(/%2F/g, '~1')).join('/');
}

/** The compiled schema at `pointer`, compiled once. */
function compile(pointer: string): ValidateFunction {
  let fn = compiled.get(pointer);
  if (!fn) {
    resolvePointer(pointer);
    fn = ajv.compile({ $ref: `${documentId}#${fragment(pointer)}` });
    compiled.set(pointer, fn);
  }
  return fn;
}

function described(fn: ValidateFunction): (value: unknown) => ValidationResult {
  return (value) => {
    const valid = fn(value) as boolean;
    return { valid, errors: valid ? [] : describeErrors(fn.errors ?? [], value) };
  };
}

/** A validator for the schema at `pointer`, e.g. "#/components/schemas/CloseThreadsRequest". */
export function validator(pointer: string): (value: unknown) => ValidationResult {
  return described(compile(pointer));
}

/**
 * A validator for a schema of your own, which may `$ref` the document's parts as
 * `urn:messaging-contract:openapi#/components/schemas/<Name>`.
 */
export function customValidator(schema: object): (value: unknown) => ValidationResult {
  return described(ajv.compile(schema));
}

export const documentRef = (pointer: string) => `${documentId}${pointer.startsWith('#') ? pointer : `#${pointer}`}`;

/** Ajv's raw errors for `value` against the schema at `pointer`, for callers that map them to codes. */
export function rawErrors(pointer: string, value: unknown): ErrorObject[] {
  const fn = compile(pointer);
  return fn(value) ? [] : [...(fn.errors ?? [])];
}

/** A validator for a component schema by name. */
export function schemaValidator(name: string): (value: unknown) => ValidationResult {
  return validator(`#/components/schemas/${name}`);
}

function fieldPath(instancePath: string): string {
  if (instancePath === '') return '(body)';
  return instancePath
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}

function valueAt(root: unknown, instancePath: string): unknown {
  let node = root;
  for (const raw of instancePath.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

function shown(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return Array.isArray(value) ? '(an array nested too deeply to show)' : '(a value nested too deeply to show)';
  }
  if (text === undefined) return String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Turns Ajv's errors into lines that name the field, the value and what was expected. */
export function describeErrors(errors: ErrorObject[], root: unknown): string[] {
  const lines = new Set<string>();
  for (const e of errors) {
    // "if" failures only say that "then" failed; the real cause is reported separately.
    if (e.keyword === 'if') continue;
    // Items that merely fail to match a `contains` pattern are not errors in themselves.
    if (e.schemaPath.includes('/contains/')) continue;
    let path = e.instancePath;
    if (e.keyword === 'required') path += `/${(e.params as { missingProperty: string }).missingProperty}`;
    if (e.keyword === 'dependentRequired') path += `/${(e.params as { missingProperty: string }).missingProperty}`;
    if (e.keyword === 'additionalProperties') path += `/${(e.params as { additionalProperty: string }).additionalProperty}`;
    const field = fieldPath(path);
    const value = e.keyword === 'required' || e.keyword === 'dependentRequired' ? 'missing' : e.keyword === 'additionalProperties' ? 'present' : `got ${shown(valueAt(root, e.instancePath))}`;
    lines.add(`${field}: ${value}; expected it ${expectation(e)}`);
  }
  return [...lines];
}

function expectation(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': return 'to be present';
    case 'additionalProperties': return 'not to be there (unknown field)';
    case 'dependentRequired': return `to be present together with ${String(p.property)}`;
    case 'type': return `to be of type ${String(p.type)}`;
    case 'enum': return `to be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const': return `to be ${JSON.stringify(p.allowedValue)}`;
    case 'maxLength': return `to have at most ${String(p.limit)} characters`;
    case 'minLength': return `to have at least ${String(p.limit)} character${p.limit === 1 ? '' : 's'}`;
    case 'maxItems': return `to have at most ${String(p.limit)} items`;
    case 'minItems': return `to have at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`;
    case 'minProperties': return `to have at least ${String(p.limit)} propert${p.limit === 1 ? 'y' : 'ies'}`;
    case 'format': return `to match format "${String(p.format)}"`;
    case 'contains': {
      const { minContains = 1, maxContains } = e.parentSchema as { minContains?: number; maxContains?: number };
      // `maxContains` is the limit; a `minContains` of 1 only comes with the `if contains then` form.
      const count = maxContains === undefined ? `at least ${minContains}` : minContains === maxContains ? `exactly ${minContains}` : `at most ${maxContains}`;
      return `to contain ${count} item(s) with ${constants((e.parentSchema as { contains?: unknown }).contains)}`;
    }
    case 'not': {
      const description = (e.parentSchema as { description?: string }).description;
      return description ? `to follow the rule: ${description}` : `not to match ${JSON.stringify(e.schema)}`;
    }
    default: return e.message ?? `to satisfy ${e.keyword}`;
  }
}

/** "buttonType = "URL"" for a schema whose properties pin values with `const`. */
function constants(schema: unknown): string {
  const properties = (schema as { properties?: Record<string, { const?: unknown }> } | undefined)?.properties ?? {};
  const pinned = Object.entries(properties).filter(([, s]) => s.const !== undefined);
  return pinned.length ? pinned.map(([k, s]) => `${k} = ${JSON.stringify(s.const)}`).join(' and ') : JSON.stringify(schema);
}
