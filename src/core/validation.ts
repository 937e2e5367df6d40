// Turning the errors of the precompiled validators (generated/validators/, ajv standalone code,
// built by `npm run build:generated`) into lines a person can act on: the field, the value and
// what was expected; and a value with BigInts as the validators read it, its lines given back its
// digits (`validatable`). No JSON Schema compiler runs at run time.
import type { validators } from '../../generated/validators/all.js';
import { unescapePointer } from './pointers.ts';
import { isRounded, outsideInt64, pathText } from './json-int64.ts';
import { clip } from './clip.ts';

/** A precompiled validator as ajv's standalone code exports it (declared once, in the generated modules' types). */
export type CompiledValidator = (typeof validators)[string];

/** The part of an ajv error this project reads. */
export type SchemaError = NonNullable<CompiledValidator['errors']>[number];

/** A string's length as JSON Schema's `maxLength` counts it: in code points, not UTF-16 units. */
export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

export interface ValidationResult {
  valid: boolean;
  /** One line per problem: the field path, what was found and what was expected. */
  errors: string[];
}

/** A validator keyed by JSON Pointer (or id) out of one generated module; unknown keys throw. */
export function lookup(validators: Record<string, CompiledValidator>) {
  const compiled = (pointer: string): CompiledValidator => {
    if (!Object.hasOwn(validators, pointer))
      throw new Error(`no precompiled validator for ${pointer}: add it in src/build/generate.ts`);
    return validators[pointer]!;
  };
  return {
    /** Field-naming errors of `value` against the schema at `pointer`. */
    validator(pointer: string): (value: unknown) => ValidationResult {
      const fn = compiled(pointer);
      return (value) => {
        const valid = fn(value);
        return { valid, errors: valid ? [] : describeErrors(fn.errors ?? [], value) };
      };
    },
    /** The raw errors, for callers that map them to codes. */
    rawErrors(pointer: string, value: unknown): SchemaError[] {
      const fn = compiled(pointer);
      return fn(value) ? [] : [...(fn.errors ?? [])];
    },
  };
}

/** A field as the lines name it, from its keys (a key of digits is a list position): `threadIds[0]`, `(body)`. */
const fieldName = (keys: readonly string[]): string => pathText(keys.map((k) => (/^\d+$/.test(k) ? Number(k) : k)));

function fieldPath(instancePath: string): string {
  return instancePath === '' ? '(body)' : fieldName(instancePath.slice(1).split('/').map(unescapePointer));
}

export function valueAt(root: unknown, instancePath: string): unknown {
  let node = root;
  for (const raw of instancePath.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[unescapePointer(raw)];
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
  return clip(text, 60);
}

/** One error in parts: the field it names, the value found there, and what was expected; undefined for an error that is no cause of its own. */
export function errorParts(
  e: SchemaError,
  root: unknown,
): { field: string; value: string; expected: string } | undefined {
  // "if" failures only say that "then" failed; the real cause is reported separately.
  if (e.keyword === 'if') return undefined;
  // Items that merely fail to match a `contains` pattern are not errors in themselves.
  if (e.schemaPath.includes('/contains/')) return undefined;
  let path = e.instancePath;
  if (e.keyword === 'required') path += `/${(e.params as { missingProperty: string }).missingProperty}`;
  if (e.keyword === 'dependentRequired') path += `/${(e.params as { missingProperty: string }).missingProperty}`;
  if (e.keyword === 'additionalProperties')
    path += `/${(e.params as { additionalProperty: string }).additionalProperty}`;
  if (e.keyword === 'unevaluatedProperties')
    path += `/${(e.params as { unevaluatedProperty: string }).unevaluatedProperty}`;
  const value =
    e.keyword === 'required' || e.keyword === 'dependentRequired'
      ? 'missing'
      : e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties'
        ? 'present'
        : `got ${shown(valueAt(root, e.instancePath))}`;
  return { field: fieldPath(path), value, expected: expectation(e) };
}

/** Turns Ajv's errors into lines that name the field, the value and what was expected. */
export function describeErrors(errors: SchemaError[], root: unknown): string[] {
  const lines = new Set<string>();
  for (const e of errors) {
    const parts = errorParts(e, root);
    if (parts) lines.add(`${parts.field}: ${parts.value}; expected it ${parts.expected}`);
  }
  return [...lines];
}

/** What an error expected, in the words of every line (`to be of type integer`). */
function expectation(e: Pick<SchemaError, 'keyword' | 'params'> & Partial<SchemaError>): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return 'to be present';
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'not to be there (unknown field)';
    case 'dependentRequired':
      return `to be present together with ${String(p.property)}`;
    case 'type':
      return `to be of type ${String(p.type)}`;
    case 'enum':
      return `to be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `to be ${JSON.stringify(p.allowedValue)}`;
    case 'maxLength':
      return `to have at most ${String(p.limit)} characters`;
    case 'minLength':
      return `to have at least ${String(p.limit)} character${p.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `to have at most ${String(p.limit)} items`;
    case 'minItems':
      return `to have at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`;
    case 'minProperties':
      return `to have at least ${String(p.limit)} propert${p.limit === 1 ? 'y' : 'ies'}`;
    case 'format':
      return `to match format "${String(p.format)}"`;
    case 'contains': {
      const { minContains = 1, maxContains } = (e.parentSchema ?? {}) as { minContains?: number; maxContains?: number };
      // `maxContains` is the limit; a `minContains` of 1 only comes with the `if contains then` form.
      const count =
        maxContains === undefined
          ? `at least ${minContains}`
          : minContains === maxContains
            ? `exactly ${minContains}`
            : `at most ${maxContains}`;
      return `to contain ${count} item(s) with ${constants((e.parentSchema as { contains?: unknown } | undefined)?.contains)}`;
    }
    case 'not': {
      const description = (e.parentSchema as { description?: string } | undefined)?.description;
      return description ? `to follow the rule: ${description}` : `not to match ${JSON.stringify(e.schema)}`;
    }
    default:
      return e.message ?? `to satisfy ${e.keyword}`;
  }
}

