// The suite's output: the failures grouped by cause, a summary table, the coverage scorecard, and
// the JUnit XML and JSON reports.
import { causeKey, causeOrder } from './judge.ts';
import type { CheckResult, CredentialName, SuiteReport, TrafficJudgement, TrafficReport } from './ground/model.ts';

/** Where each credential came from, as the person who ran the suite knows it (default: the option names). */
export type CredentialSources = Partial<Record<CredentialName, string>>;

/**
 * The one line a run that stopped before any stage prints: the credentials rejected (which ones,
 * and where they came from), or why the answers are not the service's.
 */
export function stopLine(report: SuiteReport, sources: CredentialSources = {}): string | undefined {
  if (report.misdirected)
    return `the server does not answer as the service: ${report.misdirected}; nothing was checked`;
  const rejected = report.rejectedCredentials;
  if (!rejected?.length) return undefined;
  const named = rejected.map((c) => `${c} (${sources[c] ?? c})`).join(', ');
  return `the server rejected the credentials: ${named} got 401 on a request that is otherwise right; nothing was checked`;
}

/** The stages of a report in the order they ran, each with its time (0 when it recorded none) and its checks. */
function stagesOf(report: SuiteReport): Array<[string, number, CheckResult[]]> {
  const names = [...new Set([...Object.keys(report.stageMs), ...report.results.map((r) => r.stage)])];
  return names.map((stage) => [stage, report.stageMs[stage] ?? 0, report.results.filter((r) => r.stage === stage)]);
}

const measures = ['statuses', 'codes', 'examples'] as const;

/** One cause: what the checks found (or, for a failure no check of the registry judged, the failure itself) and every failed check that shows it. */
export interface Cause {
  /** The check of the registry, or the stage for a failure of its own (the run's). */
  check: string;
  fault: string;
  /** False for a failure no check of the registry judged: it is its own cause, under its stage's name. */
  judged: boolean;
  /** Every fault of a cause seen several ways (the first is `fault`), each once. */
  faults?: string[];
  results: CheckResult[];
  /** How many failures show it, where more than `results` holds (recorded traffic keeps the first few of each cause). */
  count?: number;
}

/**
 * Failures grouped by root cause, across stages and operations: by check and fault (what is wrong with the answer), not
 * by which request showed it. Root causes come first (the registry's order), then the causes that more checks show.
 */
export function causes(results: CheckResult[]): Cause[] {
  const groups = new Map<string, Cause>();
  const add = (key: string, make: () => Omit<Cause, 'results'>, r: CheckResult) => {
    const group = groups.get(key) ?? { ...make(), results: [] };
    groups.set(key, group);
    if (group.results.at(-1) !== r) group.results.push(r);
  };
  for (const r of results.filter((x) => !x.ok)) {
    if (r.faults?.length)
      for (const f of r.faults) add(causeKey(f), () => ({ check: f.check, fault: f.fault, judged: true }), r);
    else
      add(
        JSON.stringify([r.stage, r.covers?.operationId, r.kind, r.expected, r.answer ?? r.actual]),
        () => ({ check: r.stage, fault: r.name, judged: false }),
        r,
      );
  }
  // Faults that every check showing one also shows are one cause seen two ways (an HTML page: not
  // JSON, and the wrong status): they read as one.
  const position = new Map(results.map((r, i) => [r, i]));
  const merged = new Map<string, Cause>();
  for (const cause of groups.values()) {
    const members = cause.results.map((r) => position.get(r)).join(',');
    const same = merged.get(members);
    if (same) {
      same.check = [...new Set([...same.check.split(', '), cause.check])].join(', ');
      same.faults = [...(same.faults ?? [same.fault]), cause.fault];
    } else merged.set(members, cause);
  }
  return [...merged.values()].sort(
    (a, b) =>
      causeOrder(a.check.split(',')[0]!) - causeOrder(b.check.split(',')[0]!) || b.results.length - a.results.length,
  );
}

/** Rows under a header, each column as wide as its widest cell. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** How many of `items` there are of each value, most first: "bad-input 160, boundaries 13". */
function tally(items: string[]): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([item, n]) => `${item} ${n}`)
    .join(', ');
}

/** The longest heading of a cause: a line a terminal shows whole. */
const headingWidth = 160;

