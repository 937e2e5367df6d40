// What a failing run prints fits on a screen: a cause seen several ways names each check once in a
// heading of at most 160 characters, with every fault below it; the coverage counts what passed.
import { describe, expect, it } from 'vitest';
import { summary } from '../../src/conformance/report.ts';
import type { CheckResult, SuiteReport } from '../../src/conformance/ground/model.ts';

const long = (what: string) => `response 200 of closeThreads: ${what} ${'is not what the document allows '.repeat(4)}`;
/** One failed check that shows four faults of one check, the way one broken answer does. */
const failed: CheckResult = {
  stage: 'examples',
  name: 'closeThreads 200 resolved',
  kind: 'described',
  ok: false,
  ms: 1,
  expected: '200',
  actual: '200 with four faults',
  faults: ['resolved_threads', 'not_existing_threads', 'already_resolved_threads', 'comment'].map((field) => ({
    check: 'schema',
    fault: long(field),
    key: field,
  })),
  covers: { operationId: 'closeThreads', status: 200, example: 'resolved' },
} as CheckResult;
const passed: CheckResult = { ...failed, name: 'closeThreads 200 other', ok: true, faults: [] } as CheckResult;

const report = (results: CheckResult[], extra: Partial<SuiteReport> = {}): SuiteReport => ({
  profile: 'described',
  results,
  stageMs: { examples: 1 },
  finished: true,
  ok: false,
  coverage: [
    {
      operationId: 'closeThreads',
      statuses: { covered: 1, passed: 0, of: 6 },
      codes: { covered: 0, passed: 0, of: 5 },
      examples: { covered: 2, passed: 1, of: 11 },
      breadth: { limits: 0, at: 0, past: 0, generated: 0 },
      missed: [],
    },
  ],
  ...extra,
});

describe('a failing run on a screen', () => {
  it('a cause seen four ways: each check named once in a heading within 160 characters, every fault below', () => {
    const lines = summary(report([failed, passed])).split('\n');
    const heading = lines.find((l) => l.startsWith('FAIL '))!;
    expect(heading.length).toBeLessThanOrEqual(160);
    expect(heading).toMatch(
      /^FAIL \[schema\] response 200 of closeThreads: resolved_threads .*\.\.\. \(\+3 more, below\)$/,
    );
    for (const field of ['resolved_threads', 'not_existing_threads', 'already_resolved_threads', 'comment'])
      expect(lines).toContain(`  fault:    ${long(field)}`);
  });

  it('the coverage counts what passed out of what ran', () => {
    const printed = summary(report([failed, passed]));
    expect(printed).toMatch(/^closeThreads +0\/1 of 6 +0\/0 of 5 +1\/2 of 11 /m);
  });

  it('--bail: the failure and one line, no coverage', () => {
    const lines = summary(report([passed, failed], { bailedAt: 'examples' })).split('\n');
    expect(lines.at(-1)).toBe(
      'stopped at the first failed check (--bail) in stage examples, the stages after it not run: 1 passed, 1 failed',
    );
    expect(lines.join('\n')).not.toMatch(/passed\/run of documented|not exercised/);
    expect(lines.length).toBeLessThanOrEqual(15);
  });
});