/** "buttonType = "URL"" for a schema whose properties pin values with `const`. */
function constants(schema: unknown): string {
  const properties = (schema as { properties?: Record<string, { const?: unknown }> } | undefined)?.properties ?? {};
  const pinned = Object.entries(properties).filter(([, s]) => s.const !== undefined);
  return pinned.length
    ? pinned.map(([k, s]) => `${k} = ${JSON.stringify(s.const)}`).join(' and ')
    : JSON.stringify(schema);
}

/** Deepest nesting `validatable` looks into; the contract's int64 fields sit two levels deep at most. */
const validatableDepth = 64;

/** Stands for a BigInt outside int64 before the validators: no integer, of its sign, past any minimum of 1. */
const outsideInt64Stand = 2 ** 52 - 0.5;
// The validators' wording (validation.ts), for the lines `exact` rewrites.
const integerExpected = ` expected it ${expectation({ keyword: 'type', params: { type: 'integer' } })}`;
const int64FormatExpected = ` expected it ${expectation({ keyword: 'format', params: { format: 'int64' } })}`;

/**
 * `value` as the precompiled validators read it, which know numbers, not BigInts: each BigInt as
 * the nearest number, or, outside int64, as a number that is no integer, so that a field the
 * document types as an integer (every one is an int64) refuses it. `exact` writes each BigInt's
 * own digits back into the validators' lines (`messageId: got 9223372036854775808; expected it to
 * be an integer within int64 ...`); `rounded` names each number past 2^53 - 1, which may already
 * have been rounded. Copies only the objects and arrays on the way to a BigInt.
 */
export function validatable(value: unknown): { value: unknown; exact(lines: string[]): string[]; rounded: string[] } {
  const shown = new Map<string, string>();
  const rounded: string[] = [];
  const path: string[] = [];
  // Each object already walked, with what it became: shared or cyclic input is walked once.
  const seen = new Map<object, unknown>();
  // The field as the validators' lines name it: `threadIds[0]`, `content.text`, `(body)`.
  const field = () => fieldName(path);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'bigint') {
      const n = outsideInt64(v) ? (v < 0n ? -outsideInt64Stand : outsideInt64Stand) : Number(v);
      shown.set(`${field()}: got ${JSON.stringify(n)};`, `${field()}: got ${v};`);
      return n;
    }
    if (isRounded(v))
      rounded.push(
        `${field()}: got ${v}, past 2^53 - 1, where a number may already be rounded; expected it as a bigint of its exact digits`,
      );
    if (v === null || typeof v !== 'object' || path.length >= validatableDepth) return v;
    if (seen.has(v)) return seen.get(v);
    seen.set(v, v);
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(v)) {
      const item = (v as Record<string, unknown>)[key];
      path.push(key);
      const read = walk(item);
      path.pop();
      if (read === item) continue;
      copy ??= Array.isArray(v) ? (v.slice() as unknown as Record<string, unknown>) : { ...v };
      copy[key] = read; // a copied "__proto__" is an own data property too
    }
    seen.set(v, copy ?? v);
    return copy ?? v;
  };
  const read = walk(value);
  return {
    value: read,
    rounded,
    exact: (lines) =>
      shown.size === 0
        ? lines
        : lines.flatMap((line) => {
            const cut = line.indexOf(';') + 1;
            const got = shown.get(line.slice(0, cut));
            const rest = line.slice(cut);
            if (got === undefined) return [line];
            // The stand-in of a BigInt outside int64 fails `format: int64` too: one line says it.
            if (rest === int64FormatExpected) return [];
            return [
              `${got}${rest === integerExpected ? ' expected it to be an integer within int64 (-2^63 to 2^63 - 1)' : rest}`,
            ];
          }),
  };
}
