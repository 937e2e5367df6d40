// An example pair as a request and as a case: shared by the conformance suite and the tests.
import { listsViolations } from '../../core/error-codes.ts';
import type { ExamplePair } from '../../core/examples.ts';
import { apiKeyHeader } from '../../core/meta.ts';
import type { Case, Credentials, Expectation, HttpRequest } from '../ground/model.ts';

export type { Credentials } from '../ground/model.ts';

export type PairRequest = HttpRequest;

/** The HTTP request that should produce the pair's response. */
export function pairRequest(
  baseUrl: string,
  pair: ExamplePair,
  credentials: Credentials,
  body: unknown = pair.requestBody,
): PairRequest {
  const { trigger, operation } = pair;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const wrong = trigger.credentials === 'invalid';
  if (operation.security.includes('apiKey')) {
    const key =
      trigger.credentials === 'no-balance' ? (credentials.apiKeyNoBalance ?? credentials.apiKey) : credentials.apiKey;
    headers[apiKeyHeader] = wrong ? `wrong-${key}` : key;
  }
  if (operation.security.includes('integratorToken'))
    headers.authorization = `Bearer ${wrong ? `wrong-${credentials.integratorToken}` : credentials.integratorToken}`;
  return {
    method: trigger.method ?? operation.method,
    url: baseUrl.replace(/\/+$/, '') + (trigger.path ?? operation.path),
    headers,
    body: trigger.rawBody ?? (trigger.method === 'GET' ? undefined : JSON.stringify(body)),
  };
}

/**
 * A named example as a case: its request, the answers the document allows, the fields and
 * violations its answer must hold. A part of the answer the example marks as this contract's
 * decision (`x-request: {decided: [detail]}`) is a decision of the case (held under strict only).
 */
export function pairCase(
  pair: ExamplePair,
  request: PairRequest,
  expectation: Expectation,
  expected: unknown = pair.response,
): Case {
  const title = (pair.response as { title?: string } | undefined)?.title;
  const detail = (expected as { detail?: string } | undefined)?.detail;
  return {
    operation: pair.operation,
    request,
    expectation,
    ...(pair.status < 300 && expected !== null && typeof expected === 'object'
      ? { fields: expected as Record<string, unknown> }
      : {}),
    ...(title && listsViolations(title) && detail
      ? { detail, ...(pair.trigger.decided?.includes('detail') ? { decided: ['violations'] } : {}) }
      : {}),
  };
}
