// The registry of checks: every answer any stage gets is judged here, by each check that concerns it. A check is a
// small function over (case, answer); a check that applies to every answer is one entry of `checks`. The order is the
// order of causes: a check whose `after` checks found a fault in the same answer does not run (a body that is not JSON
// has no schema to miss), so each answer names its root cause, and the report groups the same cause across every stage.
import { parseCascadeViolations, violationKey } from '../core/cascade-violations.ts';
import { listsDigits } from '../core/digits.ts';
import { deref, resolvePointer } from '../core/document.ts';
import { listsViolations, normalizeErrorCode } from '../core/error-codes.ts';
import { marked, type ExpectationKind, type Operation } from '../core/examples.ts';
import { errorParts } from '../core/validation.ts';
import { rawErrors } from '../core/validators/all.ts';
import type { Allowed, Case, Fault } from './case.ts';
import type { Answer } from './transport.ts';
import { listedOnce } from './policy.ts';

/** A fault before the registry names its check. */
export type Found = Omit<Fault, 'check'>;

export interface Check {
  id: string;
  /** What it holds, in a few words. */
  holds: string;
  /** Checks whose fault in the same answer makes this one moot: theirs is the root cause. */
  after?: string[];
  /** Whether the check judges this answer (default: every answer). */
  concerns?(c: Case, answer: Answer): boolean;
  faults(c: Case, answer: Answer): Found[];
}

const titleOf = (body: unknown) => (body as { title?: unknown } | null | undefined)?.title;
const sameCode = (title: unknown, code: string) =>
  typeof title === 'string' && normalizeErrorCode(title) === normalizeErrorCode(code);

/** The allowed answer this one is: the status's, the one whose code the title names when several share it. */
function matchOf(c: Case, answer: Answer): Allowed | undefined {
  const sameStatus = c.expectation.allowed.filter((a) => a.status === answer.status);
  return sameStatus.find((a) => a.code === undefined || sameCode(titleOf(answer.body), a.code)) ?? sameStatus[0];
}

/** An answer in short, for reading and for grouping: status and `title`. */
export function answerOf(status: number, body: unknown): string {
  const title = titleOf(body);
  return typeof title === 'string' ? `${status} ${title.slice(0, 80)}` : String(status);
}

/**
 * Each schema error of `value` under the schema at `pointer`, as a fault: grouped by the keyword of
 * the document it breaks (`#/components/schemas/ThreadId/type`), so the same broken rule in four
 * lists, or in every problem body, is one cause; list positions read as `[]`.
 */
function schemaFaults(pointer: string, value: unknown, what: string): Found[] {
  const found = new Map<string, Found>();
  for (const e of rawErrors(pointer, value)) {
    const parts = errorParts(e, value);
    if (!parts) continue;
    const rule = e.schemaPath.startsWith('#/components/') ? e.schemaPath : `${pointer}${e.schemaPath.slice(1)}`;
    const missing = (e.params as { missingProperty?: string }).missingProperty;
    const key = `${rule}${missing ? `/${missing}` : ''}`;
    if (found.has(key)) continue;
    const field = parts.field.replace(/\[\d+\]/g, '[]');
    found.set(key, {
      fault: `${what}: \`${field}\` expected ${parts.expected} (${key})`,
      key,
      detail: `${parts.field}: ${parts.value}; expected it ${parts.expected}`,
    });
  }
  return [...found.values()];
}

/** An operation's response with `status` as the document writes it (an error's may be a `$ref`). */
const responseOf = (op: Operation, status: number) =>
  (resolvePointer(op.pointer) as { responses: Record<string, Record<string, any> | undefined> }).responses[status];

/** The schema of an operation's JSON answer with `status`, when the document gives one (a success's is no `$ref`). */
const answerSchema = (op: Operation, status: number) =>
  responseOf(op, status)?.content?.['application/json']?.schema
    ? `${op.pointer}/responses/${status}/content/application~1json/schema`
    : undefined;

