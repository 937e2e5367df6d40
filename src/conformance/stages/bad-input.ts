// Stage bad-input: invalid requests generated from the request schemas (wrong types, missing
// required fields, values past each limit and format), malformed JSON, wrong content types,
// unknown paths and methods. Each must get a documented error status with a problem body; where
// the contract names a code for the broken field, that code. After each batch the server must
// still answer. The order is shuffled by --seed, so a run can be repeated exactly.
import { normalizeErrorCode } from '../../core/codes.ts';
import { resolvePointer } from '../../core/document.ts';
import { examplePairs, operations, responseKind, type ExpectationKind, type Operation } from '../../core/examples.ts';
import { schemaValidator, validator } from '../../core/validators/all.ts';
import { schemaViolation } from '../../core/violation-codes.ts';
import { check, describeRequest, readAnswer, replay, runs, send, type CheckResult, type Stage, type SuiteContext } from '../context.ts';
import { pairRequest, type PairRequest } from '../pairs.ts';
import { prepare, withFreshIdentifiers } from '../vars.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = Record<string, any>;

interface BadInput {
  name: string;
  operation: Operation;
  request: PairRequest;
  /** A code the answer must carry, or null when any documented error status with a problem will do. */
  code: string | null;
  status: number[];
  /** `decision` when any expected status is one the description does not state for the operation. */
  kind: ExpectationKind;
}

function deref(schema: Schema): Schema {
  let s = schema;
  while (s?.$ref) s = resolvePointer(s.$ref) as Schema;
  // Fold allOf parts in, so their properties and keywords are seen.
  if (Array.isArray(s?.allOf)) {
    const parts = s.allOf.map((p: Schema) => deref(p));
    return Object.assign({}, ...parts, s, {
      properties: Object.assign({}, ...parts.map((p: Schema) => p.properties ?? {}), s.properties ?? {}),
      required: [...new Set([...parts.flatMap((p: Schema) => p.required ?? []), ...(s.required ?? [])])],
    });
  }
  return s;
}

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const wrongTypeValue: Record<string, Json> = { string: 12345, number: 'not-a-number', boolean: 'yes', array: { not: 'an array' }, object: ['not', 'an', 'object'], null: 0 };
const badFormats: Record<string, string> = { uuid: 'not-a-uuid', date: '17.05.1990', 'date-time': 'yesterday at noon', uri: 'not a uri', int64: 'x' };

function setAt(root: Json, path: (string | number)[], value: Json | undefined): Json {
  const copy = structuredClone(root);
  let node: any = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  const last = path[path.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = value;
  return copy;
}

/** Invalid variants of `base`, one broken thing each, with the path they break. */
function* mutate(base: Json, schema: Schema, path: (string | number)[] = []): Generator<[string, Json]> {
  const s = deref(schema);
  const here = path.length ? path.join('.') : '(body)';
  const value = path.reduce<any>((node, key) => node?.[key], base);
  if (value === undefined) return;
  yield [`${here}: wrong type`, setAt(base, path, wrongTypeValue[typeOf(value)]!)];
  if (typeof s.maxLength === 'number') yield [`${here}: ${s.maxLength + 1} characters`, setAt(base, path, 'x'.repeat(s.maxLength + 1))];
  if (typeof s.minLength === 'number' && s.minLength > 0) yield [`${here}: empty`, setAt(base, path, '')];
  if (Array.isArray(s.enum)) yield [`${here}: not one of the values`, setAt(base, path, 'NOT_A_KNOWN_VALUE')];
  if (typeof s.format === 'string' && badFormats[s.format] && typeof value === 'string') yield [`${here}: bad ${s.format}`, setAt(base, path, badFormats[s.format]!)];
  if (typeof s.minimum === 'number' && typeof value === 'number') yield [`${here}: below ${s.minimum}`, setAt(base, path, s.minimum - 1)];
  if (typeof s.maximum === 'number' && typeof value === 'number') yield [`${here}: above ${s.maximum}`, setAt(base, path, s.maximum + 1)];
  if (typeof s.minProperties === 'number' && s.minProperties > 0) yield [`${here}: empty object`, setAt(base, path, {})];
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && s.minItems > 0) yield [`${here}: empty list`, setAt(base, path, [])];
    if (typeof s.maxItems === 'number' && value.length > 0) yield [`${here}: ${s.maxItems + 1} items`, setAt(base, path, Array.from({ length: s.maxItems + 1 }, () => value[0]!))];
    if (s.items) for (let i = 0; i < value.length; i++) yield* mutate(base, s.items, [...path, i]);
  } else if (value !== null && typeof value === 'object') {
    for (const key of s.required ?? []) if (key in value) yield [`${here === '(body)' ? '' : `${here}.`}${key}: missing`, setAt(base, [...path, key], undefined)];
    for (const [key, child] of Object.entries<Schema>(s.properties ?? {})) yield* mutate(base, child, [...path, key]);
  }
}

