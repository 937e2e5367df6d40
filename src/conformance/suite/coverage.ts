// The coverage scorecard of a run: per operation, the document's statuses, error codes and named examples the checks
// reached and passed, and why the rest was not reached.
import { normalizeErrorCode } from '../../core/error-codes.ts';
import { documentOperations, examplePairs, type ExamplePair } from '../../core/examples.ts';
import type { CheckResult, Coverage, CoverageRow, Profile } from '../ground/model.ts';
import type { Stage } from './context.ts';
import { documentedStatuses } from '../document/policy.ts';
import { missingFixtures } from './vars.ts';

/** The coverage scorecard of a run: the document's statuses, error codes and named examples per operation. */
export function coverage(
  results: CheckResult[],
  selected: Stage[],
  profile: Profile,
  values: Record<string, unknown> = {},
): CoverageRow[] {
  const ran = new Set(selected.map((s) => s.name));
  const title = (p: ExamplePair) => (p.response as { title?: unknown } | undefined)?.title;
  return documentOperations().map((op) => {
    const pairs = examplePairs().filter((p) => p.operation.operationId === op.operationId);
    const mine = results.flatMap((r) => (r.covers?.operationId === op.operationId ? [r.covers] : []));
    const failing = results.flatMap((r) => (!r.ok && r.covers?.operationId === op.operationId ? [r.covers] : []));
    const missed: CoverageRow['missed'] = [];
    /** How many of `items` a check reached; each other is missed, with why the pairs behind it ran no check. */
    const tally = (items: Array<{ what: string; reached: (c: Coverage) => boolean; behind: ExamplePair[] }>) => {
      const missing = items.filter((item) => !mine.some((c) => item.reached(c)));
      for (const { what, behind } of missing) {
        const decided = behind.length > 0 && behind.every((p) => p.kind === 'decision');
        const lacking = behind.map((p) => missingFixtures(p, values));
        const why =
          !ran.has('examples') && !ran.has('dredd')
            ? 'the examples and dredd stages were not selected'
            : profile === 'described' && decided
              ? 'a decision of this contract: --profile strict runs it'
              : behind.length > 0 && lacking.every((l) => l.length > 0)
                ? `the deployment lacks a fixture: ${[...new Set(lacking.flat())].join(', ')} in --vars would exercise it`
                : 'no check reached it';
        missed.push({ what, why });
      }
      // Passed: reached, and no check that reached it failed.
      const passed = items.filter((item) => !missing.includes(item) && !failing.some((c) => item.reached(c))).length;
      return { covered: items.length - missing.length, passed, of: items.length };
    };
    const codes = [...new Set(pairs.map(title).filter((t): t is string => typeof t === 'string'))];
    const loose = mine.flatMap((c) =>
      c.needsReset ? [{ what: `example ${c.status} ${c.example}`, why: c.needsReset }] : [],
    );
    return {
      operationId: op.operationId,
      statuses: tally(
        documentedStatuses(op).map((s) => ({
          what: `status ${s}`,
          reached: (c) => c.status === s,
          behind: pairs.filter((p) => p.status === s),
        })),
      ),
      codes: tally(
        codes.map((code) => ({
          what: `code ${code}`,
          reached: (c) => c.code !== undefined && normalizeErrorCode(c.code) === normalizeErrorCode(code),
          behind: pairs.filter((p) => title(p) === code),
        })),
      ),
      examples: tally(
        pairs.map((p) => ({
          what: `example ${p.status} ${p.name}`,
          reached: (c) => c.example === p.name && c.status === p.status,
          behind: [p],
        })),
      ),
      breadth: {
        limits: new Set(mine.map((c) => c.limit).filter(Boolean)).size,
        at: mine.filter((c) => c.side === 'at').length,
        past: mine.filter((c) => c.side === 'past').length,
        generated: mine.reduce((n, c) => n + (c.generated ?? 0), 0),
      },
      missed,
      ...(loose.length ? { needsReset: loose } : {}),
    };
  });
}
