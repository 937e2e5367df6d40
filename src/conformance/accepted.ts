// What a valid request may get, and the judge of its answer: 200 with a body the schema allows,
// or a business answer the description gives for a value the suite changed. The boundaries at a
// limit, the generated valid requests and the valid requests of the protocol checks share it.
import { resolvePointer } from '../core/document.ts';
import { listsViolations } from '../core/error-codes.ts';
import type { ExpectationKind, Operation } from '../core/examples.ts';
import { errorCodeAliases } from '../core/meta.ts';
import { pattern, type Path } from '../core/edges.ts';
import { parsed, type Json } from '../core/digits.ts';
import { documentViolation } from '../core/schema-violations.ts';
import { sendCase, type SuiteContext } from './stage-runtime.ts';
import type { Allowed, Expectation } from './case.ts';
import type { HttpRequest as PairRequest } from './transport.ts';

/**
 * Business answers a request at a limit may also get, as the description states them for a
 * value the suite changed: content the account's template does not match (rule 4 of schedule
 * cascade), a cascade identifier the deployment does not have.
 */
const businessAnswers: Array<{
  operationId: string;
  /** The field it is about: a change at or under it (or of a list holding it) may get this answer. */
  under: string;
  code: string;
  kind: ExpectationKind;
  basis: string;
}> = [
  {
    operationId: 'scheduleCascade',
    under: 'content',
    code: 'matched-template-not-found',
    kind: 'described',
    basis: '#/paths/~1api~1cascade~1schedule/post/description (4. The content must match the template of its channel)',
  },
  {
    operationId: 'scheduleCascade',
    under: 'cascadeId',
    code: 'cascade-not-found',
    kind: 'described',
    basis: '#/components/schemas/CascadeId/description (an existing cascade)',
  },
  // A cascade id the suite did not choose may name a cascade of the deployment's with other stages:
  // content that does not match them gets the answers of rules 1 to 3, in either documented spelling.
  ...stageMismatchCodes().map((code) => ({
    operationId: 'scheduleCascade',
    under: 'cascadeId',
    code,
    kind: 'described' as const,
    basis:
      '#/paths/~1api~1cascade~1schedule/post/description (rules 1 to 3: content for the stages of the cascade, which the suite does not know for a cascade id it did not choose)',
  })),
  {
    operationId: 'createSubscriber',
    under: 'parameterValues.[].name',
    code: 'parameter-not-found',
    kind: 'decision',
    basis:
      '#/paths/~1api~1subscribers~1create/post/description ([contract decision]: a name that is no parameter of the account)',
  },
  {
    operationId: 'createSubscriber',
    under: 'tagValues.[].name',
    code: 'tag-not-found',
    kind: 'decision',
    basis:
      '#/paths/~1api~1subscribers~1create/post/description ([contract decision]: a name that is no tag of the account)',
  },
];

/** The codes of content that does not match a cascade's stages (those whose detail lists the violations), every spelling. */
function stageMismatchCodes(): string[] {
  const known = (resolvePointer('#/components/schemas/KnownErrorCode') as { enum: string[] }).enum;
  return [...known, ...Object.keys(errorCodeAliases)].filter(listsViolations);
}

/** Whether the document says a request with this body is valid: its schema, and the button limits across rows. */
export const isAccepted = (op: Operation, body: Json) => documentViolation(op.operationId, parsed(body)) === null;

/** What a valid request may get: 200, or a business answer a value changed at one of `changed` may cause. */
export function acceptedExpectation(
  op: Operation,
  changed: Path[],
  basis: string,
  kind: ExpectationKind = 'described',
): Expectation {
  const under = businessAnswers.filter(
    (b) =>
      b.operationId === op.operationId &&
      changed.map(pattern).some((p) => `${p}.`.startsWith(`${b.under}.`) || `${b.under}.`.startsWith(`${p}.`)),
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
