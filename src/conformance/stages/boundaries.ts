// Stage boundaries: every limit the request schemas state, met and passed by one (the edges of
// core/edges.ts). A request at a limit must be accepted; one just past it must get an error the
// document allows. Each edge starts from a named success example, so the rest of the request is
// one the document says is accepted. A past-edge check on a limit the document marks [contract
// decision] is a decision.
import { resolvePointer } from '../../core/document.ts';
import { listsViolations } from '../../core/error-codes.ts';
import { examplePairs, documentOperations, type ExpectationKind, type Operation } from '../../core/examples.ts';
import { errorCodeAliases } from '../../core/meta.ts';
import { at, edgesOf, pattern, placements, setAt, type Edge, type Path } from '../../core/edges.ts';
import { schemaValidator, validator } from '../../core/validators/all.ts';
import { documentViolation } from '../../core/schema-violations.ts';
import {
  answerOf,
  check,
  noAnswer,
  perRun,
  runs,
  send,
  type CheckOutcome,
  type CheckResult,
  type Stage,
  type SuiteContext,
} from '../stage-runtime.ts';
import { describeAllowed, invalidBodyExpectation, type Allowed, type Expectation } from '../expectations.ts';
import { pairRequest, type PairRequest } from '../pairs.ts';
import { prepare, withFreshIdentifiers } from '../vars.ts';
import { Digits, listsDigits, parsed, serialize, type Json } from '../../core/digits.ts';
import { judgeError } from './bad-input.ts';

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

interface Boundary {
  name: string;
  operation: Operation;
  edge: Edge;
  request: PairRequest;
  /** At a limit: accepted (200, or a business answer the change may cause). Past it: an error the document allows. */
  expectation: Expectation;
}

export const successPointer = (op: Operation) => `${op.pointer}/responses/200/content/application~1json/schema`;

export function boundaries(ctx: SuiteContext): Boundary[] {
  const out: Boundary[] = [];
  const seen = new Set<string>();
  for (const op of documentOperations()) {
    if (!op.requestSchemaPointer) continue;
    for (const pair of examplePairs().filter(
      (p) => p.operation.operationId === op.operationId && p.paired && p.status === 200 && !p.trigger.sendTwice,
    )) {
      const source = prepare(pair, ctx.values).body as Json;
      const again = withFreshIdentifiers(op.operationId, source, { status: 200 });
      const fresh = (path: Path) => at(again, path) !== at(source, path);
      const refused = (path: Path, value: Json) => !isAccepted(op, setAt(source, path, value));
      for (const edge of edgesOf(source, { $ref: op.requestSchemaPointer }, { fresh, refused })) {
        const key = `${op.operationId} ${pattern(edge.path)} ${edge.name.slice(edge.name.indexOf(':'))}`;
        if (seen.has(key)) continue;
        // Each send gets identifiers of its own; the edge is placed after, so it can be about one.
        const base = withFreshIdentifiers(op.operationId, structuredClone(source), { status: 200 }) as Json;
        // Items copied for a count may carry such identifiers: each copy gets its own.
        const placed = (b: Json) =>
          edge.asIs ? (withFreshIdentifiers(op.operationId, b, { status: 200 }) as Json) : b;
        let body: Json | undefined;
        let expectation: Expectation | undefined;
        if (edge.side === 'at') {
          body = [...placements(base, edge, source)].map(placed).find((b) => isAccepted(op, b));
          if (body === undefined) continue; // no accepted request holds this edge: not a boundary of this example
          expectation = acceptedExpectation(
            op,
            [edge.path],
            `${op.requestSchemaPointer} (${edge.limit ?? edge.name}: accepted)`,
            edge.kind,
          );
        } else {
          body = placed(setAt(base, edge.path, edge.value));
          // A value no JS number holds exactly is judged as the wrong type it is for the schema.
          const judged = edge.value instanceof Digits ? setAt(base, edge.path, 'not-an-int64') : body;
          expectation = invalidBodyExpectation(op, parsed(judged), ctx.profile);
          if (!expectation) continue;
          if (edge.kind === 'decision') expectation = { ...expectation, kind: 'decision' };
        }
        seen.add(key);
        const request = { ...pairRequest(ctx.server, pair, ctx.credentials, () => null), body: serialize(body) };
        out.push({
          name: `${op.operationId}: ${edge.side} the limit, ${edge.name}`,
          operation: op,
          edge,
          request,
          expectation,
        });
      }
    }
  }
  return out;
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

const selected = perRun((ctx) => boundaries(ctx).filter((b) => runs(ctx, b.expectation.kind)));

export const boundariesStage: Stage = {
  name: 'boundaries',
  description:
    'every limit of the request schemas: at the limit accepted, just past it refused as the document allows (code points in several scripts, int64 past 2^31 and 2^53, date-time offsets, UUID case)',
  count: (ctx) => selected(ctx).length,
  async run(ctx: SuiteContext): Promise<CheckResult[]> {
    const results: CheckResult[] = [];
    for (const b of selected(ctx)) {
      const { expectation, operation, edge } = b;
      const covers = { operationId: operation.operationId, limit: edge.limit, side: edge.side };
      const spec = { stage: 'boundaries', name: b.name, kind: expectation.kind, basis: expectation.basis, covers };
      results.push(
        await check(ctx, spec, () =>
          edge.side === 'at'
            ? judgeAccepted(ctx, b.request, operation, expectation)
            : judgeError(ctx, { name: b.name, operation, request: b.request, expectation }),
        ),
      );
    }
    return results;
  },
};
