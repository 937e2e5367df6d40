// The reports a command writes (--reporter junit|json|markdown --output F, each pair once or more): JUnit and JSON as
// report.ts makes them, and the Markdown summary for a CI job's page (GitHub's $GITHUB_STEP_SUMMARY, a GitLab
// artifact), made here: the verdict in one line, each cause with the fields the text report prints and its replay in
// a `sh` block, and the coverage as a table. Every credential is *** before any text is escaped (an escaped secret
// would no longer be found), and every text is escaped: a pipe in a table cell, backticks in a code span or block.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../../core/cli.ts';
import { redactAll } from '../ground/redaction.ts';
import { clip, type SuiteReport, type TrafficJudgement, type TrafficReport } from '../ground/model.ts';
import {
  causes,
  failureLines,
  json as formatJson,
  junit as formatJUnit,
  stopLine,
  summary,
  tally,
  trafficSummary,
  type Cause,
} from '../report.ts';
import { oneOf, writable, type RunState, type Say, type WriteReport } from './shared.ts';

/** Text shown as is: Markdown's inline punctuation escaped, on one line. */
export const escapeText = (s: string) => s.replace(/\s*[\r\n]+\s*/g, ' ').replace(/[\\`*_{}[\]()<>|~!&#]/g, '\\$&');

/** The longest run of backticks in `s`. */
const longestTicks = (s: string) => Math.max(0, ...[...s.matchAll(/`+/g)].map((m) => m[0].length));

