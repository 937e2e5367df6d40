// The suite's output: the failures grouped by cause, the summary and coverage scorecard, the JUnit XML and JSON reports.
import { causeKey, causeOrder } from './judge.ts';
import {
  clip,
  type CheckResult,
  type CredentialName,
  type SuiteReport,
  type TrafficJudgement,
  type TrafficReport,
} from './ground/model.ts';

/** Where each credential came from, as the person who ran the suite knows it (default: the option names). */
export type CredentialSources = Partial<Record<CredentialName, string>>;

/** What a run stopped before any stage prints: the credentials rejected, with their sources, or why not the service. */
export function stopLine(report: SuiteReport, sources: CredentialSources = {}): string | undefined {
  if (report.misdirected)
    return `the server does not answer as the service: ${report.misdirected}; nothing was checked`;
  const named = report.rejectedCredentials?.map((c) => `${c} (${sources[c] ?? c})`).join(', ');
  if (named)
    return `the server rejected the credentials: ${named} got 401 on a request that is otherwise right; nothing was checked`;
}

const measures = ['statuses', 'codes', 'examples'] as const;

/** One cause: what the checks found (or a failure no check judged, itself) and every failed check that shows it. */
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

/** Failures by cause (check and fault, not request) across stages: in the registry's order, then most shown first. */
export function causes(results: CheckResult[]): Cause[] {
  const groups = new Map<string, Cause>();
  const add = (key: string, cause: Omit<Cause, 'results'>, r: CheckResult) => {
    const group = groups.get(key) ?? groups.set(key, { ...cause, results: [] }).get(key)!;
    if (group.results.at(-1) !== r) group.results.push(r);
  };
  for (const r of results.filter((x) => !x.ok)) {
    for (const f of r.faults ?? []) add(causeKey(f), { check: f.check, fault: f.fault, judged: true }, r);
    const own = JSON.stringify([r.stage, r.covers?.operationId, r.kind, r.expected, r.answer ?? r.actual]);
    if (!r.faults?.length) add(own, { check: r.stage, fault: r.name, judged: false }, r);
  }
  // Faults every check showing one also shows are one cause seen two ways (an HTML page: not JSON, wrong status).
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
  const order = (c: Cause) => causeOrder(c.check.split(',')[0]!);
  return [...merged.values()].sort((a, b) => order(a) - order(b) || b.results.length - a.results.length);
}

/** Rows under a header, each column as wide as its widest cell. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** How many of `items` there are of each value, most first: "bad-input 160, boundaries 13". */
export function tally(items: string[]): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([item, n]) => `${item} ${n}`)
    .join(', ');
}

/** A failed check's request, replay, expectation, answer and basis, a line each, as the summary and JUnit show them. */
export const failureLines = (r: CheckResult) => [
  `request:  ${r.request ?? '-'}`,
  ...(r.replay ? [`replay:   ${r.replay}`] : []),
  `expected: ${r.expected ?? '-'}`,
  `actual:   ${r.actual ?? '-'}`,
  ...(r.basis ? [`basis:    ${r.basis}`] : []),
  ...(r.words ? [`words:    ${r.words.join(' | ')}`] : []),
  ...(r.decision ? [`decision: ${r.decision}`] : []),
  ...(r.vars ? [`vars:     ${r.vars}`] : []),
];

/** A cause: what is wrong, how many checks show it and where, then its first failure in full (its replay included). */
export function describeCause(cause: Cause): string {
  const [first, ...rest] = cause.results as [CheckResult, ...CheckResult[]];
  const count = cause.count ?? cause.results.length;
  const operations = [...new Set(cause.results.map((r) => r.covers?.operationId).filter(Boolean))];
  // A heading a terminal shows whole: the checks once each, the first fault cut to fit 160 characters, all below.
  const faults = [...new Set(cause.faults ?? [cause.fault])];
  const more = faults.length > 1 ? ` (+${faults.length - 1} more, below)` : '';
  const title = `FAIL [${cause.check}] `;
  const room = Math.max(40, 160 - title.length - more.length);
  const shownFault = clip(faults[0]!, room);
  const heading = cause.judged
    ? [
        `${title}${shownFault}${more}`,
        ...(faults.length > 1 || shownFault !== faults[0] ? faults.map((f) => `  fault:    ${f}`) : []),
        `  shown by: ${count} failed check${count > 1 ? 's' : ''} (${tally(cause.results.map((r) => r.stage))})${operations.length ? ` of ${operations.join(', ')}` : ''}`,
        `  first:    ${first.stage} [${first.kind}]: ${first.name}`,
      ]
    : [
        `FAIL ${first.stage} [${first.kind}]: ${first.name}${rest.length ? ` (and ${rest.length} more with the same cause)` : ''}`,
      ];
  const shown = rest.slice(0, 3).map((r) => `${r.stage}: ${r.name}`);
  const all = `; ... (all ${count} in the JSON or JUnit report: --reporter json|junit --output F)`;
  return [
    ...heading,
    ...(first.recorded ? [`  recorded: ${first.recorded}`] : []),
    ...failureLines(first).map((line) => `  ${line}`),
    ...(rest.length ? [`  also:     ${shown.join('; ')}${rest.length > shown.length ? all : ''}`] : []),
  ].join('\n');
}

