// What a valid request may get, and the judge of its answer: 200 with a body the schema allows,
// or a business answer the description gives for a value the suite changed. The boundaries at a
// limit, the generated valid requests and the valid requests of the protocol checks share it.
import type { ExpectationKind, Operation } from '../core/examples.ts';
import { pattern, type Path } from '../core/edges.ts';
import { parsed, type Json } from '../core/digits.ts';
import { documentViolation } from '../core/schema-violations.ts';
import { sendCase, type SuiteContext } from './stage-runtime.ts';
import type { Allowed, Expectation } from './case.ts';
import { businessAnswers } from './policy.ts';
import type { HttpRequest as PairRequest } from './transport.ts';

/** Whether the document says a request with this body is valid: its schema, and the button limits across rows. */
export const isAccepted = (op: Operation, body: Json) => documentViolation(op.operationId, parsed(body)) === null;

/** What a valid request may get: 200, or a business answer a value changed at one of `changed` may cause. */
export function acceptedExpectation(
  op: Operation,
  changed: Path[],
  basis: string,
  kind: ExpectationKind = 'described',
): Expectation {
  // An answer about a field changed, about a field under one changed, or about one holding it.
  const under = businessAnswers(op).filter((b) =>
    changed.map(pattern).some((p) => `${p}.`.startsWith(`${b.field}.`) || `${b.field}.`.startsWith(`${p}.`)),
  );
  const allowed: Allowed[] = [{ status: 200 }, ...under.map((b) => ({ status: 400, code: b.code }))];
  // A business answer this contract decides makes the check one of its decisions.
  return {
    allowed,
    kind: under.some((b) => b.kind === 'decision') ? 'decision' : kind,
    basis: [basis, ...under.map((b) => b.basis)].join('; '),
  };
}

/** Sends a valid request and judges its answer: 200 with a body the schema allows, or one of the business answers. */
export const judgeAccepted = (
  ctx: SuiteContext,
  request: PairRequest,
  operation: Operation,
  expectation: Expectation,
) => sendCase(ctx, { operation, request, expectation });
