// What the suite needs to know of each operation beyond its schemas, read from the document's own
// `x-` keys next to what each describes (the description says it in words there): the value a
// deployment takes once, the fields an answer echoes, the answers a valid request may get for a
// value the suite changed, the lists of an answer and where an identifier goes when sent again,
// the requests that change nothing (the probes), the webhook that reports an operation's messages.
// A new operation needs its keys in the document, not a line here.
import { resolvePointer } from '../../core/document.ts';
import { parseJson } from '../../core/json-int64.ts';
import { examplePairs, marked, type ExamplePair, type ExpectationKind, type Operation } from '../../core/examples.ts';

type Obj = Record<string, unknown>;

const operationObject = (op: Operation) => resolvePointer(op.pointer) as Obj;

/** The statuses the document lists for an operation (not `default`). */
export const documentedStatuses = (op: Operation): number[] =>
  Object.keys(operationObject(op).responses as Obj)
    .filter((s) => /^\d{3}$/.test(s))
    .map(Number);

/** An answer's lists as digits (read digit for digit: an id past 2^53 is not rounded), by list. */
export function listsOf(text: string): Array<[string, string[]]> {
  const body = parseJson(text) as Record<string, unknown>;
  return Object.entries(body).flatMap(([name, list]) => (Array.isArray(list) ? [[name, list.map(String)]] : []));
}

/** Where the operation's response with `status` is written (a shared one is a `$ref` to it). */
export function responsePointer(op: Operation, status: number | string): string {
  const raw = (operationObject(op).responses as Record<string, { $ref?: string } | undefined>)[status];
  return raw?.$ref ?? `${op.pointer}/responses/${status}`;
}
const responseObject = (op: Operation, status: number) => {
  const raw = (operationObject(op).responses as Obj)[String(status)] as Obj | undefined;
  return (raw?.$ref ? resolvePointer(raw.$ref as string) : raw) as Obj | undefined;
};

/** The `name` key of `node`, checked: a document that gets one wrong fails at once, naming it. */
function key<T>(node: Obj | undefined, where: string, name: string, valid: (v: any) => boolean, expected: string) {
  const value = node?.[name];
  if (value !== undefined && !valid(value))
    throw new Error(`${where}/${name}: expected ${expected}, got ${JSON.stringify(value)}`);
  return value as T | undefined;
}
const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isStringList = (v: unknown) => Array.isArray(v) && v.every(isString);
const ofResponse = <T>(op: Operation, status: number, name: string, valid: (v: any) => boolean, expected: string) =>
  key<T>(responseObject(op, status), `${op.pointer}/responses/${status}`, name, valid, expected);

/** `requestId`, `addresses[type=EXT_USER_ID].address` (a list's items selected by a field's value): what vars.ts can follow. */
const selector = /^[^.[\]=]+(\[\w+=[^\]]+\])?(\.[^.[\]=]+(\[\w+=[^\]]+\])?)*$/;

/** The value a deployment accepts once (`x-taken-once`): where it is in the request, and the code a second use gets. */
export const takenOnce = (op: Operation) =>
  key<{ field: string; code: string; 'released-unseen'?: string }>(
    operationObject(op),
    op.pointer,
    'x-taken-once',
    (v) =>
      isString(v?.field) &&
      selector.test(v.field) &&
      isString(v?.code) &&
      (v['released-unseen'] === undefined || isString(v['released-unseen'])),
    "{field, code, released-unseen?}, the field a path of names, a list's items picked as `list[field=value]`",
  );

/** The request's fields an answer with `status` gives back as sent (`x-echoes`). */
export const echoes = (op: Operation, status: number) =>
  ofResponse<string[]>(op, status, 'x-echoes', isStringList, 'a list of field names') ?? [];

/** The request field whose identifiers the answer with `status` lists once each (`x-lists-each-once`). */
export const listedOnce = (op: Operation, status: number) =>
  ofResponse<string>(op, status, 'x-lists-each-once', isString, 'a field name');

/**
 * Per list of the answer with `status`, the lists each identifier may be in when the same request is sent again
 * (`x-sent-again`: one list, or the lists any of which may hold it), each as a list.
 */
export function sentAgain(op: Operation, status: number): Record<string, string[]> | undefined {
  const again = ofResponse<Record<string, string | string[]>>(
    op,
    status,
    'x-sent-again',
    (v) =>
      v !== null &&
      typeof v === 'object' &&
      Object.values(v).every((to) => isString(to) || (isStringList(to) && to.length > 0)),
    'an object of list -> a list, or a list of the lists it may be in',
  );
  return again && Object.fromEntries(Object.entries(again).map(([from, to]) => [from, [to].flat()]));
}

