// The suite's output: a summary table, the failures with request, expected and actual, and JUnit XML.
import type { SuiteReport } from './suite.ts';

export function summary(report: SuiteReport): string {
  const rows = Object.entries(report.stageMs).map(([stage, ms]) => {
    const mine = report.results.filter((r) => r.stage === stage);
    const failed = mine.filter((r) => !r.ok).length;
    const decisions = mine.filter((r) => r.kind === 'decision').length;
    return [stage, String(mine.length), String(mine.length - failed), String(failed), String(decisions), `${(ms / 1000).toFixed(1)} s`];
  });
  const header = ['stage', 'checks', 'passed', 'failed', 'decision', 'time'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  const failures = report.results
    .filter((r) => !r.ok)
    .map((r) => `FAIL ${r.stage} [${r.kind}]: ${r.name}\n  request:  ${r.request ?? '-'}${r.replay ? `\n  replay:   ${r.replay}` : ''}\n  expected: ${r.expected ?? '-'}\n  actual:   ${r.actual ?? '-'}`);
  const passed = report.results.filter((r) => r.ok).length;
  return [
    ...failures,
    '',
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    ...coverageTable(report),
    '',
    `profile ${report.profile}: ${report.profile === 'strict' ? 'the description\'s facts and this contract\'s decisions' : 'the description\'s facts only (--profile strict adds the contract\'s decisions)'}`,
    `${passed} passed, ${report.results.length - passed} failed`,
  ].join('\n');
}

/** The coverage scorecard: per operation, statuses, codes and examples exercised, then what was not and why. */
function coverageTable(report: SuiteReport): string[] {
  if (!report.coverage) return [];
  const rows = report.coverage.map((c) => [c.operationId, `${c.statuses.covered}/${c.statuses.of}`, `${c.codes.covered}/${c.codes.of}`, `${c.examples.covered}/${c.examples.of}`]);
  const header = ['coverage', 'statuses', 'codes', 'examples'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  const missed = report.coverage.flatMap((c) => c.missed.map((m) => `  not exercised: ${c.operationId} ${m.what} (${m.why})`));
  return ['', line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), ...missed];
}

/** The whole report as JSON: every check with its kind, timing and replay command. */
export function json(report: SuiteReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

const escape = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

export function junit(report: SuiteReport): string {
  const suites = Object.entries(report.stageMs).map(([stage, ms]) => {
    const mine = report.results.filter((r) => r.stage === stage);
    const cases = mine.map((r) => {
      const body = r.ok ? '' : `<failure message="${escape(`expected ${r.expected ?? '-'}, got ${r.actual ?? '-'}`.slice(0, 500))}">${escape(`request:  ${r.request ?? '-'}${r.replay ? `\nreplay:   ${r.replay}` : ''}\nexpected: ${r.expected ?? '-'}\nactual:   ${r.actual ?? '-'}`)}</failure>`;
      return `    <testcase classname="conformance.${escape(stage)}" name="${escape(r.name)}" time="${(r.ms / 1000).toFixed(3)}"><properties><property name="kind" value="${r.kind}"/></properties>${body}</testcase>`;
    });
    return `  <testsuite name="${escape(stage)}" tests="${mine.length}" failures="${mine.filter((r) => !r.ok).length}" time="${(ms / 1000).toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  const failures = report.results.filter((r) => !r.ok).length;
  const properties = (report.coverage ?? []).flatMap((c) =>
    (['statuses', 'codes', 'examples'] as const).map((what) => `    <property name="coverage.${escape(c.operationId)}.${what}" value="${c[what].covered}/${c[what].of}"/>`),
  );
  const head = properties.length ? `  <properties>\n    <property name="profile" value="${report.profile}"/>\n${properties.join('\n')}\n  </properties>\n` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="messaging-contract conformance" tests="${report.results.length}" failures="${failures}">\n${head}${suites.join('\n')}\n</testsuites>\n`;
}
