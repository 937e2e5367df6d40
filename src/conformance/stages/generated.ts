// Stage generated: requests fast-check makes from the request schemas and the named success examples. A request keeps
// an example's business facts (which cascade takes which content, which parameters and tags the account has) and varies
// what the schema leaves free (text in any script, numbers, list sizes, optional fields, date-time offsets, int64 ids,
// the requestId's case); each must be accepted as the rules predict (broken requests are the boundaries stage's).
// `--seed` replays a run; a failure is shrunk to the smallest request that still fails.
import fc from 'fast-check';
import { flatSchema } from '../../core/document.ts';
import { documentOperations, successExamples, type ExamplePair, type Operation } from '../../core/examples.ts';
import { planStage, runs, type Planned, type SuiteContext } from '../suite/context.ts';
import type { Outcome } from '../ground/model.ts';
import { acceptedExpectation, isAccepted, readingsExpectation } from '../document/expectations.ts';
import { pairRequest } from '../document/pairs.ts';
import { prepare, substitute, withFreshIdentifiers } from '../suite/vars.ts';
import { businessAnswers, takenOnce } from '../document/policy.ts';
import { Digits, parsed, serialize, type Json } from '../../core/digits.ts';
import { at, uuidShaped } from '../../core/edges.ts';

type Schema = Record<string, any>;

/** Generated requests per operation in one run. */
export const defaultGenerated = 25;

/** Code points of several scripts: Latin, Cyrillic, CJK and emoji (one code point, two UTF-16 units). */
const codePoint = fc
  .oneof(
    fc.integer({ min: 0x20, max: 0x7e }),
    fc.integer({ min: 0x400, max: 0x4ff }),
    fc.integer({ min: 0x4e00, max: 0x9fff }),
    fc.integer({ min: 0x1f300, max: 0x1faff }),
  )
  .map((c) => String.fromCodePoint(c));
const text = (minLength: number, maxLength: number) =>
  fc.array(codePoint, { minLength, maxLength }).map((cs) => cs.join(''));

