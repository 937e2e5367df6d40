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

export function boundaries(ctx: SuiteContext): Planned[] {
  const out: Planned[] = [];
  const seen = new Set<string>();
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
        let body: Json | undefined;
        let expectation: Expectation | undefined;
        if (edge.side === 'at') {
          body = [...placements(base, edge, source)].map(placed).find((b) => isAccepted(op, b));
          if (body === undefined) continue; // no accepted request holds this edge: not a boundary of this example
          const basis = `${op.requestSchemaPointer} (${edge.limit ?? edge.name}: accepted)`;
          const decided = acceptedExpectation(op, [edge.path], basis, edge.kind);
          expectation = readingsExpectation(op, parsed(body), ctx.profile, decided);
          if (edge.manyObjects) expectation = manyItemsExpectation(op, expectation, ctx.profile);
          if (edge.points) expectation = probeExpectation(expectation, edge.points, ctx.profile);
        } else {
          body = placed(setAt(base, edge.path, edge.value));
          // A value no JS number holds exactly is judged as the wrong type it is for the schema.
          const judged = edge.value instanceof Digits ? setAt(base, edge.path, 'not-an-int64') : body;
          expectation = invalidBodyExpectation(op, parsed(judged), ctx.profile);
          if (!expectation) continue;
          if (edge.kind === 'decision')
            expectation = { ...expectation, kind: 'decision', ...(edge.decision && { decision: edge.decision }) };
        }
        seen.add(key);
        const request = { ...pairRequest(ctx.server, pair, ctx.credentials, null), body: serialize(body) };
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
