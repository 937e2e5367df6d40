// What the suite needs to know of a deployment: credentials, and the values that stand in for the
// example values (cascade ids, thread ids, addresses...). A vars file is JSON:
//   { "apiKey": "...", "apiKeyNoBalance": "...", "integratorToken": "...",
//     "values": { "101": 5550101, "1001": 42, "\"crm-000001\"": "an-existing-ext-id" } }
// `values` keys are JSON literals of example values: 101 is the number, "\"101\"" the string.
import { randomUUID } from 'node:crypto';
import { readJsonFile } from '../core/json-file.ts';
import type { ExamplePair } from '../core/examples.ts';
import type { Credentials } from './pairs.ts';
import type { OperationId } from '../core/meta.ts';

export interface Vars extends Partial<Credentials> {
  values?: Record<string, unknown>;
}

export class VarsError extends Error {}

export function loadVars(path: string): Vars {
  const value = readJsonFile(path, `--vars ${path}`, (message) => new VarsError(message));
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new VarsError(`--vars ${path}: expected a JSON object`);
  const vars = value as Record<string, unknown>;
  for (const key of ['apiKey', 'apiKeyNoBalance', 'integratorToken']) {
    if (key in vars && typeof vars[key] !== 'string')
      throw new VarsError(`--vars ${path}: "${key}" must be a string, got ${JSON.stringify(vars[key])}`);
  }
  if ('values' in vars && (vars.values === null || typeof vars.values !== 'object' || Array.isArray(vars.values))) {
    throw new VarsError(`--vars ${path}: "values" must be an object of example value -> deployment value`);
  }
  for (const key of Object.keys(vars)) {
    if (!['apiKey', 'apiKeyNoBalance', 'integratorToken', 'values'].includes(key))
      throw new VarsError(`--vars ${path}: unknown key "${key}"`);
  }
  return vars as Vars;
}

/** Replaces every primitive whose JSON form is a key of `values`. */
export function substitute<T>(value: T, values: Record<string, unknown> = {}): T {
  if (Array.isArray(value)) return value.map((v) => substitute(v, values)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, values)])) as T;
  }
  const key = JSON.stringify(value);
  return (key in values ? values[key] : value) as T;
}

/**
 * The body and expected response of a pair for this run: vars substituted, and identifiers that
 * must be new each run made fresh (requestIds, except where the pair is about a used one; the
 * external identifier of a subscriber the pair creates).
 */
export function prepare(pair: ExamplePair, values: Record<string, unknown> = {}): { body: unknown; expected: unknown } {
  let body = substitute(pair.requestBody, values);
  let expected = substitute(pair.response, values);
  // Identifiers inside a validation error's detail are substituted too.
  const detail = (expected as { detail?: unknown } | undefined)?.detail;
  if (typeof detail === 'string') {
    const replaced = detail.replace(
      /\[([^\]]*)\]/g,
      (_all, inner: string) =>
        `[${inner
          .split(';')
          .map((pair) => {
            const at = pair.indexOf(':');
            if (at < 0) return pair;
            const raw = pair.slice(at + 1);
            const number = Number(raw.replace(/,/g, ''));
            const key =
              Number.isSafeInteger(number) && /^[\d,]+$/.test(raw) ? JSON.stringify(number) : JSON.stringify(raw);
            return key in values ? `${pair.slice(0, at + 1)}${String(values[key])}` : pair;
          })
          .join(';')}]`,
    );
    expected = { ...(expected as object), detail: replaced };
  }
  const title = (pair.response as { title?: string } | undefined)?.title;
  body = withFreshIdentifiers(pair.operation.operationId, body, { status: pair.status, code: title });
  if (pair.status === 200) expected = withEchoedFields(pair.operation.operationId, expected, body);
  return { body, expected };
}

/** A requestId as the examples write one; any other value is what the request is about, and stays. */
const uuidShaped = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Fields = Record<string, unknown>;

interface IdentifierRules {
  /** The body with new identifiers where the deployment accepts them once; undefined to send it as it is. */
  fresh?(fields: Fields, expected: { status: number; code?: string }): Fields | undefined;
  /** Fields of the request a success answer gives back as sent. */
  echoed?: string[];
}

/**
 * The identifiers a deployment accepts only once, per operation: every send gets new ones, except
 * a send whose point is a used one. A new operation in the document makes `tsc` ask for its entry.
 */
const identifierRules: Record<OperationId, IdentifierRules> = {
  closeThreads: {}, // thread ids are the deployment's; closing one twice is a rule of its own (stateful)
  createSubscriber: {
    // The EXT_USER_ID address of a subscriber the send creates (an answer of 200 expected).
    fresh: (fields, expected) =>
      expected.status === 200 && Array.isArray(fields.addresses)
        ? {
            ...fields,
            addresses: fields.addresses.map((a: { type?: unknown }) =>
              a?.type === 'EXT_USER_ID' ? { ...a, address: `conformance-${randomUUID()}` } : a,
            ),
          }
        : undefined,
  },
  scheduleCascade: {
    // The requestId, unless the answer expected is requestId-is-not-unique, or the example's value is what the request
    // is about.
    fresh: (fields, expected) =>
      expected.code !== 'requestId-is-not-unique' &&
      typeof fields.requestId === 'string' &&
      uuidShaped.test(fields.requestId)
        ? { ...fields, requestId: randomUUID() }
        : undefined,
    echoed: ['requestId'],
  },
};

/**
 * The body with fresh identifiers (see identifierRules); a body that is no object, or an unknown operation, as given.
 */
export function withFreshIdentifiers(
  operationId: string,
  body: unknown,
  expected: { status: number; code?: string },
): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !Object.hasOwn(identifierRules, operationId))
    return body;
  return identifierRules[operationId as OperationId].fresh?.(body as Fields, expected) ?? body;
}

/** The expected success answer with the fields the service gives back as sent, from the body sent. */
function withEchoedFields(operationId: OperationId, expected: unknown, body: unknown): unknown {
  const echoed = identifierRules[operationId].echoed ?? [];
  if (echoed.length === 0 || body === null || typeof body !== 'object') return expected;
  return { ...(expected as object), ...Object.fromEntries(echoed.map((field) => [field, (body as Fields)[field]])) };
}