const day = 86_400_000;
/** A date-time from tomorrow to a year ahead, written with any offset the format allows, with or without a fraction. */
const dateTime = (now: number) =>
  fc
    .record({
      ms: fc.integer({ min: day, max: 365 * day }),
      offset: fc.integer({ min: -48, max: 56 }).map((q) => q * 15),
      fraction: fc.boolean(),
    })
    .map(({ ms, offset, fraction }) => {
      // The local time at the offset, as UTC's ISO form shows it (with the milliseconds or not), then the offset.
      const local = new Date(now + ms + offset * 60_000).toISOString().slice(0, fraction ? 23 : 19);
      const hhmm = new Date(Math.abs(offset) * 60_000).toISOString().slice(11, 16); // under 24 h
      return `${local}${offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${hhmm}`}`;
    });
const date = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const int64 = fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }).map((b) => new Digits(String(b)));
const dated = (s: Schema, now: number): fc.Arbitrary<Json> | undefined =>
  s.format === 'date-time' ? dateTime(now) : s.format === 'date' ? date : undefined;

// What may stand where the example has `example`, given the schema there. A value the example sets and the schema does
// not bound (an enum, a pattern, a URI, an address, a name) stays: it is one of the business facts.
function arbitrary(schema: Schema, example: Json, now: number): fc.Arbitrary<Json> {
  const s = flatSchema(schema) ?? {};
  if (typeof example === 'string' && !s.enum && s.const === undefined && !s.pattern) {
    if (s.format) return dated(s, now) ?? fc.constant(example);
    if (typeof s.maxLength === 'number' || / /.test(example)) return text(s.minLength ?? 0, s.maxLength ?? 60);
  }
  // An int64 stays: it is an identifier of something the deployment has (a cascade), a business fact.
  if (typeof example === 'number' && s.format !== 'int64') {
    if (s.type === 'integer' && typeof s.minimum === 'number')
      return fc.integer({ min: s.minimum, max: s.maximum ?? 1_000_000_000 });
    if (s.type === 'number' && typeof s.minimum === 'number' && typeof s.maximum === 'number')
      return fc.double({ min: s.minimum, max: s.maximum, noNaN: true, noDefaultInfinity: true });
  }
  if (typeof example === 'boolean') return fc.boolean();
  if (Array.isArray(example)) {
    const maxLength = Math.min(s.maxItems ?? example.length + 2, 12);
    const minLength = s.minItems ?? 0;
    // Identifier lists (int64 items): the example's ids and ids anywhere in the int64 range, each once.
    if (flatSchema(s.items ?? {})?.format === 'int64') {
      const known = example.length ? fc.constantFrom(...example) : int64;
      const selector = (v: Json) => (v instanceof Digits ? v.digits : String(v));
      return fc.uniqueArray(fc.oneof(known, int64), { minLength: Math.max(minLength, 1), maxLength, selector });
    }
    if (example.length === 0) return fc.constant(example);
    const item = fc.nat(example.length - 1).chain((i) => arbitrary(s.items ?? {}, example[i]!, now));
    return fc.array(item, { minLength, maxLength });
  }
  if (example !== null && typeof example === 'object' && !(example instanceof Digits)) {
    const properties: Record<string, Schema> = s.properties ?? {};
    const fields: Record<string, fc.Arbitrary<Json | undefined>> = {};
    for (const [key, value] of Object.entries(example)) {
      const inner = properties[key] ? arbitrary(properties[key]!, value, now) : fc.constant(value);
      // An optional scalar may be left out; an optional object stays (which content entries a request has is a
      // business fact: every stage of the cascade needs one).
      const kept = s.required?.includes(key) || (value !== null && typeof value === 'object');
      fields[key] = kept ? inner : fc.option(inner, { nil: undefined, freq: 4 });
    }
    // An optional property the example leaves out: only where the schema alone says enough.
    for (const [key, child] of Object.entries(properties)) {
      const c = flatSchema(child) ?? {};
      const made = c.type === 'boolean' ? fc.boolean() : c.type === 'string' ? dated(c, now) : undefined;
      if (!(key in example) && made) fields[key] = fc.option(made, { nil: undefined });
    }
    return fc
      .record(fields)
      .map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Json);
  }
  return fc.constant(example);
}

/** The values at a field written as edges' patterns (`content`, `parameterValues.[].name`), as JSON. */
function valuesAt(body: unknown, field: string): string[] {
  let at: any[] = [body];
  for (const step of field.split('.'))
    at =
      step === '[]'
        ? at.filter(Array.isArray).flat()
        : at.filter((v) => v !== null && typeof v === 'object' && Object.hasOwn(v, step)).map((v) => v[step]);
  return at.map((v) => serialize(v));
}

// The fields a business answer concerns (`x-business-answers`) where the draft has a value its example does not: a
// content whose text changed, a name no example gives (the names of a list reordered or repeated are not new).
const changedFields = (op: Operation, example: unknown, draft: Json): string[][] =>
  [...new Set(businessAnswers(op).map((b) => b.field))]
    .filter((field) => valuesAt(draft, field).some((v) => !valuesAt(example, field).includes(v)))
    .map((field) => field.split('.'));

/** The request for a draft: identifiers the deployment takes once made new for this send, in the drawn shape. */
function requestOf(ctx: SuiteContext, op: Operation, draft: { pair: ExamplePair; body: Json; shape: string }) {
  let body = withFreshIdentifiers(op.operationId, draft.body, { status: 200 }) as Json;
  // The value taken once, where it is a field of the body (`x-taken-once`), in the drawn case.
  const once = takenOnce(op)?.field;
  const fresh = once && /^\w+$/.test(once) ? at(body, [once]) : undefined;
  if (once && typeof fresh === 'string' && fresh !== at(draft.body, [once]) && uuidShaped.test(fresh))
    body = { ...(body as Record<string, Json>), [once]: draft.shape === 'upper' ? fresh.toUpperCase() : fresh };
  return { ...pairRequest(ctx.server, draft.pair, ctx.credentials, null), body: serialize(body) };
}

const drafts = (ctx: SuiteContext, op: Operation, now = Date.now()) =>
  fc
    .constantFrom(...successExamples(op))
    .chain((pair) =>
      fc.record({
        pair: fc.constant(pair),
        body: arbitrary({ $ref: op.requestSchemaPointer! }, prepare(pair, ctx.values).body as Json, now),
        // How a fresh requestId is written: a UUID in either case (one that is no UUID is an open point, the
        // boundaries stage's probe).
        shape: fc.constantFrom('lower', 'upper'),
      }),
    )
    .filter((d) => isAccepted(op, d.body));

/** The check of `ctx.generated` requests drawn for `op`: on a failure, the shrunk request's outcome and its replay. */
function property(ctx: SuiteContext, op: Operation, index: number): Planned {
  const basis = `${op.requestSchemaPointer} and the operation's success examples`;
  const run = async (): Promise<Outcome> => {
    let failure: Outcome | undefined;
    let sent = 0;
    const details = await fc.check(
      fc.asyncProperty(drafts(ctx, op), async (draft) => {
        // A business rule reads a value the draft changed from its example (rule 4: the content, its template).
        const changed = changedFields(op, substitute(draft.pair.requestBody, ctx.values), draft.body);
        const decided = acceptedExpectation(op, changed, basis);
        const expectation = readingsExpectation(op, parsed(draft.body), ctx.profile, decided);
        // An answer only this contract decides (another reading takes it past a decided limit): not sent by default.
        fc.pre(runs(ctx, expectation.kind));
        const outcome = await ctx.sendCase({ operation: op, request: requestOf(ctx, op, draft), expectation });
        sent++;
        if (!outcome.faults?.length) return true;
        failure = outcome;
        return false;
      }),
      // The run's seed is the one to give: each property's own seed is made from it.
      { seed: ctx.seed * 1009 + index, numRuns: ctx.generated, endOnFailure: false, maxSkipsPerRun: 100 },
    );
    const expected = `${ctx.generated} generated requests`;
    // A property no generated request reached proves nothing: it fails rather than pass empty.
    if (!details.failed && sent === 0)
      return { expected, failed: `none of ${details.numSkips} generated requests was valid (--seed ${ctx.seed})` };
    if (!details.failed) return { expected, actual: `${sent} sent, each answered as predicted` };
    const replay = `replay: --seed ${ctx.seed} --only generated (shrunk in ${details.numShrinks} steps)`;
    const actual = `${failure?.actual ?? String(details.errorInstance)}; ${replay}`;
    return failure ? { ...failure, actual } : { expected, failed: actual };
  };
  const name = `${op.operationId}: ${ctx.generated} generated valid requests are accepted`;
  return { name, kind: 'described', basis, covers: { operationId: op.operationId, generated: ctx.generated }, run };
}

export const generatedStage = planStage(
  'generated',
  'requests generated from the schemas and the success examples (fast-check; --seed replays), each accepted as the rules predict',
  (ctx) =>
    documentOperations()
      .filter((op) => op.requestSchemaPointer)
      .map((op, index) => property(ctx, op, index)),
);
