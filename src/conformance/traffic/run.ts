// messaging-conformance traffic: judges recorded files, read streaming and merged in time order (each file in its own
// order, the files by the time of their next exchange), each failure heard as it is judged.
import { readTraffic } from './readers/index.ts';
import type { CheckResult, RecordedExchange } from '../ground/model.ts';
import { TrafficJudge, type TrafficJudgement, type TrafficOptions, type TrafficReport } from './judge.ts';

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

/** A failure as it is found, on one line: whose break, where, which check, what. */
export const findingLine = (r: CheckResult) =>
  `${r.side === 'caller' ? 'CALLER' : 'SERVICE'} ${r.name}: [${r.faults?.map((f) => f.check).join(', ')}] ${r.faults?.[0]?.fault ?? ''}`;