/** The identifiers of `field` in a request's text, each once, as digits: read from the text, so no id past 2^53 is rounded. */
const idsSent = (body: string | undefined, field: string) => [
  ...new Set(
    (new RegExp(`"${field}"\\s*:\\s*\\[([^\\]]*)\\]`).exec(body ?? '')?.[1] ?? '')
      .split(',')
      .map((d) => d.trim())
      .filter(Boolean),
  ),
];

/** The headers the document declares for an operation's answer with `status`: name, whether required, schema, and its kind. */
function declaredHeaders(op: Operation, status: number) {
  const response = deref(responseOf(op, status)) as { headers?: Record<string, object> } | undefined;
  return Object.entries(response?.headers ?? {}).map(([name, header]) => {
    const h = deref(header as Record<string, unknown>) as { required?: boolean; schema?: object };
    return {
      name,
      required: h.required === true,
      schema: (h.schema ?? {}) as { enum?: unknown[]; pattern?: string },
      kind: (marked(h) ? 'decision' : 'described') as ExpectationKind,
    };
  });
}

/** Lists compare as sets: the description gives no order to the identifiers of a result list. */
const canonical = (v: unknown) =>
  Array.isArray(v)
    ? v
        .map((x) => JSON.stringify(x))
        .sort()
        .join(',')
    : JSON.stringify(v);

