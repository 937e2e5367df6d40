// What a deployment gives the suite: credentials, and values standing in for the examples' (ids, addresses...). JSON:
//   { "apiKey": "...", "apiKeyNoBalance": "...", "integratorToken": "...",
//     "values": { "101": 5550101, "1001": 42, "\"crm-000001\"": "an-existing-ext-id" } }
// `values` keys are JSON literals of example values: 101 is the number, "\"101\"" the string. A key that starts with
// `//` is a comment, at the top and in `values` (no JSON literal starts so): its value is a string, and it is left out.
// A credential written `${NAME}` is read from the environment variable NAME (left out when it is not set).
import { randomInt, randomUUID } from 'node:crypto';
import { sameErrorCode } from '../../core/error-codes.ts';
import { readJsonFile } from '../../core/json-file.ts';
import { parseJson, toJson } from '../../core/json-int64.ts';
import { documentOperations, examplePairs, type ExamplePair } from '../../core/examples.ts';
import type { Credentials } from '../ground/model.ts';
import { pairRequest } from '../document/pairs.ts';
import type { SuiteContext } from './context.ts';
import { echoes, places, takenOnce, takenOnceBy, valuesAt } from '../document/policy.ts';
import { uuidShaped } from '../../core/edges.ts';
import { copyJson } from '../../core/digits.ts';
import { openapi } from '../../core/document.ts';
import { varsKeyFor } from '../ground/deployment-values.ts';

export interface Vars extends Partial<Credentials> {
  values?: Record<string, unknown>;
}

export class VarsError extends Error {}

const credentialKeys = ['apiKey', 'apiKeyNoBalance', 'integratorToken'];
type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A key that is a comment: no JSON literal (an example value's key) starts with `//`. */
const isCommentKey = (key: string) => key.startsWith('//');
/** A credential read from the environment: `${MESSAGING_API_KEY}`. */
const placeholder = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** `object` without its comments, each checked to be a string (`where` names the object in the error). */
function withoutComments(object: Obj, fail: (why: string) => VarsError, where: string): Obj {
  const comment = Object.keys(object).find((key) => isCommentKey(key) && typeof object[key] !== 'string');
  if (comment !== undefined)
    throw fail(`the comment ${JSON.stringify(comment)}${where} must be a string, got ${toJson(object[comment])}`);
  return Object.fromEntries(Object.entries(object).filter(([key]) => !isCommentKey(key)));
}

/** The vars file at `path`; a credential written `${NAME}` is read from `env` (left out when NAME is not set there). */
export function loadVars(path: string, env: Record<string, string | undefined> = process.env): Vars {
  // Integers past 2^53 are read digit for digit (a BigInt): a deployment's int64 ids are mapped exactly.
  const read = readJsonFile(path, `--vars ${path}`, (message) => new VarsError(message), parseJson);
  const fail = (why: string) => new VarsError(`--vars ${path}: ${why}`);
  if (!isObject(read)) throw fail('expected a JSON object');
  const vars = withoutComments(read, fail, '');
  const wrong = credentialKeys.find((key) => key in vars && typeof vars[key] !== 'string');
  if (wrong) throw fail(`"${wrong}" must be a string, got ${toJson(vars[wrong])}`);
  if ('values' in vars && !isObject(vars.values))
    throw fail('"values" must be an object of example value -> deployment value');
  const unknown = Object.keys(vars).find((key) => key !== 'values' && !credentialKeys.includes(key));
  if (unknown) throw fail(`unknown key "${unknown}"`);
  if (isObject(vars.values)) vars.values = withoutComments(vars.values, fail, ' in "values"');
  for (const key of credentialKeys) {
    const name = placeholder.exec(vars[key] as string)?.[1];
    if (name === undefined) continue;
    const value = Object.hasOwn(env, name) ? env[name] : undefined;
    if (value === undefined || value === '') delete vars[key];
    else vars[key] = value;
  }
  return vars as Vars;
}

/** The example values a deployment may lack (`info.x-fixtures`): JSON literal -> what the deployment needs there. */
const fixtures = (openapi.info as { 'x-fixtures'?: Record<string, string> })['x-fixtures'] ?? {};

const leaves = (v: unknown): unknown[] =>
  Array.isArray(v) ? v.flatMap(leaves) : v !== null && typeof v === 'object' ? Object.values(v).flatMap(leaves) : [v];

/**
 * The fixtures the pair's request needs that the run's values leave out (or map to null), as the vars keys that would
 * exercise it: none where the run maps no values at all (the deployment has the examples' own, as the sandbox does).
 */
export function missingFixtures(pair: ExamplePair, values: Record<string, unknown> = {}): string[] {
  if (Object.keys(values).length === 0) return [];
  const missing = leaves(pair.requestBody)
    .map((v) => JSON.stringify(v))
    .filter((key) => Object.hasOwn(fixtures, key) && (!Object.hasOwn(values, key) || values[key] === null));
  return [...new Set(missing.map((key) => `values[${JSON.stringify(key)}] (${fixtures[key]})`))];
}

/** Replaces every primitive whose JSON form is a key of `values`. */
export function substitute<T>(value: T, values: Record<string, unknown> = {}): T {
  if (Array.isArray(value)) return value.map((v) => substitute(v, values)) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, values)])) as T;
  const key = JSON.stringify(value);
  return (key in values ? values[key] : value) as T;
}

/**
 * The body and expected response of a pair for this run: vars substituted, and identifiers that must be new each run
 * made fresh (requestIds, unless the pair is about a used one; the external identifier of a subscriber it creates).
 */
