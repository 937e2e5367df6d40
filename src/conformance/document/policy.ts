// What the suite needs to know of each operation beyond its schemas, read from the document's own `x-` keys next to
// what each describes (the description says it in words there), each checked as it is read. A new operation needs its
// keys in the document, not a line here.
import { deref, resolvePointer } from '../../core/document.ts';
import { parseJson } from '../../core/json-int64.ts';
import { examplePairs, marked, type ExamplePair, type ExpectationKind, type Operation } from '../../core/examples.ts';
import { openPoint } from '../../core/open-points.ts';

type Obj = Record<string, unknown>;
type Link = { payload: string; request: string };

const operationObject = (op: Operation) => resolvePointer(op.pointer) as Obj;
const responses = (op: Operation) => operationObject(op).responses as Record<string, Obj | undefined>;

/** The statuses the document lists for an operation (not `default`). */
export const documentedStatuses = (op: Operation): number[] =>
  Object.keys(responses(op)).flatMap((s) => (/^\d{3}$/.test(s) ? [Number(s)] : []));

/** Whether the operation documents `default`: any other error status is one of its answers. */
export const documentsDefault = (op: Operation) => Object.hasOwn(responses(op), 'default');

/** An answer's lists as digits (read digit for digit: an id past 2^53 is not rounded), by list. */
export const listsOf = (text: string): Array<[string, string[]]> =>
  Object.entries(parseJson(text) as Obj).flatMap(([name, list]) =>
    Array.isArray(list) ? [[name, list.map(String)]] : [],
  );

/** Where the operation's response with `status` is written (a shared one is a `$ref` to it). */
export const responsePointer = (op: Operation, status: number | string): string =>
  (responses(op)[status]?.$ref as string | undefined) ?? `${op.pointer}/responses/${status}`;

type Valid = (v: any) => boolean;
const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const listOf = (valid: Valid) => (v: any) => Array.isArray(v) && v.every(valid);
const optional = (valid: Valid) => (v: any) => v === undefined || valid(v);
/** An object whose each named field is valid (`optional` ones may be absent). */
const shape = (fields: Record<string, Valid>) => (v: any) => Object.entries(fields).every(([k, f]) => f(v?.[k]));
const isStringList = listOf(isString);
/** One list's name, or the names of the lists any of which may hold an identifier. */
const isListName = (v: any) => isString(v) || (isStringList(v) && v.length > 0);
const isLink = shape({ payload: isString, request: isString });
/** `requestId`, `addresses[type=EXT_USER_ID].address` (a list's items selected by a field's value): what vars.ts can follow. */
const selector = /^[^.[\]=]+(\[\w+=[^\]]+\])?(\.[^.[\]=]+(\[\w+=[^\]]+\])?)*$/;

/** Each key read here: what a valid value is, and what a document that gets it wrong is told it should be. */
const rules: Record<string, [valid: Valid, expected: string]> = {
  'x-taken-once': [
    shape({ field: (f) => isString(f) && selector.test(f), code: isString, 'released-unseen': optional(isString) }),
    "{field, code, released-unseen?}, the field a path of names, a list's items picked as `list[field=value]`",
  ],
  'x-echoes': [isStringList, 'a list of field names'],
  'x-lists-each-once': [isString, 'a field name'],
  'x-sent-again': [
    (v) => v !== null && typeof v === 'object' && Object.values(v).every(isListName),
    'an object of list -> a list, or a list of the lists it may be in',
  ],
  'x-unseen-moves': [
    listOf(shape({ from: isStringList, to: isStringList, why: isString })),
    'a list of {from: [lists], to: [lists], why}',
  ],
  'x-business-answers': [
    listOf(shape({ field: isString, code: isString, why: isString })),
    'a list of {field, code, why}',
  ],
  'x-reported-by': [isStringList, 'a list of webhook names'],
  'x-sent-at': [isString, 'a field name'],
  'x-links': [
    shape({ identifies: isLink, reports: optional(listOf(isLink)) }),
    '{identifies: {payload, request}, reports: [{payload, request}]}',
  ],
};

/** The `name` key of `node`, checked: a document that gets one wrong fails at once, naming it. */
function key<T>(node: Obj | undefined, where: string, name: string): T | undefined {
  const [valid, expected] = rules[name]!;
  const value = node?.[name];
  if (value !== undefined && !valid(value))
    throw new Error(`${where}/${name}: expected ${expected}, got ${JSON.stringify(value)}`);
  return value as T | undefined;
}
const ofOperation = <T>(op: Operation, name: string) => key<T>(operationObject(op), op.pointer, name);
const ofResponse = <T>(op: Operation, status: number, name: string) =>
  key<T>(deref<Obj | undefined>(responses(op)[status]), `${op.pointer}/responses/${status}`, name);

/** The value a deployment accepts once (`x-taken-once`): where it is in the request, and the code a second use gets. */
export const takenOnce = (op: Operation) =>
  ofOperation<{ field: string; code: string; 'released-unseen'?: string }>(op, 'x-taken-once');

/**
 * Where `x-taken-once` picks one item of a list (`addresses[type=EXT_USER_ID].address`), the open point
 * `unique-addresses` and the field each answer takes once: `ext-user-id` that one, `every-address` every item's.
 */