/** A cause: what is wrong, how many checks show it and where, then its first failure in full (its replay included). */
export function describeCause(cause: Cause): string {
  const [first, ...rest] = cause.results as [CheckResult, ...CheckResult[]];
  const operations = [...new Set(cause.results.map((r) => r.covers?.operationId).filter(Boolean))];
  // A heading a screen holds: the checks once each, the first fault cut at about 160 characters; all faults below.
  const faults = [...new Set(cause.faults ?? [cause.fault])];
  const more = faults.length > 1 ? ` (+${faults.length - 1} more, below)` : '';
  const title = `FAIL [${cause.check}] `;
  const room = Math.max(40, headingWidth - title.length - more.length);
  const shownFault = faults[0]!.length > room ? `${faults[0]!.slice(0, room - 3)}...` : faults[0]!;
  const heading = cause.judged
    ? [
        `${title}${shownFault}${more}`,
        ...(faults.length > 1 || shownFault !== faults[0] ? faults.map((f) => `  fault:    ${f}`) : []),
        `  shown by: ${cause.count ?? cause.results.length} failed check${(cause.count ?? cause.results.length) > 1 ? 's' : ''} (${tally(cause.results.map((r) => r.stage))})${operations.length ? ` of ${operations.join(', ')}` : ''}`,
        `  first:    ${first.stage} [${first.kind}]: ${first.name}`,
      ]
    : [
        `FAIL ${first.stage} [${first.kind}]: ${first.name}${rest.length ? ` (and ${rest.length} more with the same cause)` : ''}`,
      ];
  const lines = [
    ...heading,
    ...(first.recorded ? [`  recorded: ${first.recorded}`] : []),
    `  request:  ${first.request ?? '-'}`,
    ...(first.replay ? [`  replay:   ${first.replay}`] : []),
    `  expected: ${first.expected ?? '-'}`,
    `  actual:   ${first.actual ?? '-'}`,
    ...(first.basis ? [`  basis:    ${first.basis}`] : []),
  ];
  if (rest.length) {
    const shown = rest.slice(0, 3).map((r) => `${r.stage}: ${r.name}`);
    lines.push(
      `  also:     ${shown.join('; ')}${rest.length > shown.length ? `; ... (all ${cause.count ?? cause.results.length} in the JSON or JUnit report: --reporter json|junit --output F)` : ''}`,
    );
  }
  return lines.join('\n');
}

/**
 * What a run prints at its end (each stage printed its line as it ended): the failures by cause, the coverage, the
 * profile and the count. A run stopped by --bail prints its failure and one line.
 */
export function summary(report: SuiteReport, sources: CredentialSources = {}): string {
  const rejected = stopLine(report, sources);
  if (rejected) return rejected;
  const passed = report.results.filter((r) => r.ok).length;
  const failed = report.results.length - passed;
  const failures = causes(report.results);
  const count = `${passed} passed, ${failed} failed`;
  if (report.bailedAt)
    return [
      ...failures.map(describeCause),
      `stopped at the first failed check (--bail) in stage ${report.bailedAt}, the stages after it not run: ${count}`,
    ].join('\n');
  return [
    ...failures.map(describeCause),
    ...(failures.length > 0 ? ['', `${plural(failed, 'failed check')}, ${plural(failures.length, 'cause')}`] : []),
    ...coverageTable(report),
    `profile ${report.profile}: ${report.profile === 'strict' ? "the description's facts and this contract's decisions" : "the description's facts only (--profile strict adds the contract's decisions)"}`,
    count,
  ].join('\n');
}

/** The coverage scorecard: per operation, statuses, codes and examples exercised, then what was not and why. */
function coverageTable(report: SuiteReport): string[] {
  if (!report.coverage) return [];
  // passed/run of documented: a status a failed check reached is run, not passed.
  const rows = report.coverage.map((c) => [
    c.operationId,
    ...measures.map((what) => `${c[what].passed ?? c[what].covered}/${c[what].covered} of ${c[what].of}`),
    ...[c.breadth.limits, c.breadth.at, c.breadth.past, c.breadth.generated].map(String),
  ]);
  // What the profile leaves out is one line; the list is in the reports. Anything else not reached is a gap, each named.
  const decision = (m: { why: string }) => m.why.startsWith('a decision of this contract');
  const decisions = report.coverage.reduce((n, c) => n + c.missed.filter(decision).length, 0);
  const missed = [
    ...report.coverage.flatMap((c) =>
      c.missed.filter((m) => !decision(m)).map((m) => `  not exercised: ${c.operationId} ${m.what} (${m.why})`),
    ),
    ...(decisions
      ? [
          `  not exercised: ${decisions} statuses, codes and examples only this contract's decisions give (--profile strict runs them; each is in the JSON and JUnit reports)`,
        ]
      : []),
  ];
  // One line: which checks a reset would make exact; why each was held loosely is in the JSON report.
  const loose = report.coverage.flatMap((c) => (c.needsReset ?? []).map((m) => `${c.operationId} ${m.what}`));
  const needsReset = loose.length
    ? [
        `  needs a reset: ${loose.join(', ')}: held loosely, as an earlier send may have changed the state (--reset-url or --reset-command checks ${loose.length === 1 ? 'it' : 'them'} exactly; why, in the JSON report)`,
      ]
    : [];
  const count = (stage: string) => report.results.filter((r) => r.stage === stage).length;
  const overTime = `  rules over time: ${count('stateful')} checks (stateful); the service's status callbacks: ${count('callbacks') ? `${count('callbacks')} checks (callbacks)` : 'not checked (--callbacks)'}`;
  return [
    '',
    ...table(
      ['passed/run of documented', 'statuses', 'codes', 'examples', 'limits', 'at edge', 'past edge', 'generated'],
      rows,
    ),
    overTime,
    ...missed,
    ...needsReset,
  ];
}

