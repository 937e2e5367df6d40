// messaging-conformance traffic: judges recorded files, read streaming and merged in time order (each file in its own
// order, the files by the time of their next exchange), and says what they show in the suite's report form.
import { describeCause } from '../report.ts';
import { readTraffic } from './read.ts';
import type { RecordedExchange } from './exchange.ts';
import {
  TrafficJudge,
  trafficCauses,
  type TrafficJudgement,
  type TrafficOptions,
  type TrafficReport,
} from './judge.ts';

/** The exchanges of every file, in time order across the files (a week of daily logs, several hosts' logs). */
export async function* merged(files: string[], format?: 'har' | 'ndjson'): AsyncGenerator<RecordedExchange> {
  const readers = files.map((f) => readTraffic(f, format));
  const heads = await Promise.all(readers.map((r) => r.next()));
  for (;;) {
    let first = -1;
    for (const [i, head] of heads.entries())
      if (!head.done && (first < 0 || head.value.at < (heads[first]!.value as RecordedExchange).at)) first = i;
    if (first < 0) return;
    yield heads[first]!.value as RecordedExchange;
    heads[first] = await readers[first]!.next();
  }
}

/** Judges the files; `found` hears each failure as it is judged. */
export async function judgeTraffic(
  files: string[],
  options: TrafficOptions & { format?: 'har' | 'ndjson' } = {},
  found: (line: string) => void = () => {},
): Promise<{ report: TrafficReport; judge: TrafficJudgement }> {
  const judge = new TrafficJudge(options);
  for await (const x of merged(files, options.format)) for (const r of judge.see(x)) found(findingLine(r));
  for (const r of judge.end()) found(findingLine(r));
  return { report: judge.report(), judge };
}

/** A failure as it is found, on one line: where, which check, what. */
export const findingLine = (r: { stage: string; name: string; faults?: Array<{ check: string; fault: string }> }) =>
  `${r.stage === 'requests' || r.stage === 'receivers' ? 'CALLER' : 'SERVICE'} ${r.name}: [${r.faults?.map((f) => f.check).join(', ')}] ${r.faults?.[0]?.fault ?? ''}`;

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
    `traffic: ${n(t.exchanges)} exchanges in ${(t.ms / 1000).toFixed(1)} s (${n(Math.round(t.exchanges / Math.max(t.ms / 1000, 0.001)))}/s): ${n(t.callbacks)} callbacks, ${n(t.unanswered)} without a recorded answer, ${n(t.outside)} outside the document's paths (not judged)`,
    `  the service's side: ${n(t.service.judged)} answers judged, ${n(t.service.failed)} not allowed by the document${t.decisions ? `; ${n(t.decisions)} only this contract's decisions judge (--profile strict)` : ''}`,
    `  the callers' side: ${n(t.caller.judged)} requests judged, ${n(t.caller.failed)} refused by the document`,
    ...notJudged,
    ...(t.notKept ? [`  kept: the first failures of each cause; ${n(t.notKept)} more are counted, not kept`] : []),
    `judged: ${t.judgedSide === 'both' ? 'both sides' : `the ${t.judgedSide === 'service' ? "service's" : "callers'"} side`}, profile ${report.profile}: ${failed('service') + failed('caller') === 0 ? 'every exchange is allowed' : `${n(failed('service') + failed('caller'))} break the contract`}`,
  ].join('\n');
}
