// Stage boundaries: every limit the request schemas state, met and passed by one, and every value broken once (the
// wrong type, missing, a bad format, out of its set), from core/edges.ts, the one walker of the schemas. A request at
// a limit must be accepted, one past it get an error the document allows (a decision on a [contract decision] limit).
// Each edge starts from a named success example, so the rest of the request is one the document says is accepted.
import { documentOperations, successExamples } from '../../core/examples.ts';
import { at, edgesOf, pattern, placements, setAt, type Path } from '../../core/edges.ts';
import { Digits, parsed, serialize, type Json } from '../../core/digits.ts';
import { caseCheck, planStage, type Planned, type SuiteContext } from '../suite/context.ts';
import {
  acceptedExpectation,
  invalidBodyExpectation,
  listSizesPoint,
  manyItemsExpectation,
  probeExpectation,
} from '../document/expectations.ts';
import { isAccepted, readingsExpectation } from '../document/expectations.ts';
import type { Expectation } from '../ground/model.ts';
import { pairRequest } from '../document/pairs.ts';
import { prepare, withFreshIdentifiers } from '../suite/vars.ts';

/**
 * What judging an edge's requests found, by the run's values and profile, then by the edge: the placement accepted (at a
 * limit) and the expectation, or undefined where the edge is no case of its example. The same each run (a run's requests
 * differ only in identifiers made fresh, in the same forms), so worked out once: again each run, it was a sixth of the
 * stage's CPU (`npm run bench -- conformance`). A process keeps the last 16 runs' values.
 */
type Judged = { placement: number; expectation: Expectation } | undefined;
const judgedBefore = new Map<string, Map<string, Judged>>();

function judgedFor(ctx: SuiteContext): (key: string, work: () => Judged) => Judged {
  const runKey = JSON.stringify([ctx.values, ctx.profile]);
  if (!judgedBefore.has(runKey)) {
    if (judgedBefore.size >= 16) judgedBefore.delete(judgedBefore.keys().next().value!);
    judgedBefore.set(runKey, new Map());
  }
  const known = judgedBefore.get(runKey)!;
  return (key, work) => {
    if (!known.has(key)) known.set(key, work());
    return known.get(key);
  };
}

export function boundaries(ctx: SuiteContext): Planned[] {
  const out: Planned[] = [];
  const seen = new Set<string>();
  const judged = judgedFor(ctx);
  const occurrences = new Map<string, number>();
  for (const op of documentOperations()) {
    if (!op.requestSchemaPointer) continue;
    for (const pair of successExamples(op)) {
      const source = prepare(pair, ctx.values).body as Json;
      const freshened = (b: Json) => withFreshIdentifiers(op.operationId, b, { status: 200 }) as Json;
      const again = freshened(source);
      const fresh = (path: Path) => at(again, path) !== at(source, path);
      const refused = (path: Path, value: Json | undefined) => !isAccepted(op, setAt(source, path, value));
      const manyObjects = listSizesPoint(op) !== undefined;
      for (const edge of edgesOf(source, { $ref: op.requestSchemaPointer }, { fresh, refused, manyObjects })) {
        const key = `${op.operationId} ${pattern(edge.path)} ${edge.name.slice(edge.name.indexOf(':'))}`;
        if (seen.has(key)) continue;
        // Each send gets identifiers of its own; the edge is placed after, so it can be about one.
        const base = freshened(source);
        // Items copied for a count may carry such identifiers: each copy gets its own.
        const placed = (b: Json) => (edge.asIs ? freshened(b) : b);
        const bodies = edge.side === 'at' ? [...placements(base, edge, source)].map(placed) : [];
        const body = edge.side === 'at' ? undefined : placed(setAt(base, edge.path, edge.value));
        // The edge's place among this run's edges alike: the same edge in every run, whichever came before it.
        const alike = `${pair.name} ${edge.side} ${edge.name}`;
        occurrences.set(alike, (occurrences.get(alike) ?? 0) + 1);
        const found = judged(`${alike} ${occurrences.get(alike)}`, () => {
          if (edge.side === 'at') {
            const placement = bodies.findIndex((b) => isAccepted(op, b));
            if (placement < 0) return undefined; // no accepted request holds this edge: not a boundary of this example
            const basis = `${op.requestSchemaPointer} (${edge.limit ?? edge.name}: accepted)`;
            const decided = acceptedExpectation(op, [edge.path], basis, edge.kind);
            let expectation = readingsExpectation(op, parsed(bodies[placement]!), ctx.profile, decided);
            if (edge.manyObjects) expectation = manyItemsExpectation(op, expectation, ctx.profile);
            if (edge.points) expectation = probeExpectation(expectation, edge.points, ctx.profile);
            return { placement, expectation };
          }
          // A value no JS number holds exactly is judged as the wrong type it is for the schema.
          const judgedBody = edge.value instanceof Digits ? setAt(base, edge.path, 'not-an-int64') : body!;
          let expectation = invalidBodyExpectation(op, parsed(judgedBody), ctx.profile);
          if (!expectation) return undefined;
          if (edge.kind === 'decision')
            expectation = { ...expectation, kind: 'decision', ...(edge.decision && { decision: edge.decision }) };
          return { placement: 0, expectation };
        });
        if (!found) continue;
        const { expectation } = found;
        seen.add(key);
        const sent = edge.side === 'at' ? bodies[found.placement]! : body!;
        const request = { ...pairRequest(ctx.server, pair, ctx.credentials, null), body: serialize(sent) };
        const side = edge.side === 'at' ? 'at the limit' : edge.broken ? 'broken' : 'past the limit';
        const covers = { operationId: op.operationId, ...(edge.broken ? {} : { limit: edge.limit }), side: edge.side };
        const name = `${op.operationId}: ${side}, ${edge.name}`;
        // The words of the field the edge is about, where its schema has them (the basis names the whole body).
        const about = edge.words && edge.path.length > 0 && expectation.kind === 'described';
        const said = about ? { ...expectation, words: edge.words } : expectation;
        out.push(caseCheck(ctx, name, { operation: op, request, expectation: said }, covers));
      }
    }
  }
  return out;
}

export const boundariesStage = planStage(
  'boundaries',
  'every limit of the request schemas, and every value broken once: at the limit accepted, just past it, of the wrong type, missing, in a bad format or out of its set refused as the document allows (code points in several scripts, int64 past 2^31 and 2^53, date-time offsets, UUID case)',
  boundaries,
);
