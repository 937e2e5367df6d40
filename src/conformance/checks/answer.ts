// The registry's checks of an answer (the suite's own, each recorded or proxied one). The order is the order of causes:
// a check whose `after` checks found a fault in the same answer does not run (a body that is not JSON has no schema to
// miss), so each answer names its root cause, and the report groups the same cause across every stage.
import { parseJson, toJson } from '../../core/json-int64.ts';
import { parseCascadeViolations, runTogether, violationKey, violationValues } from '../../core/cascade-violations.ts';
import { deref, resolvePointer } from '../../core/document.ts';
import { listsViolations, normalizeErrorCode, sameErrorCode as sameCode } from '../../core/error-codes.ts';
import { marked, type ExpectationKind, type Operation } from '../../core/examples.ts';
import { answerOf, clip, type Allowed, type Answer, type Case, type Found, type PointCheck } from '../ground/model.ts';
import { documentedStatuses, listedOnce, listsOf, responsePointer } from '../document/policy.ts';
import { schemaFaults } from './schema.ts';
import { againstDecision, openPoint, pointAt } from '../../core/open-points.ts';

const titleOf = (body: unknown) => (body as { title?: unknown } | null | undefined)?.title;

/** The allowed answer this one is: the status's, the one whose code the title names when several share it. */
function matchOf(c: Case, answer: Answer): Allowed | undefined {
  const sameStatus = c.expectation.allowed.filter((a) => a.status === answer.status);
  // `otherErrors`: a status the operation does not list (its `default`); one it lists is judged by its codes.
  const other =
    c.expectation.otherErrors && answer.status >= 400 && !documentedStatuses(c.operation).includes(answer.status);
  const named = sameStatus.find((a) => a.code === undefined || sameCode(titleOf(answer.body), a.code));
  return named ?? sameStatus[0] ?? (other ? { status: answer.status } : undefined);
}

/** Under strict, the open point whose other answers allow this answer: only its decision is broken (expectations.ts). */
const openAnswerOf = (c: Case, a: Answer) =>
  c.expectation.openAnswers?.find(
    (o) =>
      (o.otherErrors && a.status >= 400) ||
      o.allowed.some((x) => x.status === a.status && (x.code === undefined || sameCode(titleOf(a.body), x.code))),
  );

/** An operation's response with `status` as the document writes it (an error's may be a `$ref`). */
const responseOf = (op: Operation, status: number) =>
  (resolvePointer(op.pointer) as { responses: Record<string, Record<string, any> | undefined> }).responses[status];

/** The schema of an operation's JSON answer with `status`, when the document gives one (a success's is no `$ref`). */
const answerSchema = (op: Operation, status: number) =>
  responseOf(op, status)?.content?.['application/json']?.schema
    ? `${op.pointer}/responses/${status}/content/application~1json/schema`
    : undefined;

const add = <V>(m: Map<string, V[]>, key: string, v: V) => (m.get(key) ?? m.set(key, []).get(key)!).push(v);

/** A number literal's value as digits (`9007199254740993e0` is 9007199254740993, as the answer writes it), else as is. */
function numberDigits(token: string): string {
  try {
    const v = parseJson(token);
    return typeof v === 'number' || typeof v === 'bigint' ? String(v) : token;
  } catch {
    return token;
  }
}

/**
 * How the answer lists the identifiers sent (`x-lists-each-once`): `lost` and `wrong` where one is not in exactly one
 * list, and the open points' answers it fits: `repeated-ids` (`once`, or for each time sent) and `result-order` (the
 * order sent where each list follows the request, its n-th listing of an identifier for its n-th place; any order).
 */
