// What a valid request may get, and the judge of its answer: 200 with a body the schema allows,
// or a business answer the description gives for a value the suite changed. The boundaries at a
// limit, the generated valid requests and the valid requests of the protocol checks share it.
import { resolvePointer } from '../core/document.ts';
import { listsViolations } from '../core/error-codes.ts';
import type { ExpectationKind, Operation } from '../core/examples.ts';
import { errorCodeAliases } from '../core/meta.ts';
import { pattern, type Path } from '../core/edges.ts';
import { listsDigits, parsed, type Json } from '../core/digits.ts';
import { documentViolation } from '../core/schema-violations.ts';
import { schemaValidator, validator } from '../core/validators/all.ts';
import { answerOf, noAnswer, send, type CheckOutcome, type SuiteContext } from './stage-runtime.ts';
import { describeAllowed, type Allowed, type Expectation } from './expectations.ts';
import type { PairRequest } from './pairs.ts';

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

const successPointer = (op: Operation) => `${op.pointer}/responses/200/content/application~1json/schema`;

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

/**
 * The answer to a valid request: 200 with a body the schema allows, or one of the business
 * answers. Closed thread ids come back digit for digit: every identifier sent is in one list.
 */
export async function judgeAccepted(
  ctx: SuiteContext,
  request: PairRequest,
  operation: Operation,
  expectation: Expectation,
): Promise<CheckOutcome> {
  const expected = describeAllowed(expectation.allowed);
  const sent = await send(ctx, request);
  if (!sent.answer) return noAnswer(request, expected, sent.error);
  const { status, text, body } = sent.answer;
  const answer = answerOf(status, body);
  const title = (body as { title?: unknown } | undefined)?.title;
  const short = `${status} ${text.slice(0, 200)}`;
  if (status === 200) {
    const valid = validator(successPointer(operation))(body);
    if (!valid.valid)
      return { ok: false, request, expected, actual: `200 not as the schema says: ${valid.errors.join('; ')}`, answer };
    if (operation.operationId === 'closeThreads') {
      // Every identifier sent is in exactly one list, digit for digit as sent.
      const sent = [
        ...new Set(
          (/"threadIds"\s*:\s*\[([^\]]*)\]/.exec(request.body ?? '')?.[1] ?? '')
            .split(',')
            .map((d) => d.trim())
            .filter(Boolean),
        ),
      ];
      const lost = sent.filter((d) => !listsDigits(text, d));
      const listed = Object.values(body as Record<string, unknown[]>).reduce(
        (n, list) => n + (Array.isArray(list) ? list.length : 0),
        0,
      );
      if (lost.length || listed !== sent.length)
        return {
          ok: false,
          request,
          expected: `200 listing each of ${sent.length} identifiers once, as sent`,
          actual: short,
          answer,
        };
    }
    return { ok: true, request, expected, actual: short, answer };
  }
  const allowed =
    expectation.allowed.some((a) => a.status === status && a.code === title) && schemaValidator('Problem')(body).valid;
  return { ok: allowed, request, expected, actual: short, answer };
}