export const checks: Check[] = [
  {
    id: 'json',
    holds: 'the body is JSON',
    faults: (_c, a) =>
      a.json ? [] : [{ fault: 'the body is not JSON', detail: JSON.stringify(a.text.slice(0, 120)) }],
  },
  {
    // Grouped by what came, not by which field or limit the request was about: the same wrong
    // answer is one cause, whichever requests show it.
    id: 'status',
    holds: 'the status, and the code where one is expected, are an answer the document allows for the request',
    faults(c, a) {
      const match = matchOf(c, a);
      // The code is read only from a JSON body (one that is not is the json check's cause).
      if (match && (match.code === undefined || !a.json || sameCode(titleOf(a.body), match.code))) return [];
      const answered = answerOf(a.status, a.body);
      const refused = c.expectation.allowed.every((x) => x.status >= 400);
      const fault =
        refused && a.status < 300
          ? `accepts a request the document refuses: answered ${a.status}`
          : !refused && a.status >= 400
            ? `refuses a request the document accepts: answered ${answered}`
            : `answered ${answered} where the document gives another answer`;
      const detail = match
        ? `title ${JSON.stringify(titleOf(a.body))}, expected ${JSON.stringify(match.code)}`
        : `status ${a.status}`;
      return [{ fault, key: `answered ${a.status < 300 ? a.status : answered}`, detail }];
    },
  },
  {
    id: 'content-type',
    holds: 'the answer is application/json',
    after: ['json'],
    faults(_c, a) {
      if (/^application\/json/i.test(a.contentType)) return [];
      const fault = `content-type ${JSON.stringify(a.contentType.toLowerCase())} where application/json is expected`;
      return [{ fault, detail: `content-type ${JSON.stringify(a.contentType)}, expected application/json` }];
    },
  },
  {
    id: 'headers',
    holds: 'every header the document declares for the answer: present where required, and as its schema says',
    after: ['status'],
    faults: (c, a) =>
      declaredHeaders(c.operation, a.status).flatMap(({ name, required, schema, kind }) => {
        const value = a.headers[name.toLowerCase()];
        if (value === undefined) {
          const fault = `${a.status} without the ${name} header the document declares for it`;
          return required ? [{ fault, detail: `${name}: missing`, kind }] : [];
        }
        const fits =
          (!Array.isArray(schema.enum) || schema.enum.includes(value)) &&
          (typeof schema.pattern !== 'string' || new RegExp(schema.pattern, 'u').test(value));
        const fault = `the ${name} header of a ${a.status} not as its schema says`;
        return fits ? [] : [{ fault, detail: `${name}: ${JSON.stringify(value)}, not as its schema says`, kind }];
      }),
  },
  {
    id: 'problem',
    holds: "an error's body is a problem whose `status` is the answer's",
    after: ['json', 'status'],
    concerns: (_c, a) => a.status >= 400,
    faults(_c, a) {
      if (a.body === undefined) return [{ fault: 'an error without a problem body', detail: 'no body' }];
      const faults = schemaFaults('#/components/schemas/Problem', a.body, 'a problem body');
      const status = (a.body as { status?: unknown } | null)?.status;
      if (faults.length > 0 || status === a.status) return faults;
      const fault = "a problem body's `status` is not the answer's status";
      return [{ fault, detail: `problem status ${JSON.stringify(status)} on a ${a.status}` }];
    },
  },
  {
    id: 'schema',
    holds: "a success's body is valid against the operation's response schema",
    after: ['json', 'status'],
    concerns: (c, a) => a.status < 300 && answerSchema(c.operation, a.status) !== undefined,
    faults: (c, a) =>
      schemaFaults(answerSchema(c.operation, a.status)!, a.body, `${c.operation.operationId} ${a.status}`),
  },
  {
    id: 'listed-once',
    holds: 'each identifier sent is in exactly one result list, digit for digit (`x-lists-each-once`)',
    after: ['json', 'status', 'schema'],
    concerns: (c, a) => a.status < 300 && listedOnce(c.operation, a.status) !== undefined,
    faults(c, a) {
      const sent = idsSent(c.request.body, listedOnce(c.operation, a.status)!);
      const lost = sent.filter((d) => !listsDigits(a.text, d));
      const listed = Object.values(a.body as object).flatMap((list) => (Array.isArray(list) ? list : [])).length;
      if (lost.length === 0 && listed === sent.length) return [];
      const fault = 'an identifier sent is not in exactly one result list, digit for digit';
      const notListed = lost.length ? `; not listed as sent: ${lost.slice(0, 5).join(', ')}` : '';
      return [{ fault, detail: `${listed} entries for ${sent.length} identifiers${notListed}` }];
    },
  },
  {
    id: 'fields',
    holds: "a success's fields are the ones the document gives for the request",
    after: ['json', 'status', 'schema', 'listed-once'],
    concerns: (c, a) => c.fields !== undefined && a.status < 300,
    faults: (c, a) =>
      Object.entries(c.fields!).flatMap(([key, value]) => {
        const actual = (a.body as Record<string, unknown>)[key];
        if (canonical(actual) === canonical(value)) return [];
        const fault = `${c.operation.operationId} \`${key}\` is not the value the document gives for the request`;
        const detail = `${key} is ${JSON.stringify(actual)}, expected ${JSON.stringify(value)}`;
        return [{ fault, key: `${c.operation.operationId} fields`, detail }];
      }),
  },
  {
    // The ids and channels must match; the sentences are not all published, so their wording need not.
    id: 'violations',
    holds: "a validation error's detail names every violation of the request",
    after: ['json', 'status'],
    concerns(c, a) {
      const code = matchOf(c, a)?.code;
      return c.detail !== undefined && code !== undefined && listsViolations(code);
    },
    faults(c, a) {
      const detail = (a.body as { detail?: unknown } | null | undefined)?.detail;
      const got = parseCascadeViolations(typeof detail === 'string' ? detail : undefined).map(violationKey);
      return parseCascadeViolations(c.detail)
        .filter((v) => !got.includes(violationKey(v)))
        .map((v) => ({ fault: 'the detail lacks a violation the request has', detail: `detail lacks ${v.text}` }));
    },
  },
];

/** The order of causes: no answer first, then a check's place in the registry; a failure of a stage's own (the run, Dredd) last. */
export const causeOrder = (check: string) => {
  const at = checks.findIndex((c) => c.id === check);
  return check === 'network' ? -1 : at < 0 ? checks.length : at;
};

/** Every fault of the answer, root causes only: a check is skipped when a check it comes after found one. */
export function judge(c: Case, answer: Answer): Fault[] {
  const faults: Fault[] = [];
  const failed = new Set<string>();
  for (const check of checks) {
    if (check.after?.some((id) => failed.has(id)) || check.concerns?.(c, answer) === false) continue;
    const found = check.faults(c, answer);
    if (found.length === 0) continue;
    failed.add(check.id);
    const decided = c.decided?.includes(check.id);
    faults.push(...found.map((f) => ({ check: check.id, ...f, ...(decided ? { kind: 'decision' as const } : {}) })));
  }
  return faults;
}