/**
 * Per list of the answer with `status`, the lists an identifier in it may be in at a later call, whatever happened
 * between that no exchange shows: where `x-sent-again` puts it, and each `to` of the `x-unseen-moves` from its list.
 */
export function laterLists(op: Operation, status: number): Record<string, string[]> | undefined {
  const again = sentAgain(op, status);
  const moves = ofResponse<Array<{ from: string[]; to: string[]; why: string }>>(
    op,
    status,
    'x-unseen-moves',
    (v) => Array.isArray(v) && v.every((m) => isStringList(m?.from) && isStringList(m?.to) && isString(m?.why)),
    'a list of {from: [lists], to: [lists], why}',
  );
  if (!again) return undefined;
  return Object.fromEntries(
    Object.entries(again).map(([from, to]) => [
      from,
      [...new Set([...to, ...(moves ?? []).filter((m) => m.from.includes(from)).flatMap((m) => m.to)])],
    ]),
  );
}

/**
 * The answers a valid request may get for a value the suite changed at or under `field`
 * (`x-business-answers`), the field in the form of edges' patterns: `parameterValues.[].name`.
 */
export function businessAnswers(op: Operation) {
  const list = key<Array<{ field: string; code: string; why: string }>>(
    operationObject(op),
    op.pointer,
    'x-business-answers',
    (v) => Array.isArray(v) && v.every((a: Obj) => isString(a?.field) && isString(a?.code) && isString(a?.why)),
    'a list of {field, code, why}',
  );
  return (list ?? []).map((a, i) => ({
    field: a.field.replace(/\[\]/g, '.[]'),
    code: a.code,
    kind: (marked({ description: a.why }) ? 'decision' : 'described') as ExpectationKind,
    basis: `${op.pointer}/x-business-answers/${i} (${a.why})`,
  }));
}

/** The webhooks that report each message the operation schedules (`x-reported-by`). */
export const reportedBy = (op: Operation) =>
  key<string[]>(operationObject(op), op.pointer, 'x-reported-by', isStringList, 'a list of webhook names') ?? [];

/** The first delay after which the service posts again a callback its receiver did not answer with 200. */
export const firstRetrySeconds = (webhook: string): number | undefined =>
  (resolvePointer(`#/webhooks/${webhook}/post`) as { 'x-retry-delays-seconds'?: number[] })[
    'x-retry-delays-seconds'
  ]?.[0];

/** The request field that schedules a message for later (`x-sent-at`): such a message is reported then, not now. */
export const sentAt = (op: Operation) =>
  key<string>(operationObject(op), op.pointer, 'x-sent-at', isString, 'a field name');

const isLink = (v: any) => isString(v?.payload) && isString(v?.request);

/**
 * How a webhook's payload names the message it reports (`x-links`): the payload's field holding the scheduling
 * request's value taken once, and the fields it reports as the request gave them.
 */
export function links(webhook: string) {
  const pointer = `#/webhooks/${webhook}/post`;
  const found = key<{
    identifies: { payload: string; request: string };
    reports?: Array<{ payload: string; request: string }>;
  }>(
    resolvePointer(pointer) as Obj,
    pointer,
    'x-links',
    (v) => isLink(v?.identifies) && (v.reports === undefined || (Array.isArray(v.reports) && v.reports.every(isLink))),
    '{identifies: {payload, request}, reports: [{payload, request}]}',
  );
  if (!found) throw new Error(`${pointer}/x-links: expected how a callback names its message, found none`);
  return { identifies: found.identifies, reports: found.reports ?? [] };
}

/** The named examples whose request changes nothing (`x-request: {probe: true}`): each operation's first request of a run. */
export const probeExamples = (): ExamplePair[] => examplePairs().filter((p) => p.trigger.probe === true);

type Fields = Record<string, unknown>;

/** The places `selector` names in `body` (`requestId`; `addresses[type=EXT_USER_ID].address`): each container and key. */
export function* places(body: unknown, selector: string): Generator<[Fields, string]> {
  const [head, ...rest] = selector.split('.');
  const step = /^([^[]+)(?:\[(\w+)=([^\]]+)\])?$/.exec(head!);
  if (!step || body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const [, key, field, value] = step as unknown as [string, string, string | undefined, string | undefined];
  if (!Object.hasOwn(body, key)) return;
  if (rest.length === 0 && field === undefined) {
    yield [body as Fields, key];
    return;
  }
  const child = (body as Fields)[key];
  const items = field === undefined ? [child] : Array.isArray(child) ? child.filter((i) => i?.[field] === value) : [];
  for (const item of items) yield* places(item, rest.join('.'));
}

/** The values `selector` names in `body` (`requestId`; `addresses[type=EXT_USER_ID].address`). */
export const valuesAt = (body: unknown, selector: string): unknown[] =>
  [...places(body, selector)].map(([container, key]) => container[key]);
