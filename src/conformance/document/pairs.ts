// An example pair as a request and as a case: shared by the conformance suite and the tests.
import { listsViolations } from '../../core/error-codes.ts';
import type { ExamplePair } from '../../core/examples.ts';
import { apiKeyHeader } from '../../core/meta.ts';
import { serialize, type Json } from '../../core/digits.ts';
import type { Case, Credentials, Expectation, HttpRequest } from '../ground/model.ts';

export type { Credentials } from '../ground/model.ts';
export type PairRequest = HttpRequest;

/** The HTTP request that should produce the pair's response. */
export function pairRequest(
  baseUrl: string,
  pair: ExamplePair,
  { apiKey, apiKeyNoBalance, integratorToken }: Credentials,
  body = pair.requestBody,
): PairRequest {
  const { trigger, operation } = pair;
  const given = (secret: string) => (trigger.credentials === 'invalid' ? `wrong-${secret}` : secret);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (operation.security.includes('apiKey'))
    headers[apiKeyHeader] = given(trigger.credentials === 'no-balance' ? (apiKeyNoBalance ?? apiKey) : apiKey);
  if (operation.security.includes('integratorToken')) headers.authorization = `Bearer ${given(integratorToken)}`;
  return {
    method: trigger.method ?? operation.method,
    url: baseUrl.replace(/\/+$/, '') + (trigger.path ?? operation.path),
    headers,
    body: trigger.rawBody ?? (trigger.method === 'GET' ? undefined : serialize(body as Json)),
  };
}

/**
 * A named example as a case: its request, the answers the document allows, the fields and violations its answer must
 * hold. A part the example marks as this contract's decision (`x-request: {decided: [detail]}`) is held under strict.
 */
export function pairCase(
  pair: ExamplePair,
  request: PairRequest,
  expectation: Expectation,
  expected: unknown = pair.response,
): Case {
  const title = (pair.response as { title?: string } | undefined)?.title;
  const detail = (expected as { detail?: string } | undefined)?.detail;
  const decided = pair.trigger.decided?.includes('detail') ? { decided: ['violations'] } : {};
  const fields = pair.status < 300 && expected !== null && typeof expected === 'object';
  return {
    operation: pair.operation,
    request,
    expectation,
    ...(fields ? { fields: expected as Record<string, unknown> } : {}),
    ...(title && listsViolations(title) && detail ? { detail, ...decided } : {}),
  };
}
