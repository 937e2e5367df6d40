// The traffic source's judge: each exchange nobody in this suite sent (a log, a HAR file, a proxy's) goes to judge.ts;
// this keeps counts by side and the first few failures of each cause, so a week's traffic needs bounded memory.
import { causeKey, Judge, report, type JudgeOptions } from '../judge.ts';
import type { CheckResult, Judged, RecordedExchange, Side, TrafficCounts } from '../ground/model.ts';
import type { TrafficJudgement, TrafficReport } from '../ground/model.ts';

export type { Judged, TrafficJudgement, TrafficReport } from '../ground/model.ts';

export interface TrafficOptions extends JudgeOptions {
  judge?: Judged;
}

/** The failures kept per cause, and the causes kept (a hostile log may name a new path in each line). */
const keptPerCause = 20;
const keptCauses = 500;

export class TrafficJudge implements TrafficJudgement {
  readonly judged: Judged;
  private readonly judge: Judge;
  /** The first few failures of each cause, and how many there were. */
  private readonly groups = new Map<string, { results: CheckResult[]; count: number }>();
  private readonly started = performance.now();
  /** The last exchange judged as it may be recorded: every credential as ***, no bodies outside the document. */
  kept: RecordedExchange | undefined;
  readonly counts: Required<TrafficCounts> = {
    exchanges: 0,
    unanswered: 0,
    callbacks: 0,
    outside: 0,
    decisions: 0,
    resets: 0,
    service: { judged: 0, failed: 0 },
    caller: { judged: 0, failed: 0 },
    notKept: 0,
  };

  constructor(options: TrafficOptions = {}) {
    this.judged = options.judge ?? 'service';
    this.judge = new Judge(options);
  }

  /** Whether the run fails on this side's breaks. */
  fails = (side: Side) => this.judged === 'both' || this.judged === side;

  /** Counts a failure of its side and keeps it, if that side is judged; returns it when it counts. */
  private fail(result: CheckResult): CheckResult[] {
    const side = result.side ?? 'service';
    this.counts[side].failed++;
    if (!this.fails(side)) return [];
    const key = result.faults?.length ? result.faults.map(causeKey).join() : `${result.stage} ${result.name}`;
    if (!this.groups.has(key) && this.groups.size < keptCauses) this.groups.set(key, { results: [], count: 0 });
    const group = this.groups.get(key);
    if (group) group.count++;
    if (group && group.results.length < keptPerCause) group.results.push(result);
    else this.counts.notKept++;
    return [result];
  }

  see(x: RecordedExchange): CheckResult[] {
    const j = this.judge.see(x);
    this.kept = j.kept;
    this.counts.exchanges++;
    if (!x.response && j.what !== 'outside') this.counts.unanswered++;
    if (j.what === 'outside') this.counts.outside++;
    if (j.what === 'reset') this.counts.resets++;
    if (j.what === 'callback') this.counts.callbacks++;
    if (j.decision) this.counts.decisions++;
    for (const side of j.judged) this.counts[side].judged++;
    return j.failures.flatMap((r) => this.fail(r));
  }

  /** The rules over time that judge at the end (a callback never posted again); their failures. */
  end = (): CheckResult[] => this.judge.end().flatMap((r) => this.fail(r));

  shown(results: CheckResult[]): number {
    const groups = [...this.groups.values()].filter((g) => g.results.some((r) => results.includes(r)));
    return groups.reduce((n, g) => n + g.count, 0);
  }

  /** The report: the kept failures grouped by cause, and the counts. */
  report(): TrafficReport {
    const results = [...this.groups.values()].flatMap((g) => g.results);
    const traffic = { ...this.counts, judgedSide: this.judged, ms: performance.now() - this.started };
    return { ...report(this.judge.profile, results, {}, true), traffic };
  }
}