export function prepare(pair: ExamplePair, values: Record<string, unknown> = {}): { body: unknown; expected: unknown } {
  let expected = substitute(pair.response, values);
  // Identifiers inside a validation error's detail (`[key:value;key:value]`, 1,001 the number 1001) are replaced too.
  const detail = (expected as { detail?: unknown } | undefined)?.detail;
  if (typeof detail === 'string') {
    const replaced = detail.replace(/\[[^\]]*\]/g, (group) =>
      group.replace(/([[;][^;:\]]*:)([^;\]]*)/g, (all, head: string, raw: string) => {
        const number = Number(raw.replace(/,/g, ''));
        const key = JSON.stringify(Number.isSafeInteger(number) && /^[\d,]+$/.test(raw) ? number : raw);
        return key in values ? head + String(values[key]) : all;
      }),
    );
    expected = { ...(expected as object), detail: replaced };
  }
  const answer = { status: pair.status, code: (pair.response as { title?: string } | undefined)?.title };
  const body = withFreshIdentifiers(pair.operation.operationId, substitute(pair.requestBody, values), answer);
  // The fields the service gives back as sent (`x-echoes`) are expected as this body has them.
  const echoed = pair.status === 200 ? echoes(pair.operation, 200) : [];
  if (echoed.length > 0 && body !== null && typeof body === 'object')
    expected = { ...(expected as object), ...Object.fromEntries(echoed.map((f) => [f, (body as Obj)[f]])) };
  return { body, expected };
}

/** The pair's request for this run, with prepare's body, and the answer it expects. */
export function preparedRequest(run: Pick<SuiteContext, 'server' | 'credentials' | 'values'>, pair: ExamplePair) {
  const { body, expected } = prepare(pair, run.values);
  return { request: pairRequest(run.server, pair, run.credentials, body), expected };
}

/** Every value each operation's examples have at a selector (the document's: read once). */
const known = new Map<string, Set<unknown>>();
/** Every value made here: made again, not tested as a value the suite chose. */
const made = new Set<unknown>();
const madeAtMost = 100_000;

/** A new value in the form of the one it replaces: a UUID, a phone number's digits, an e-mail address, else marked. */
function freshLike(value: unknown): string {
  const v = typeof value === 'string' ? value : '';
  const uuid = randomUUID();
  const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');
  const fresh = uuidShaped.test(v)
    ? uuid
    : /^\+?\d{8,15}$/.test(v)
      ? // Its country and network digits kept (a deployment may check them), the subscriber's 7 new.
        v.slice(0, -7) + digits(7)
      : /^[^@\s]+@[^@\s]+$/.test(v)
        ? `conformance-${uuid}${v.slice(v.indexOf('@'))}`
        : `conformance-${uuid}`;
  // What this process made, to renew it again on a later copy: bounded (the oldest forgotten), a long run stays small.
  if (made.size >= madeAtMost) made.delete(made.values().next().value);
  made.add(fresh);
  return fresh;
}

/**
 * The body with new values where a deployment takes one once (`x-taken-once`, and every address where the open point
 * `unique-addresses` allows it: `fields`, by default every such field), unless a second use's answer is due. Only an
 * example's value or one made here is replaced: one the suite chose (a bad input, an edge) is tested.
 */
export function withFreshIdentifiers(
  operationId: string,
  body: unknown,
  expected: { status: number; code?: string },
  fields?: string[],
) {
  const op = documentOperations().find((o) => o.operationId === operationId);
  const once = op && takenOnce(op);
  if (!once || sameErrorCode(expected.code, once.code)) return body;
  const copy = copyJson(body);
  for (const selector of fields ?? new Set([once.field, ...Object.values(takenOnceBy(op)?.fields ?? {})])) {
    const key = `${operationId} ${selector}`;
    if (!known.has(key)) {
      const pairs = examplePairs().filter((p) => p.operation.operationId === operationId);
      known.set(key, new Set(pairs.flatMap((p) => valuesAt(p.requestBody, selector))));
    }
    for (const [container, field] of places(copy, selector)) {
      const value = container[field];
      const madeHere =
        made.has(value) || (typeof value === 'string' && uuidShaped.test(value.replace(/^conformance-/, '')));
      if (known.get(key)!.has(value) || madeHere) container[field] = freshLike(value);
    }
  }
  return copy;
}

/**
 * Where a failed request sends example values a deployment maps to its own (a cascade, a stage, a thread) and this run
 * maps none of them: the hint that names their vars keys, for a deployment that lacks the examples' values.
 */
export function unmappedHint(body: string | undefined, values: Record<string, unknown> = {}): string | undefined {
  let parsedBody: unknown;
  try {
    parsedBody = body === undefined ? undefined : parseJson(body);
  } catch {
    return undefined;
  }
  const keys = new Set(leaves(parsedBody).flatMap((v) => varsKeyFor(v) ?? []));
  const unmapped = [...keys].filter((key) => !Object.hasOwn(values, key));
  if (unmapped.length === 0) return undefined;
  const shown = unmapped.slice(0, 4).join(', ') + (unmapped.length > 4 ? ` and ${unmapped.length - 4} more` : '');
  const example = `"values": {${JSON.stringify(unmapped[0])}: <its own>}`;
  return `example values the deployment may not have, and no vars file maps: ${shown}. Map each to the deployment's own (--vars F, ${example}); \`messaging-conformance vars --init\` writes a starter file`;
}