/** A small seeded generator (mulberry32), so --seed repeats a run exactly. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function badInputs(ctx: SuiteContext): BadInput[] {
  const inputs: BadInput[] = [];
  const seen = new Set<string>();
  const errorStatuses = (op: Operation) => Object.keys((resolvePointer(op.pointer) as Schema).responses).map(Number).filter((s) => s >= 400);
  for (const op of operations()) {
    const pairs = examplePairs().filter((p) => p.operation.operationId === op.operationId && p.paired && p.status === 200);
    const template = pairs[0]!;
    const request = (body: string | undefined, extra: Partial<PairRequest> = {}): PairRequest => ({
      ...pairRequest(ctx.server, template, ctx.credentials, () => null),
      body,
      ...extra,
    });
    const add = (name: string, r: PairRequest, code: string | null, status: number[]) => {
      const key = `${r.method} ${r.url} ${r.headers['content-type']} ${r.body}`;
      const kind = status.some((s) => responseKind(op, s) === 'decision') ? 'decision' : 'described';
      if (seen.has(key)) return;
      seen.add(key);
      inputs.push({ name: `${op.operationId}: ${name}`, operation: op, request: r, code, status, kind });
    };
    const schema = { $ref: op.requestSchemaPointer! };
    const isValid = validator(op.requestSchemaPointer!);
    for (const base of pairs) {
      const { body } = prepare(base, ctx.values);
      for (const [name, mutated] of mutate(body as Json, schema)) {
        if (isValid(mutated).valid) continue; // still valid: not a bad input
        const fresh = withFreshIdentifiers(op.operationId, mutated, { status: 400 }) as Json;
        const expected = schemaViolation(op.operationId, fresh)!;
        const specific = expected.code !== 'system-error';
        add(`${base.name}, ${name}`, request(JSON.stringify(fresh)), specific ? expected.code : null, specific ? [expected.status] : errorStatuses(op));
      }
    }
    const any = errorStatuses(op);
    for (const [name, body] of [['malformed JSON', '{"'], ['truncated JSON', '{"threadIds": [1,'], ['not JSON', 'hello'], ['an empty body', ''], ['JSON null', 'null'], ['a JSON string', '"text"'], ['a JSON array', '[]'], ['a JSON number', '42']] as const) {
      add(name, request(body), null, any);
    }
    const valid = JSON.stringify(prepare(template, ctx.values).body);
    add('Content-Type text/plain', request(valid, { headers: { ...request(valid).headers, 'content-type': 'text/plain' } }), null, any);
    add('Content-Type form', request('a=1', { headers: { ...request(valid).headers, 'content-type': 'application/x-www-form-urlencoded' } }), null, any);
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) add(`method ${method}`, request(method === 'GET' ? undefined : valid, { method }), 'method-not-allowed', [405]);
    for (const suffix of ['/extra', '-x', 'x/..x']) add(`unknown path ${op.path}${suffix}`, request(valid, { url: ctx.server.replace(/\/+$/, '') + op.path + suffix }), 'not-found', [404]);
  }
  const rnd = random(ctx.seed);
  for (let i = inputs.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [inputs[i], inputs[j]] = [inputs[j]!, inputs[i]!];
  }
  return inputs;
}

const problemValid = schemaValidator('Problem');

export const badInputStage: Stage = {
  name: 'bad-input',
  description: 'invalid requests generated from the schemas (about 370); each gets a documented error with a problem body',
  async run(ctx: SuiteContext): Promise<CheckResult[]> {
    const inputs = badInputs(ctx).filter((input) => runs(ctx, input.kind));
    const results: CheckResult[] = [];
    const batch = 50;
    for (let start = 0; start < inputs.length; start += batch) {
      for (const input of inputs.slice(start, start + batch)) {
        results.push(await check(ctx, 'bad-input', input.name, input.kind, { operationId: input.operation.operationId, ...(input.status.length === 1 ? { status: input.status[0] } : {}), ...(input.code ? { code: input.code } : {}) }, async () => {
          const expected = `${input.status.join(' or ')}${input.code ? ` ${input.code}` : ''} with a problem body`;
          const { response, error } = await send(ctx, input.request);
          if (!response) return { ok: false, request: describeRequest(input.request), replay: replay(ctx, input.request), expected, actual: `no answer: ${error}` };
          const { text, body: answer, contentType } = await readAnswer(response);
          const body = answer as { title?: unknown; status?: unknown } | undefined;
          const problems: string[] = [];
          if (!input.status.includes(response.status)) problems.push(`status ${response.status}`);
          if (!/^application\/json/i.test(contentType)) problems.push(`content-type ${contentType}`);
          const problem = problemValid(body);
          if (!problem.valid) problems.push(`not a problem: ${problem.errors.join('; ')}`);
          else if (body?.status !== response.status) problems.push(`problem status ${body?.status} on a ${response.status}`);
          if (input.code && (typeof body?.title !== 'string' || normalizeErrorCode(body.title) !== normalizeErrorCode(input.code))) problems.push(`title ${JSON.stringify(body?.title)}`);
          return { ok: problems.length === 0, request: describeRequest(input.request), replay: replay(ctx, input.request), expected, actual: problems.length ? `${problems.join('; ')}: ${text.slice(0, 200)}` : `${response.status} ${String(body?.title)}` };
        }));
      }
      // The server must still answer a valid request after each batch.
      results.push(await check(ctx, 'bad-input', `server still answers after ${Math.min(start + batch, inputs.length)} bad inputs`, 'described', undefined, async () => {
        const probe = examplePairs().find((p) => p.operation.operationId === 'closeThreads' && p.name === 'notExisting')!;
        const request = pairRequest(ctx.server, probe, ctx.credentials, () => prepare(probe, ctx.values).body);
        const { response, error } = await send(ctx, request);
        return { ok: response?.status === 200, request: describeRequest(request), replay: replay(ctx, request), expected: '200', actual: response ? `${response.status}` : `no answer: ${error}` };
      }));
    }
    return results;
  },
};