/** A code span that shows `s` whole: a fence longer than any backtick run inside, padded where `s` ends in one. */
export function codeSpan(s: string): string {
  const text = s.replace(/[\r\n]+/g, ' ');
  const fence = '`'.repeat(longestTicks(text) + 1);
  const pad = /^`|`$/.test(text) || (/^ /.test(text) && / $/.test(text)) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A fenced block of `s` with `info`: a fence of more backticks than any run inside (at least 3). */
export function codeBlock(s: string, info = ''): string {
  const fence = '`'.repeat(Math.max(3, longestTicks(s) + 1));
  return `${fence}${info}\n${s}\n${fence}`;
}

/** A table cell: a pipe escaped even inside a code span (GitHub splits cells before it reads spans). */
const cell = (s: string) => s.replace(/\|/g, '\\|');
const row = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
/** A field's text at most this long: a summary stays readable; the JSON report has every field whole. */
const fieldMax = 2000;
/** A replay longer than this is left to the JSON report (a cut command would not replay anything). */
const replayMax = 64 * 1024;
/** The causes shown in full until the summary is this long; the rest by their headings (GitHub takes 1 MiB a step). */
const budget = 512 * 1024;

/** `s` cut as every report cuts a text (core/clip.ts), at most `max` characters. */
const cut = (s: string, max = fieldMax) => clip(s, max);

/** Fields shown as code (what the wire carried, the document's pointers); the others as text. */
const asCode = new Set(['request', 'expected', 'actual', 'basis']);

/** A cause: its heading, the fields the text report prints (each failureLines line), then its replay in a block. */
function describe(cause: Cause, n: number, count: number): string {
  const [first, ...rest] = cause.results as [SuiteReport['results'][number], ...SuiteReport['results']];
  const operations = [...new Set(cause.results.map((r) => r.covers?.operationId).filter((o): o is string => !!o))];
  const faults = [...new Set(cause.faults ?? [cause.fault])];
  const title = cause.judged
    ? `${codeSpan(`[${cause.check}]`)} ${escapeText(cut(faults[0]!, 300))}`
    : `${escapeText(`${first.stage} [${first.kind}]: ${cut(first.name, 300)}`)}`;
  const item = (label: string, value: string) => `- **${label}:** ${value}`;
  const fields: string[] = [];
  for (const line of failureLines(first)) {
    const m = /^([a-z]+):\s*([\s\S]*)$/.exec(line);
    if (!m || m[1] === 'replay') continue;
    fields.push(item(m[1]!, asCode.has(m[1]!) ? codeSpan(cut(m[2]!)) : escapeText(cut(m[2]!))));
  }
  const shown = rest.slice(0, 3).map((r) => `${r.stage}: ${cut(r.name, 300)}`);
  const all = count > 1 + shown.length ? ` (all ${count} in the JSON or JUnit report)` : '';
  const of = operations.length ? ` of ${operations.map(codeSpan).join(', ')}` : '';
  const replay = first.replay;
  return [
    `### ${n}. ${title}`,
    '',
    ...(faults.length > 1 ? faults.map((f) => item('fault', escapeText(cut(f)))) : []),
    item('shown by', `${plural(count, 'failed check')} (${escapeText(tally(cause.results.map((r) => r.stage)))})${of}`),
    item('first', escapeText(`${first.stage} [${first.kind}]: ${cut(first.name)}`)),
    ...(first.recorded ? [item('recorded', escapeText(cut(first.recorded)))] : []),
    ...fields,
    ...(rest.length ? [item('also', `${escapeText(shown.join('; '))}${all}`)] : []),
    ...(replay
      ? [
          '',
          '**replay:**',
          '',
          replay.length > replayMax ? '(longer than 64 KiB: in the JSON report)' : codeBlock(replay, 'sh'),
        ]
      : []),
  ].join('\n');
}

const measures = ['statuses', 'codes', 'examples'] as const;

/** The coverage scorecard as a table, then the rules over time and what was not exercised, as the text report says. */
function coverage(report: SuiteReport): string[] {
  if (!report.coverage) return [];
  const header = ['passed/run of documented', ...measures, 'limits', 'at edge', 'past edge', 'generated'];
  const rows = report.coverage.map((c) =>
    row([
      codeSpan(c.operationId),
      ...measures.map((what) => `${c[what].passed ?? c[what].covered}/${c[what].covered} of ${c[what].of}`),
      ...[c.breadth.limits, c.breadth.at, c.breadth.past, c.breadth.generated].map(String),
    ]),
  );
  const count = (stage: string) => report.results.filter((r) => r.stage === stage).length;
  const callbacks = count('callbacks') ? `${count('callbacks')} checks (callbacks)` : 'not checked (--callbacks)';
  const decision = (m: { why: string }) => m.why.startsWith('a decision of this contract');
  const decisions = report.coverage.reduce((n, c) => n + c.missed.filter(decision).length, 0);
  const missed = report.coverage.flatMap((c) =>
    c.missed
      .filter((m) => !decision(m))
      .map((m) => `- not exercised: ${escapeText(`${c.operationId} ${m.what} (${m.why})`)}`),
  );
  if (decisions)
    missed.push(
      `- not exercised: ${decisions} statuses, codes and examples only this contract's decisions give (--profile strict runs them)`,
    );
  const loose = report.coverage.flatMap((c) => (c.needsReset ?? []).map((m) => `${c.operationId} ${m.what}`));
  if (loose.length)
    missed.push(
      `- needs a reset: ${escapeText(loose.join(', '))}: held loosely, as an earlier send may have changed the state (--reset-url or --reset-command checks ${loose.length === 1 ? 'it' : 'them'} exactly)`,
    );
  return [
    '',
    '### Coverage',
    '',
    row(header),
    `|${header.map((_, i) => (i > 3 ? ' ---: ' : ' --- ')).join('|')}|`,
    ...rows,
    '',
    `Rules over time: ${count('stateful')} checks (stateful); the service's status callbacks: ${callbacks}.`,
    ...(missed.length ? ['', ...missed] : []),
  ];
}

const profileLine = (report: SuiteReport) =>
  report.profile === 'strict'
    ? "Profile strict: the description's facts and this contract's decisions."
    : "Profile described: the description's facts only (--profile strict adds the contract's decisions).";

/** The one-line verdict: passed, or how many checks failed with how many causes; the profile. */
function verdict(report: SuiteReport, failed: number, causeCount: number, passed: number): string {
  const profile = `profile ${report.profile}`;
  const stop = stopLine(report);
  if (stop) return `## ❌ Conformance did not run: ${escapeText(stop)}`;
  if (!report.finished)
    return `## ❌ Conformance could not finish: ${escapeText(report.unfinished ?? 'the run stopped')} (${profile})`;
  if (report.ok) return `## ✅ Conformance passed: ${plural(passed, 'check')} (${profile})`;
  if (failed === 0)
    return `## ❌ Conformance did not pass: no failed check, but not every check was judged (${profile})`;
  const bail = report.bailedAt ? `, stopped at the first (--bail, stage ${escapeText(report.bailedAt)})` : '';
  return `## ❌ Conformance failed: ${plural(failed, 'failed check')}, ${plural(causeCount, 'cause')}${bail} (${profile})`;
}

/** The report as Markdown: `redact` hides credentials first; `judge` as for WriteReport (recorded traffic). */
export function markdown(raw: SuiteReport, options: { redact?: (s: string) => string; judge?: TrafficJudgement } = {}) {
  const report = options.redact ? redactAll(raw, options.redact) : raw;
  const unjudged = report.results.filter((r) => r.skipped).length;
  const passed = report.results.filter((r) => r.ok).length - unjudged;
  const t = (report as Partial<TrafficReport>).traffic;
  const side = (s: 'service' | 'caller') => t && (t.judgedSide === 'both' || t.judgedSide === s);
  // Recorded traffic keeps the first failures of each cause: its counts are the judge's.
  const failed = t
    ? (side('service') ? t.service.failed : 0) + (side('caller') ? t.caller.failed : 0)
    : report.results.length - passed - unjudged;
  const found = causes(report.results);
  const counts = `${passed} passed, ${failed} failed${unjudged ? `, ${unjudged} not judged (answered 429 to every resend)` : ''}`;
  const traffic = t
    ? trafficSummary({ ...(report as TrafficReport), results: [] }, options.judge)
        .split('\n')
        .map((line) => `- ${escapeText(line.trim())}`)
    : [];
  const sections: string[] = [];
  let size = 0;
  const left: string[] = [];
  for (const [i, cause] of found.entries()) {
    const count = options.judge?.shown(cause.results) ?? cause.count ?? cause.results.length;
    if (size > budget) {
      left.push(`- ${escapeText(`[${cause.check}] ${cut(cause.fault, 300)}`)} (${plural(count, 'failed check')})`);
      continue;
    }
    const text = describe(cause, i + 1, count);
    size += text.length;
    sections.push(text, '');
  }
  return `${[
    verdict(report, failed, found.length, passed),
    '',
    // Recorded traffic: what was judged on each side (its results keep only failures, a few of each cause).
    ...(t ? traffic : [`${counts}. ${profileLine(report)}`]),
    ...(found.length ? ['', ...sections.slice(0, -1)] : []),
    ...(left.length
      ? ['', `${plural(left.length, 'more cause')} (in full in the JSON or JUnit report):`, '', ...left]
      : []),
    ...coverage(report),
  ].join('\n')}\n`;
}

const reporters = ['junit', 'json', 'markdown'] as const;
const reportNames = { junit: 'JUnit XML', json: 'JSON report', markdown: 'Markdown summary' } as const;

/**
 * --reporter junit|json|markdown with --output F, each pair once or more (the n-th --output is the n-th --reporter's),
 * checked before the run (a report that cannot be written is found now): what writes the reports, credentials hidden,
 * and with `say` says where (not when the run ends with one line).
 */
export function reporter(o: { reporter?: string | string[]; output?: string | string[] }, run: RunState): WriteReport {
  const kinds = [o.reporter ?? []].flat().map((r) => oneOf('reporter', [...reporters], r)!);
  const outputs = [o.output ?? []].flat();
  const missing = kinds[outputs.length];
  if (missing !== undefined) throw new UsageError(`--reporter ${missing} needs --output <file>`);
  if (outputs.length > kinds.length)
    throw new UsageError(`--output ${outputs[kinds.length]} needs --reporter junit|json|markdown before it`);
  const files = outputs.map((path) => writable('output', path));
  const twice = files.find((f, i) => files.findIndex((g) => resolve(g) === resolve(f)) !== i);
  if (twice !== undefined) throw new UsageError(`--output ${twice} is given to two reporters`);
  return (report, say, judge) => {
    for (const [i, kind] of kinds.entries()) {
      const text =
        kind === 'json'
          ? formatJson(report)
          : kind === 'junit'
            ? formatJUnit(report)
            : markdown(report, { redact: run.redact, judge });
      writeFileSync(files[i]!, run.redact(text));
      say?.(`${reportNames[kind]}: ${files[i]}`);
    }
  };
}

/** A run that reported (`judge`: recorded traffic): summary said, report written and where; exit 0 if it holds. */
export function finish(run: RunState, report: SuiteReport, write: WriteReport, say: Say, judge?: TrafficJudgement) {
  say(run.redact(judge ? trafficSummary(report as TrafficReport, judge) : summary(report)));
  write(report, say, judge);
  run.finished = true;
  return report.ok ? 0 : 1;
}
