// What the suite needs to know of each operation beyond its schemas, read from the document's own
// `x-` keys next to what each describes (the description says it in words there): the value a
// deployment takes once, the fields an answer echoes, the answers a valid request may get for a
// value the suite changed, the lists of an answer and where an identifier goes when sent again,
// the requests that change nothing (the probes), the webhook that reports an operation's messages.
// A new operation needs its keys in the document, not a line here.
import { resolvePointer } from '../core/document.ts';
import { examplePairs, marked, type ExamplePair, type ExpectationKind, type Operation } from '../core/examples.ts';

type Obj = Record<string, unknown>;

const operationObject = (op: Operation) => resolvePointer(op.pointer) as Obj;
const responseObject = (op: Operation, status: number) => {
  const raw = (operationObject(op).responses as Obj)[String(status)] as Obj | undefined;
  return (raw?.$ref ? resolvePointer(raw.$ref as string) : raw) as Obj | undefined;
};

/** A key's value, checked: a document that gets one wrong fails at once, naming it. */
function read<T>(where: string, key: string, value: unknown, valid: (v: unknown) => boolean, expected: string): T {
  if (!valid(value)) throw new Error(`${where}/${key}: expected ${expected}, got ${JSON.stringify(value)}`);
  return value as T;
}
const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isStringList = (v: unknown) => Array.isArray(v) && v.every(isString);

/** The value a deployment accepts once (`x-taken-once`): where it is in the request, and the code a second use gets. */
export interface TakenOnce {
  /** `requestId`, or `addresses[type=EXT_USER_ID].address`: a list's items selected by a field's value. */
  field: string;
  code: string;
}

/** `requestId`, `addresses[type=EXT_USER_ID].address`: what vars.ts can follow. */
const selector = /^[^.[\]=]+(\[\w+=[^\]]+\])?(\.[^.[\]=]+(\[\w+=[^\]]+\])?)*$/;

export function takenOnce(op: Operation): TakenOnce | undefined {
  const value = operationObject(op)['x-taken-once'];
  if (value === undefined) return undefined;
  return read<TakenOnce>(
    op.pointer,
    'x-taken-once',
    value,
    (v) => isString((v as Obj)?.field) && selector.test((v as Obj).field as string) && isString((v as Obj)?.code),
    "{field, code}, the field a path of names, a list's items picked as `list[field=value]`",
  );
}

/** The request's fields an answer with `status` gives back as sent (`x-echoes`). */
export function echoes(op: Operation, status: number): string[] {
  const value = responseObject(op, status)?.['x-echoes'];
  return value === undefined
    ? []
    : read<string[]>(`${op.pointer}/responses/${status}`, 'x-echoes', value, isStringList, 'a list of field names');
}

/** The request field whose identifiers the answer with `status` lists once each (`x-lists-each-once`). */
export function listedOnce(op: Operation, status: number): string | undefined {
  const value = responseObject(op, status)?.['x-lists-each-once'];
  return value === undefined
    ? undefined
    : read<string>(`${op.pointer}/responses/${status}`, 'x-lists-each-once', value, isString, 'a field name');
}

/** Per list of the answer with `status`, the list each identifier is in when the same request is sent again (`x-sent-again`). */
export function sentAgain(op: Operation, status: number): Record<string, string> | undefined {
  const value = responseObject(op, status)?.['x-sent-again'];
  if (value === undefined) return undefined;
  return read<Record<string, string>>(
    `${op.pointer}/responses/${status}`,
    'x-sent-again',
    value,
    (v) => v !== null && typeof v === 'object' && Object.values(v).every(isString),
    'an object of list -> list',
  );
}

/** An answer a valid request may get for a value the suite changed at or under `field` (`x-business-answers`). */
export interface BusinessAnswer {
  /** In the form of edges' patterns: `parameterValues.[].name`. */
  field: string;
  code: string;
  kind: ExpectationKind;
  basis: string;
}

export function businessAnswers(op: Operation): BusinessAnswer[] {
  const value = operationObject(op)['x-business-answers'];
  if (value === undefined) return [];
  const list = read<Array<{ field: string; code: string; why: string }>>(
    op.pointer,
    'x-business-answers',
    value,
    (v) => Array.isArray(v) && v.every((a: Obj) => isString(a?.field) && isString(a?.code) && isString(a?.why)),
    'a list of {field, code, why}',
  );
  return list.map((a, i) => ({
    field: a.field.replace(/\[\]/g, '.[]'),
    code: a.code,
    kind: marked({ description: a.why }) ? 'decision' : 'described',
    basis: `${op.pointer}/x-business-answers/${i} (${a.why})`,
  }));
}

/** The webhooks that report each message the operation schedules (`x-reported-by`). */
export function reportedBy(op: Operation): string[] {
  const value = operationObject(op)['x-reported-by'];
  return value === undefined
    ? []
    : read<string[]>(op.pointer, 'x-reported-by', value, isStringList, 'a list of webhook names');
}

/** The named examples whose request changes nothing (`x-request: {probe: true}`): each operation's first request of a run. */
export const probeExamples = (): ExamplePair[] => examplePairs().filter((p) => p.trigger.probe === true);
