// A run's coverage per operation: the document's statuses, error codes and named examples reached, passed, or why not.
import { sameErrorCode } from '../../core/error-codes.ts';
import { documentOperations, examplePairs, type ExamplePair } from '../../core/examples.ts';
import type { CheckResult, Coverage, CoverageRow, Covered } from '../ground/model.ts';
import type { Stage, SuiteContext } from './context.ts';
import { documentedStatuses } from '../document/policy.ts';
import { missingFixtures } from './vars.ts';

/** An item of the document a check may reach: its name, which checks reach it, and the named examples behind it. */
type Item = [what: string, reached: (c: Coverage) => boolean, behind: ExamplePair[]];

export function coverage(results: CheckResult[], selected: Stage[], { profile, values }: SuiteContext): CoverageRow[] {
  const ran = new Set(selected.map((s) => s.name));
  const title = (p: ExamplePair) => (p.response as { title?: unknown } | undefined)?.title;
  /** Why no check reached an item: why the pairs behind it ran none. */
  const why = (behind: ExamplePair[]) => {
    const lacking = behind.map((p) => missingFixtures(p, values));
    if (!ran.has('examples') && !ran.has('dredd')) return 'the examples and dredd stages were not selected';
    if (profile === 'described' && behind.length > 0 && behind.every((p) => p.kind === 'decision'))
      return 'a decision of this contract: --profile strict runs it';
    if (behind.length > 0 && lacking.every((l) => l.length > 0))
      return `the deployment lacks a fixture: ${[...new Set(lacking.flat())].join(', ')} in --vars would exercise it`;
    return 'no check reached it';
  };
  return documentOperations().map((op) => {
    const pairs = examplePairs().filter((p) => p.operation.operationId === op.operationId);
    const all = results.filter((r) => r.covers?.operationId === op.operationId);
    // A check not judged (still 429) reached nothing.
    const mine = all.filter((r) => !r.skipped);
    const covers = mine.map((r) => r.covers!);
    const missed: CoverageRow['missed'] = [];
    /** How many of `items` a check reached, each other missed; passed: reached, and no check that reached it failed. */
    const tally = (items: Item[]): Covered => {
      const reaching = items.map(([what, reached, behind]) => {
        const found = mine.filter((r) => reached(r.covers!));
        const limited = all.some((r) => r.skipped && reached(r.covers!));
        if (found.length === 0)
          missed.push({ what, why: limited ? 'answered 429 (rate limited) to every resend' : why(behind) });
        return found;
      });
      const covered = reaching.filter((found) => found.length > 0);
      return { covered: covered.length, passed: covered.filter((f) => f.every((r) => r.ok)).length, of: items.length };
    };
    const codes = [...new Set(pairs.map(title).filter((t): t is string => typeof t === 'string'))];
    const sameCode = (code: string) => (c: Coverage) => sameErrorCode(c.code, code);
    const loose = covers.flatMap((c) =>
      c.needsReset ? [{ what: `example ${c.status} ${c.example}`, why: c.needsReset }] : [],
    );
    return {
      operationId: op.operationId,
      statuses: tally(
        documentedStatuses(op).map((s) => [`status ${s}`, (c) => c.status === s, pairs.filter((p) => p.status === s)]),
      ),
      codes: tally(codes.map((code) => [`code ${code}`, sameCode(code), pairs.filter((p) => title(p) === code)])),
      examples: tally(
        pairs.map((p) => [`example ${p.status} ${p.name}`, (c) => c.example === p.name && c.status === p.status, [p]]),
      ),
      breadth: {
        limits: new Set(covers.map((c) => c.limit).filter(Boolean)).size,
        at: covers.filter((c) => c.side === 'at').length,
        past: covers.filter((c) => c.side === 'past').length,
        generated: covers.reduce((n, c) => n + (c.generated ?? 0), 0),
      },
      missed,
      ...(loose.length ? { needsReset: loose } : {}),
    };
  });
}