function listing(c: Case, a: Answer) {
  // Read as digits from the text, in order and repeats kept, so no id past 2^53 is rounded.
  const field = listedOnce(c.operation, a.status)!;
  const sent = (new RegExp(`"${field}"\\s*:\\s*\\[([^\\]]*)\\]`).exec(c.request.body ?? '')?.[1] ?? '')
    .trim()
    .split(/\s*,\s*/)
    .map(numberDigits);
  const places = new Map<string, number[]>();
  for (const [i, d] of sent.filter(Boolean).entries()) add(places, d, i);
  const seen = new Map<string, string[]>(); // each identifier listed: the list of each listing
  const lists = listsOf(a.text);
  let inOrder = true;
  for (const [name, ids] of lists) {
    const nth = new Map<string, number>();
    let last = -1;
    for (const d of ids) {
      add(seen, d, name);
      const at = places.get(d) ?? [];
      const n = nth.get(d) ?? 0;
      nth.set(d, n + 1);
      const place = at[Math.min(n, at.length - 1)] ?? -1;
      inOrder &&= place >= last;
      last = place;
    }
  }
  const counts = [...places].map(([d, at]) => [seen.get(d)?.length ?? 0, at.length] as const);
  return {
    lost: [...places.keys()].filter((d) => !seen.has(d)),
    wrong: [...seen].filter(([d, l]) => !places.has(d) || new Set(l).size > 1).map(([d]) => d),
    repeated: ['once', 'each-occurrence'].filter((r) => counts.every(([c, n]) => c === (r === 'once' ? 1 : n))),
    order: inOrder ? ['order-sent', 'any-order'] : ['any-order'],
    entries: lists.reduce((n, [, l]) => n + l.length, 0),
    distinct: places.size,
  };
}

/**
 * A value as text to compare, integers digit for digit (an int64 past 2^53 is not rounded), a list as a set: how often
 * and in which order an identifier is listed is the list-form check's (open points).
 */
const canonical = (v: unknown) =>
  Array.isArray(v) ? [...new Set(v.map((x) => toJson(x)))].sort().join(',') : toJson(v);

/** What each answer of the list-form open points says, as a rule. */
const listForms: Record<string, string> = {
  once: 'an identifier given twice is listed once',
  'each-occurrence': 'an identifier given twice is listed each time',
  'order-sent': 'each list in the order of the request',
  'any-order': 'the lists in any order',
};

/**
 * A success's faults of form (`found`), as the open point on its response (`created-body`) reads them: none where its
 * decision is the answer they fit (`fits`: an empty body `no-body`, any other form `any-body`), a decision's where
 * another answer it lists is.
 */
function bodyForm(c: Case, a: Answer, fits: 'no-body' | 'any-body', found: Found[]): Found[] {
  const at = a.status < 300 && found.length ? pointAt(responsePointer(c.operation, a.status), fits) : undefined;
  const point = at && openPoint(at.id, ['json-object', 'no-body', 'any-body'] as const);
  if (point?.decision === fits) return [];
  return found.map((f) => ({ ...f, ...(point ? againstDecision(point, fits) : {}) }));
}

const ofService = (checks: Omit<PointCheck<'answer'>, 'family' | 'side'>[]) =>
  checks.map((c): PointCheck<'answer'> => ({ ...c, family: 'answer', side: 'service' }));

