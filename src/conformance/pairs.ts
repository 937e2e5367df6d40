// Sending an example pair and judging the answer: shared by the conformance suite and the tests.
import { listsViolations, normalizeErrorCode } from '../core/error-codes.ts';
import type { ExamplePair } from '../core/examples.ts';
import { apiKeyHeader } from '../core/meta.ts';
import { validator } from '../core/validators/all.ts';
import type { Answer, HttpRequest } from './transport.ts';
import { describeAllowed, type Allowed } from './expectations.ts';
import { parseCascadeViolations, violationKey } from '../core/cascade-violations.ts';

export interface Credentials {
  /** An API key of an account with balance (`x-api-key`). */
  apiKey: string;
  /** An API key of an account without balance, for `out-of-balance`. */
  apiKeyNoBalance?: string;
  /** A token of a user with the INTEGRATOR permission (close threads). */
  integratorToken: string;
}

export type PairRequest = HttpRequest;

/** The HTTP request that should produce the pair's response. */
export function pairRequest(
  baseUrl: string,
  pair: ExamplePair,
  credentials: Credentials,
  rewrite: (body: unknown) => unknown = (b) => b,
): PairRequest {
  const { trigger, operation } = pair;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const wrong = trigger.credentials === 'invalid';
  if (operation.security.includes('apiKey')) {
    const key =
      trigger.credentials === 'no-balance' ? (credentials.apiKeyNoBalance ?? credentials.apiKey) : credentials.apiKey;
    headers[apiKeyHeader] = wrong ? `wrong-${key}` : key;
  }
  if (operation.security.includes('integratorToken')) {
    headers.authorization = `Bearer ${wrong ? `wrong-${credentials.integratorToken}` : credentials.integratorToken}`;
  }
  return {
    method: trigger.method ?? operation.method,
    url: baseUrl.replace(/\/+$/, '') + (trigger.path ?? operation.path),
    headers,
    body: trigger.rawBody ?? (trigger.method === 'GET' ? undefined : JSON.stringify(rewrite(pair.requestBody))),
  };
}

/** An answer's content type, as every check of an answer reads it: JSON. */
export function contentTypeFaults(type: string): string[] {
  return /^application\/json/i.test(type) ? [] : [`content-type ${JSON.stringify(type)}, expected application/json`];
}

/** An answer's `title` against the code expected (none: anything goes), in either spelling of the code. */
export function titleFaults(body: unknown, expectedTitle: string | undefined): string[] {
  if (expectedTitle === undefined) return [];
  const title = (body as { title?: unknown } | null | undefined)?.title;
  return typeof title === 'string' && normalizeErrorCode(title) === normalizeErrorCode(expectedTitle)
    ? []
    : [`title ${JSON.stringify(title)}, expected ${JSON.stringify(expectedTitle)}`];
}

export interface PairVerdict {
  ok: boolean;
  faults: string[];
  status: number;
  body: unknown;
}

/** Lists compare as sets: the description gives no order to the identifiers of a result list. */
const sameValue = (a: unknown, b: unknown) => {
  const canonical = (v: unknown) =>
    Array.isArray(v)
      ? v
          .map((x) => JSON.stringify(x))
          .sort()
          .join(',')
      : JSON.stringify(v);
  return canonical(a) === canonical(b);
};

const problemSchema = '#/components/schemas/Problem';

/**
 * Status, content type, `title` (either spelling of a code), the body against its schema, and for
 * a success every field of the example (`expected`, after the same rewrite as the request).
 * `allowed` are the answers the document allows (default: the pair's own); another allowed answer
 * than the pair's (500 where the description allows it) is judged as a problem body.
 */
export function judgePair(
  pair: ExamplePair,
  answer: Answer,
  expected: unknown = pair.response,
  allowed: Allowed[] = [{ status: pair.status, code: (pair.response as { title?: string } | undefined)?.title }],
): PairVerdict {
  const faults: string[] = [];
  const { status, text, body, json, contentType: type } = answer;
  if (!json) faults.push(`body is not JSON: ${JSON.stringify(text.slice(0, 120))}`);
  const match = allowed.find((a) => a.status === status);
  if (!match) faults.push(`status ${status}, expected ${describeAllowed(allowed)}`);
  faults.push(...contentTypeFaults(type));
  faults.push(...titleFaults(body, (match ?? allowed[0])?.code));
  if (body === undefined || !match) return { ok: faults.length === 0, faults, status, body };
  if (status !== pair.status) {
    for (const e of validator(problemSchema)(body).errors) faults.push(`body: ${e}`);
    return { ok: faults.length === 0, faults, status, body };
  }
  // A validation error must name every violation its example names (stage ids and channels).
  const expectedTitle = (pair.response as { title?: string }).title;
  const expectedDetail = (expected as { detail?: string } | undefined)?.detail;
  const wanted = expectedTitle && listsViolations(expectedTitle) ? parseCascadeViolations(expectedDetail) : [];
  if (wanted.length > 0) {
    // The ids and channels must match; the sentences are not all published, so their wording need not.
    const got = parseCascadeViolations((body as { detail?: string } | undefined)?.detail).map(violationKey);
    for (const v of wanted) if (!got.includes(violationKey(v))) faults.push(`detail lacks the violation ${v.text}`);
  }
  for (const e of validator(pair.responseSchemaPointer)(body).errors) faults.push(`body: ${e}`);
  if (pair.status < 300) {
    for (const [key, value] of Object.entries(expected as object)) {
      const actual = (body as Record<string, unknown>)[key];
      if (!sameValue(actual, value))
        faults.push(`${key} is ${JSON.stringify(actual)}, expected ${JSON.stringify(value)}`);
    }
  }
  return { ok: faults.length === 0, faults, status, body };
}