/** A run's end (each stage printed its line): causes, coverage, profile, count; after --bail, the failure and a line. */
export function summary(report: SuiteReport, sources: CredentialSources = {}): string {
  const rejected = stopLine(report, sources);
  if (rejected) return rejected;
  // A check not judged (still 429) is neither passed nor failed.
  const unjudged = report.results.filter((r) => r.skipped).length;
  const passed = report.results.filter((r) => r.ok).length - unjudged;
  const failed = report.results.length - passed - unjudged;
  const failures = causes(report.results);
  const count = `${passed} passed, ${failed} failed${unjudged ? `, ${unjudged} not judged (answered 429 to every resend)` : ''}`;
  const end = report.bailedAt
    ? [`stopped at the first failed check (--bail) in stage ${report.bailedAt}, the stages after it not run: ${count}`]
    : [
        ...(failures.length > 0 ? ['', `${plural(failed, 'failed check')}, ${plural(failures.length, 'cause')}`] : []),
        ...coverageTable(report),
        ...rateLimitLine(report),
        `profile ${report.profile}: ${report.profile === 'strict' ? "the description's facts and this contract's decisions" : "the description's facts only (--profile strict adds the contract's decisions)"}`,
        count,
      ];
  return [...failures.map(describeCause), ...end].join('\n');
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The 429s the run got and the time it waited them out, and its pace (--rate); nothing when it had neither. */
function rateLimitLine({ rateLimit: l }: SuiteReport): string[] {
  if (!l) return [];
  const limited = l.answers
    ? `${plural(l.answers, 'answer')} 429 (rate limited), ${seconds(l.waitedMs)} waited them out${l.notJudged ? `; ${plural(l.notJudged, 'check')} not judged, 429 to every resend` : ''}${l.rate === undefined ? ' (--rate N keeps the run below the limit)' : ''}`
    : 'no answer 429';
  const paced =
    l.rate === undefined ? [] : [`paced at ${l.rate} requests a second, ${seconds(l.pacedMs)} waited for it`];
  return [`rate limit: ${[limited, ...paced].join('; ')}`];
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
  const missed = report.coverage.flatMap((c) =>
    c.missed.filter((m) => !decision(m)).map((m) => `  not exercised: ${c.operationId} ${m.what} (${m.why})`),
  );
  if (decisions)
    missed.push(
      `  not exercised: ${decisions} statuses, codes and examples only this contract's decisions give (--profile strict runs them; each is in the JSON and JUnit reports)`,
    );
  // One line: which checks a reset would make exact; why each was held loosely is in the JSON report.
  const loose = report.coverage.flatMap((c) => (c.needsReset ?? []).map((m) => `${c.operationId} ${m.what}`));
  if (loose.length)
    missed.push(
      `  needs a reset: ${loose.join(', ')}: held loosely, as an earlier send may have changed the state (--reset-url or --reset-command checks ${loose.length === 1 ? 'it' : 'them'} exactly; why, in the JSON report)`,
    );
  const count = (stage: string) => report.results.filter((r) => r.stage === stage).length;
  return [
    '',
    ...table(['passed/run of documented', ...measures, 'limits', 'at edge', 'past edge', 'generated'], rows),
    `  rules over time: ${count('stateful')} checks (stateful); the service's status callbacks: ${count('callbacks') ? `${count('callbacks')} checks (callbacks)` : 'not checked (--callbacks)'}`,
    ...missed,
  ];
}

/** The whole report as JSON: every check with its kind, basis, timing and replay command. */
export const json = (report: SuiteReport): string => `${JSON.stringify(report, null, 2)}\n`;

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

export function junit(report: SuiteReport): string {
  // The stages in the order they ran, each with its time (0 when it recorded none).
  const stages = [...new Set([...Object.keys(report.stageMs), ...report.results.map((r) => r.stage)])];
  const suites = stages.map((stage) => {
    const mine = report.results.filter((r) => r.stage === stage);
    const cases = mine.map((r) => {
      const message = escapeXml(clip(`expected ${r.expected ?? '-'}, got ${r.actual ?? '-'}`, 500));
      const faults = (r.faults ?? []).map((f) => `fault:    [${f.check}] ${f.fault}\n`).join('');
      const failure = `<failure message="${message}">${escapeXml(faults + failureLines(r).join('\n'))}</failure>`;
      const skipped = r.skipped ? `<skipped message="${escapeXml(r.skipped)}"/>` : '';
      return `    <testcase classname="conformance.${escapeXml(stage)}" name="${escapeXml(r.name)}" time="${(r.ms / 1000).toFixed(3)}"><properties><property name="kind" value="${r.kind}"/></properties>${r.ok ? skipped : failure}</testcase>`;
    });
    return `  <testsuite name="${escapeXml(stage)}" tests="${mine.length}" failures="${mine.filter((r) => !r.ok).length}" skipped="${mine.filter((r) => r.skipped).length}" time="${((report.stageMs[stage] ?? 0) / 1000).toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  const property = (name: string, value: unknown) => `    <property name="${name}" value="${value}"/>`;
  const coverage = report.coverage ?? [];
  const properties = [
    property('profile', report.profile),
    ...(report.unfinished ? [property('unfinished', escapeXml(report.unfinished))] : []),
    ...Object.entries(report.rateLimit ?? {}).map(([what, n]) =>
      property(`rate-limit.${what}`, what.endsWith('Ms') ? Math.round(n) : n),
    ),
    ...coverage.flatMap((c) =>
      measures.flatMap((what) => [
        property(`coverage.${escapeXml(c.operationId)}.${what}`, `${c[what].covered}/${c[what].of}`),
        property(`coverage.${escapeXml(c.operationId)}.${what}.passed`, c[what].passed ?? c[what].covered),
      ]),
    ),
    ...coverage.flatMap((c) =>
      Object.entries(c.breadth).map(([what, n]) => property(`breadth.${escapeXml(c.operationId)}.${what}`, n)),
    ),
  ];
  const failures = report.results.filter((r) => !r.ok).length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="messaging-contract conformance" tests="${report.results.length}" failures="${failures}">\n  <properties>\n${properties.join('\n')}\n  </properties>\n${suites.join('\n')}\n</testsuites>\n`;
}

const n = (x: number) => x.toLocaleString('en-US');

/** What a traffic run prints at its end: the causes, then what was judged on each side and what fails the run. */
export function trafficSummary(report: TrafficReport, judge?: TrafficJudgement): string {
  const t = report.traffic;
  const found = causes(report.results).map((c) => ({ ...c, count: judge?.shown(c.results) ?? c.results.length }));
  const side = (s: 'service' | 'caller') => t.judgedSide === 'both' || t.judgedSide === s;
  const notJudged = (['service', 'caller'] as const)
    .filter((s) => !side(s) && t[s].failed > 0)
    .map(
      (s) =>
        `  not judged: ${n(t[s].failed)} ${s === 'caller' ? "requests (or receivers' answers) the document refuses, the callers' breaks" : "answers the document does not allow, the service's breaks"} (--judge ${s} or both fails on them)`,
    );
  const failed = (side('service') ? t.service.failed : 0) + (side('caller') ? t.caller.failed : 0);
  return [
    ...found.map(describeCause),
    ...(found.length ? [''] : []),
    `traffic: ${n(t.exchanges)} exchanges in ${(t.ms / 1000).toFixed(1)} s (${n(Math.round(t.exchanges / Math.max(t.ms / 1000, 0.001)))}/s): ${n(t.callbacks)} callbacks, ${n(t.unanswered)} without a recorded answer, ${n(t.outside)} outside the document's paths (not judged)${t.resets ? `, ${n(t.resets)} reset${t.resets === 1 ? '' : 's'} (the rules over time start again)` : ''}`,
    `  the service's side: ${n(t.service.judged)} answer${t.service.judged === 1 ? '' : 's'} judged, ${n(t.service.failed)} not allowed by the document${t.decisions ? `; ${n(t.decisions)} only this contract's decisions judge (--profile strict)` : ''}`,
    `  the callers' side: ${n(t.caller.judged)} request${t.caller.judged === 1 ? '' : 's'} judged, ${n(t.caller.failed)} refused by the document`,
    ...notJudged,
    ...(t.notKept ? [`  kept: the first failures of each cause; ${n(t.notKept)} more are counted, not kept`] : []),
    `judged: ${t.judgedSide === 'both' ? 'both sides' : `the ${t.judgedSide === 'service' ? "service's" : "callers'"} side`}, profile ${report.profile}: ${failed === 0 ? 'every exchange is allowed' : `${n(failed)} break the contract`}`,
  ].join('\n');
}