export const answerChecks = ofService([
  {
    id: 'json',
    holds: 'the body is JSON',
    faults: (c, a) =>
      a.json
        ? []
        : bodyForm(c, a, 'any-body', [{ fault: 'the body is not JSON', detail: JSON.stringify(clip(a.text, 120)) }]),
  },
  {
    // Grouped by what came, not by the request's field or limit: the same wrong answer is one cause, whichever shows it.
    id: 'status',
    holds: 'the status, and the code where one is expected, are an answer the document allows for the request',
    faults(c, a) {
      const match = matchOf(c, a);
      const title = titleOf(a.body);
      // The code is read only from a JSON body (one that is not is the json check's cause).
      if (match && (match.code === undefined || !a.json || sameCode(title, match.code))) return [];
      const detail = match
        ? `title ${JSON.stringify(title)}, expected ${JSON.stringify(match.code)}`
        : `status ${a.status}`;
      // The document's code in other letters is one mistake, whichever code shows it.
      const lower = (code: string) => normalizeErrorCode(code).toLowerCase();
      const codes = c.expectation.allowed.filter((x) => x.status === a.status && x.code !== undefined);
      if (typeof title === 'string' && codes.some((x) => lower(title.toLowerCase()) === lower(x.code!)))
        return [{ fault: "an error code written in other letters than the document's", detail }];
      const answered = answerOf(a.status, a.body);
      const refused = c.expectation.allowed.every((x) => x.status >= 400);
      const fault =
        refused && a.status < 300
          ? `accepts a request the document refuses: answered ${a.status}`
          : !refused && a.status >= 400
            ? `refuses a request the document accepts: answered ${answered}`
            : `answered ${answered} where the document gives another answer`;
      const open = openAnswerOf(c, a);
      const against = open ? againstDecision(openPoint(open.point)) : {};
      // A refusal where a success was due: the deployment may lack what the request names.
      const byState = !refused && a.status >= 400 && a.status < 500;
      const key = `answered ${a.status < 300 ? a.status : answered}`;
      return [{ fault, key, detail, ...against, ...(byState && { byState }) }];
    },
  },
  {
    // An empty success where the document allows one (an open point with the answer `no-body`) is a decision's fault.
    id: 'body',
    holds: 'a success has a body, unless the document allows none for it',
    after: ['status'],
    concerns: (_c, a) => a.status < 300 && a.text === '',
    faults: (c, a) => bodyForm(c, a, 'no-body', [{ fault: `a ${a.status} without a body`, detail: 'no body' }]),
  },
  {
    id: 'content-type',
    holds: "the answer is application/json, or an error's a media type the document allows for it",
    after: ['json', 'body'],
    faults(c, a) {
      const type = (a.contentType.split(';')[0] ?? '').trim().toLowerCase();
      // The media types an error may have: an open point on the Problem schema.
      const point = a.status >= 400 ? openPoint('error-media-type') : undefined;
      if (type === (point?.decision ?? 'application/json')) return [];
      const allowed = point?.answers ?? ['application/json'];
      const decided = point && allowed.includes(type);
      const [where, given] = decided
        ? [`this contract decides ${point.decision} (the description allows either)`, `decided ${point.decision}`]
        : [`${allowed.join(' or ')} is expected`, `expected ${allowed.join(' or ')}`];
      const detail = `content-type ${JSON.stringify(a.contentType)}, ${given}`;
      const fault = `content-type ${JSON.stringify(type)} where ${where}`;
      return bodyForm(c, a, 'any-body', [{ fault, detail, ...(decided ? againstDecision(point, type) : {}) }]);
    },
  },
  {
    id: 'headers',
    holds: 'every header the document declares for the answer: present where required, and as its schema says',
    after: ['status'],
    faults(c, a) {
      const response = deref<{ headers?: Record<string, unknown> } | undefined>(responseOf(c.operation, a.status));
      return Object.entries(response?.headers ?? {}).flatMap(([name, header]) => {
        const h = deref<{ required?: boolean; schema?: Record<string, unknown> }>(header);
        const kind: ExpectationKind = marked(h) ? 'decision' : 'described';
        const value = a.headers[name.toLowerCase()];
        if (value === undefined) {
          const fault = `${a.status} without the ${name} header the document declares for it`;
          return h.required === true ? [{ fault, detail: `${name}: missing`, kind }] : [];
        }
        const { enum: values, pattern } = h.schema ?? {};
        const fits =
          (!Array.isArray(values) || values.includes(value)) &&
          (typeof pattern !== 'string' || new RegExp(pattern, 'u').test(value));
        const fault = `the ${name} header of a ${a.status} not as its schema says`;
        return fits ? [] : [{ fault, detail: `${name}: ${JSON.stringify(value)}, not as its schema says`, kind }];
      });
    },
  },
  {
    id: 'problem',
    holds: "an error's body is a problem whose `status` is the answer's",
    after: ['json', 'status', 'body'],
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
    after: ['json', 'status', 'body'],
    concerns: (c, a) => a.status < 300 && answerSchema(c.operation, a.status) !== undefined,
    faults(c, a) {
      const schema = answerSchema(c.operation, a.status)!;
      return bodyForm(c, a, 'any-body', schemaFaults(schema, a.body, `${c.operation.operationId} ${a.status}`));
    },
  },
  {
    id: 'listed-once',
    holds:
      'each identifier sent is in exactly one result list, digit for digit (`x-lists-each-once`), as often as an open point allows',
    after: ['json', 'status', 'body', 'schema'],
    concerns: (c, a) => a.status < 300 && listedOnce(c.operation, a.status) !== undefined,
    faults(c, a) {
      const { lost, wrong, repeated, entries, distinct } = listing(c, a);
      if (!lost.length && !wrong.length && repeated.length > 0) return [];
      const fault = 'an identifier sent is not in exactly one result list, digit for digit';
      const notListed = lost.length ? `; not listed as sent: ${lost.slice(0, 5).join(', ')}` : '';
      const elsewhere = wrong.length ? `; listed but not sent, or in two lists: ${wrong.slice(0, 5).join(', ')}` : '';
      return [{ fault, detail: `${entries} entries for ${distinct} identifiers${notListed}${elsewhere}` }];
    },
  },
  {
    id: 'fields',
    holds: "a success's fields are the ones the document gives for the request",
    after: ['json', 'status', 'body', 'schema', 'listed-once'],
    concerns: (c, a) => c.fields !== undefined && a.status < 300,
    faults(c, a) {
      const body = parseJson(a.text) as Record<string, unknown>;
      return Object.entries(c.fields!).flatMap(([key, value]) => {
        const actual = body[key];
        if (canonical(actual) === canonical(value)) return [];
        const fault = `${c.operation.operationId} \`${key}\` is not the value the document gives for the request`;
        const detail = `${key} is ${toJson(actual)}, expected ${toJson(value)}`;
        return [{ fault, key: `${c.operation.operationId} fields`, detail, byState: true }];
      });
    },
  },
  {
    // The open points of a result list: how often an identifier given twice is listed, and the order. Their decision
    // is held under strict only, and nothing waits on it (a list out of order hides no other fault).
    id: 'list-form',
    holds: 'the result lists list a repeated identifier and keep an order as the document decides (open points)',
    after: ['json', 'status', 'body', 'schema', 'listed-once'],
    concerns: (c, a) => a.status < 300 && listedOnce(c.operation, a.status) !== undefined,
    faults(c, a) {
      const { repeated, order } = listing(c, a);
      const taken = [
        ['repeated-ids', ['once', 'each-occurrence'], repeated, 'an identifier given twice is listed for each time'],
        ['result-order', ['order-sent', 'any-order'], order, 'a result list not in the order of the request'],
      ] as const;
      // A fault where the answer fits no reading the decision allows: a decision's where it fits another listed answer.
      return taken.flatMap(([id, known, fits, fault]) => {
        const point = openPoint<string>(id, known);
        if (fits.includes(point.decision)) return [];
        const detail = `${fault} (${point.id}: ${fits.join(' or ')})`;
        const other = fits.find((f) => point.answers.includes(f));
        return [{ fault, detail, ...(other ? againstDecision(point, other) : { expects: listForms[point.decision] }) }];
      });
    },
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
      const got = parseCascadeViolations(typeof detail === 'string' ? detail : undefined);
      const keys = got.map(violationKey);
      const values = got.map(violationValues);
      // The keys inside the brackets are an open point: the same values under other keys are another answer.
      const point = openPoint('violation-keys', ['example-keys', 'any-keys'] as const);
      return parseCascadeViolations(c.detail).flatMap((v) => {
        const otherKeys = values.includes(violationValues(v)) && point.answers.includes('any-keys');
        if (keys.includes(violationKey(v)) || (otherKeys && point.decision === 'any-keys')) return [];
        if (!otherKeys)
          return [{ fault: 'the detail lacks a violation the request has', detail: `detail lacks ${v.text}` }];
        const fault = "a violation named with other keys than the example's";
        return [{ fault, detail: `other keys for ${v.text}`, ...againstDecision(point, 'any-keys') }];
      });
    },
  },
  {
    // Section 7.2: the detail holds "a `Violations:` list, separated by semicolons"; any answer of such a code.
    id: 'violations-separated',
    holds: "a validation error's violations are separated by semicolons",
    after: ['json', 'status'],
    concerns: (_c, a) => listsViolations(String(titleOf(a.body) ?? '')),
    faults(_c, a) {
      const detail = (a.body as { detail?: unknown } | null | undefined)?.detail;
      // Only an item holding two violations the parser recognises: one violation may carry several bracket groups.
      const twoInOne = (item: string) => parseCascadeViolations(item).filter((v) => v.kind !== 'unknown').length > 1;
      return (typeof detail === 'string' ? runTogether(detail).filter(twoInOne) : []).map((item) => ({
        fault: 'violations not separated by semicolons',
        detail: `one item of the list holds several: ${clip(item.trim(), 120)}`,
      }));
    },
  },
]);