/** The whole report as JSON: every check with its kind, basis, timing and replay command. */
export function json(report: SuiteReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

export function junit(report: SuiteReport): string {
  const suites = stagesOf(report).map(([stage, ms, mine]) => {
    const cases = mine.map((r) => {
      const body = r.ok
        ? ''
        : `<failure message="${escapeXml(`expected ${r.expected ?? '-'}, got ${r.actual ?? '-'}`.slice(0, 500))}">${escapeXml(`${(r.faults ?? []).map((f) => `fault:    [${f.check}] ${f.fault}\n`).join('')}request:  ${r.request ?? '-'}${r.replay ? `\nreplay:   ${r.replay}` : ''}\nexpected: ${r.expected ?? '-'}\nactual:   ${r.actual ?? '-'}${r.basis ? `\nbasis:    ${r.basis}` : ''}`)}</failure>`;
      return `    <testcase classname="conformance.${escapeXml(stage)}" name="${escapeXml(r.name)}" time="${(r.ms / 1000).toFixed(3)}"><properties><property name="kind" value="${r.kind}"/></properties>${body}</testcase>`;
    });
    return `  <testsuite name="${escapeXml(stage)}" tests="${mine.length}" failures="${mine.filter((r) => !r.ok).length}" time="${(ms / 1000).toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  const failures = report.results.filter((r) => !r.ok).length;
  const properties = [
    `    <property name="profile" value="${report.profile}"/>`,
    ...(report.unfinished ? [`    <property name="unfinished" value="${escapeXml(report.unfinished)}"/>`] : []),
    ...(report.coverage ?? []).flatMap((c) =>
      measures.map(
        (what) =>
          `    <property name="coverage.${escapeXml(c.operationId)}.${what}" value="${c[what].covered}/${c[what].of}"/>\n    <property name="coverage.${escapeXml(c.operationId)}.${what}.passed" value="${c[what].passed ?? c[what].covered}"/>`,
      ),
    ),
    ...(report.coverage ?? []).flatMap((c) =>
      Object.entries(c.breadth).map(
        ([what, n]) => `    <property name="breadth.${escapeXml(c.operationId)}.${what}" value="${n}"/>`,
      ),
    ),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="messaging-contract conformance" tests="${report.results.length}" failures="${failures}">\n  <properties>\n${properties.join('\n')}\n  </properties>\n${suites.join('\n')}\n</testsuites>\n`;
}

/** The causes of a traffic report, each with how many failures show it (the report keeps the first few of each). */
export function trafficCauses(report: TrafficReport, judge?: TrafficJudgement) {
  return causes(report.results).map((cause) => ({
    ...cause,
    count: judge?.shown(cause.results) ?? cause.results.length,
  }));
}

const n = (x: number) => x.toLocaleString('en-US');

/** What a traffic run prints at its end: the causes, then what was judged on each side and what fails the run. */
export function trafficSummary(report: TrafficReport, judge?: TrafficJudgement): string {
  const t = report.traffic;
  const found = trafficCauses(report, judge);
  const side = (s: 'service' | 'caller') => t.judgedSide === 'both' || t.judgedSide === s;
  const notJudged = (['service', 'caller'] as const)
    .filter((s) => !side(s) && t[s].failed > 0)
    .map(
      (s) =>
        `  not judged: ${n(t[s].failed)} ${s === 'caller' ? "requests (or receivers' answers) the document refuses, the callers' breaks" : "answers the document does not allow, the service's breaks"} (--judge ${s} or both fails on them)`,
    );
  const failed = (s: 'service' | 'caller') => (side(s) ? t[s].failed : 0);
  return [
    ...found.map(describeCause),
    ...(found.length ? [''] : []),
    `traffic: ${n(t.exchanges)} exchanges in ${(t.ms / 1000).toFixed(1)} s (${n(Math.round(t.exchanges / Math.max(t.ms / 1000, 0.001)))}/s): ${n(t.callbacks)} callbacks, ${n(t.unanswered)} without a recorded answer, ${n(t.outside)} outside the document's paths (not judged)${t.resets ? `, ${n(t.resets)} reset${t.resets === 1 ? '' : 's'} (the rules over time start again)` : ''}`,
    `  the service's side: ${n(t.service.judged)} answers judged, ${n(t.service.failed)} not allowed by the document${t.decisions ? `; ${n(t.decisions)} only this contract's decisions judge (--profile strict)` : ''}`,
    `  the callers' side: ${n(t.caller.judged)} requests judged, ${n(t.caller.failed)} refused by the document`,
    ...notJudged,
    ...(t.notKept ? [`  kept: the first failures of each cause; ${n(t.notKept)} more are counted, not kept`] : []),
    `judged: ${t.judgedSide === 'both' ? 'both sides' : `the ${t.judgedSide === 'service' ? "service's" : "callers'"} side`}, profile ${report.profile}: ${failed('service') + failed('caller') === 0 ? 'every exchange is allowed' : `${n(failed('service') + failed('caller'))} break the contract`}`,
  ].join('\n');
}