export function takenOnceBy(op: Operation) {
  const field = takenOnce(op)?.field;
  const every = field?.replace(/\[\w+=[^\]]+\]/, '[]');
  if (!field || every === field) return undefined;
  const point = openPoint('unique-addresses', ['ext-user-id', 'every-address'] as const);
  return { point, fields: { 'ext-user-id': field, 'every-address': every! } };
}

/** The request's fields an answer with `status` gives back as sent (`x-echoes`). */
export const echoes = (op: Operation, status: number) => ofResponse<string[]>(op, status, 'x-echoes') ?? [];

/** The request field whose identifiers the answer with `status` lists once each (`x-lists-each-once`). */
export const listedOnce = (op: Operation, status: number) => ofResponse<string>(op, status, 'x-lists-each-once');

/** Per list of the answer with `status`, the lists any of which may hold its ids when sent again (`x-sent-again`). */
export function sentAgain(op: Operation, status: number): Record<string, string[]> | undefined {
  const again = ofResponse<Record<string, string | string[]>>(op, status, 'x-sent-again');
  return again && Object.fromEntries(Object.entries(again).map(([from, to]) => [from, [to].flat()]));
}

/**
 * Per list of the answer with `status`, the lists an identifier in it may be in at a later call, whatever happened
 * between that no exchange shows: where `x-sent-again` puts it, and each `to` of the `x-unseen-moves` from its list.
 */
export function laterLists(op: Operation, status: number): Record<string, string[]> | undefined {
  const again = sentAgain(op, status);
  const moves = ofResponse<Array<{ from: string[]; to: string[] }>>(op, status, 'x-unseen-moves') ?? [];
  const unseen = (from: string) => moves.flatMap((m) => (m.from.includes(from) ? m.to : []));
  if (!again) return undefined;
  return Object.fromEntries(Object.entries(again).map(([from, to]) => [from, [...new Set([...to, ...unseen(from)])]]));
}

/**
 * The answers a valid request may get for a value the suite changed at or under `field` (`x-business-answers`), the
 * field in the form of edges' patterns: `parameterValues.[].name`.
 */
export const businessAnswers = (op: Operation) =>
  (ofOperation<Array<{ field: string; code: string; why: string }>>(op, 'x-business-answers') ?? []).map((a, i) => ({
    field: a.field.replace(/\[\]/g, '.[]'),
    code: a.code,
    kind: (marked({ description: a.why }) ? 'decision' : 'described') as ExpectationKind,
    basis: `${op.pointer}/x-business-answers/${i} (${a.why})`,
  }));

/** The webhooks that report each message the operation schedules (`x-reported-by`). */
export const reportedBy = (op: Operation) => ofOperation<string[]>(op, 'x-reported-by') ?? [];

/** The request field that schedules a message for later (`x-sent-at`): such a message is reported then, not now. */
export const sentAt = (op: Operation) => ofOperation<string>(op, 'x-sent-at');

/** The first delay after which the service posts again a callback its receiver did not answer with 200. */
export const firstRetrySeconds = (webhook: string) =>
  ((resolvePointer(`#/webhooks/${webhook}/post`) as Obj)['x-retry-delays-seconds'] as number[] | undefined)?.[0];

/**
 * How a webhook's payload names the message it reports (`x-links`): the payload's field holding the scheduling
 * request's value taken once, and the fields it reports as the request gave them.
 */
export function links(webhook: string) {
  const pointer = `#/webhooks/${webhook}/post`;
  const found = key<{ identifies: Link; reports?: Link[] }>(resolvePointer(pointer) as Obj, pointer, 'x-links');
  if (!found) throw new Error(`${pointer}/x-links: expected how a callback names its message, found none`);
  return { identifies: found.identifies, reports: found.reports ?? [] };
}

/** The named examples whose request changes nothing (`x-request: {probe: true}`): each operation's first request of a run. */
export const probeExamples = (): ExamplePair[] => examplePairs().filter((p) => p.trigger.probe === true);

/**
 * The places `selector` names in `body` (`requestId`; `addresses[type=EXT_USER_ID].address`; `addresses[].address`,
 * every item of the list): each container and key.
 */
export function* places(body: unknown, selector: string): Generator<[Obj, string]> {
  const [head, ...rest] = selector.split('.');
  const step = /^([^[]+)(\[(?:(\w+)=([^\]]+))?\])?$/.exec(head!);
  if (!step || body === null || typeof body !== 'object' || Array.isArray(body) || !Object.hasOwn(body, step[1]!))
    return;
  const [, key, list, field, value] = step as unknown as [string, string, ...Array<string | undefined>];
  const child = (body as Obj)[key];
  if (rest.length === 0 && list === undefined) yield [body as Obj, key];
  else if (list === undefined) yield* places(child, rest.join('.'));
  else if (Array.isArray(child))
    for (const item of child.filter((i) => field === undefined || i?.[field] === value))
      yield* places(item, rest.join('.'));
}

/** The values `selector` names in `body` (`requestId`; `addresses[type=EXT_USER_ID].address`). */
export const valuesAt = (body: unknown, selector: string): unknown[] =>
  [...places(body, selector)].map(([container, key]) => container[key]);
