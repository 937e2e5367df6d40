// Judges exchanges nobody in this suite sent (a log, a HAR file, a proxy's traffic) with the registry the suite's own
// requests are judged by: the request by the checks of a request (the caller's side), the answer by the checks of an
// answer against every answer the document allows that request whatever the state (the service's side), a callback
// by the checks of a callback, and the whole sequence by the rules over time. It keeps counts and the first few
// failures of each cause, so a week of traffic needs bounded memory.
import { callbackOf, judgeCallback } from '../checks/callback.ts';
import { describeAllowed, type Fault, type Profile } from '../ground/model.ts';
import { answerOf } from '../checks/answer.ts';
import { causes } from '../report.ts';
import { judgeRequest, recordedCase, route } from '../checks/request.ts';
import { callerOf, sequenceChecks, type Seen } from '../checks/over-time.ts';
import { curl, describeRequest } from '../ground/replay.ts';
import { noAnswer, verdict } from '../suite/runner.ts';
import type { CheckResult } from '../suite/context.ts';
import type { SuiteReport } from '../suite/context.ts';
import { parseAnswer, type Answer, type HttpRequest } from '../ground/transport.ts';
import { apiKeyHeader } from '../../core/meta.ts';
import type { RecordedExchange } from './exchange.ts';
import { redactExchange } from './write.ts';

/** Whose breaks fail the run: the service's (answers the document does not allow), the callers' (requests it refuses). */
export type Side = 'service' | 'caller';
export type Judged = Side | 'both';

export interface TrafficOptions {
  profile?: Profile;
  judge?: Judged;
  /** The path the document's paths start from on the recorded host (default: the servers' base paths). */
  basePath?: string;
  /** The path a receiver of status callbacks listens on: POSTs there are callbacks. */
  callbackPath?: string;
  /** Values to write as *** wherever they occur (the credentials' headers are always). */
  secrets?: string[];
}

/** What a judge saw, by side: exchanges judged, and how many broke the contract. */
export interface TrafficCounts {
  exchanges: number;
  unanswered: number;
  callbacks: number;
  /** Exchanges at paths outside the document's (a docs page, a health check): not the API's, not judged. */
  outside: number;
  /** Answers whose every allowed answer is a decision of this contract: judged under --profile strict only. */
  decisions: number;
  service: { judged: number; failed: number };
  caller: { judged: number; failed: number };
  /** Failures past the first few of their cause, and of causes past the most the report holds: counted, not kept. */
  notKept: number;
}

/** The traffic report: the suite's report with what the judge counted. */
export type TrafficReport = SuiteReport & { traffic: TrafficCounts & { judgedSide: Judged; ms: number } };

/** The failures kept per cause, and the causes kept (a hostile log may name a new path in each line). */
const keptPerCause = 20;
const keptCauses = 500;

/** The curl of a recorded request: its credentials (already ***) as the environment variables the suite reads. */
function recordedCurl(r: HttpRequest): string {
  const headers = { ...r.headers };
  if (headers[apiKeyHeader] !== undefined) headers[apiKeyHeader] = '$MESSAGING_API_KEY';
  if (headers.authorization !== undefined) headers.authorization = 'Bearer $MESSAGING_INTEGRATOR_TOKEN';
  return curl({ ...r, headers }, [
    ['$MESSAGING_API_KEY', '$MESSAGING_API_KEY'],
    ['$MESSAGING_INTEGRATOR_TOKEN', '$MESSAGING_INTEGRATOR_TOKEN'],
  ]);
}

const answerOfRecorded = (x: RecordedExchange): Answer | undefined =>
  x.response &&
  parseAnswer(x.response.status, x.response.headers['content-type'] ?? '', x.response.body, x.response.headers);

/**
 * A judge of traffic as its users see it: what it judges, each exchange in time order, the rules that judge at the end,
 * and the report. (The packages' types name this interface, not the class: a class with private members is a new type
 * in every build of the declarations, which the types gate reads as a break.)
 */
export interface TrafficJudgement {
  readonly judged: Judged;
  /** Judges one exchange; the failures it shows that fail the run. */
  see(x: RecordedExchange): CheckResult[];
  /** The rules over time that judge at the end; their failures. */
  end(): CheckResult[];
  report(): TrafficReport;
  /** How many failures the causes of these kept results stand for. */
  shown(results: CheckResult[]): number;
}

export class TrafficJudge implements TrafficJudgement {
  readonly judged: Judged;
  private readonly profile: Profile;
  private readonly sequence = sequenceChecks.map((check) => ({ check, state: check.start() }));
  /** The first few failures of each cause, and how many there were. */
  private readonly groups = new Map<string, { results: CheckResult[]; count: number }>();
  private readonly started = performance.now();
  readonly counts: TrafficCounts = {
    exchanges: 0,
    unanswered: 0,
    callbacks: 0,
    outside: 0,
    decisions: 0,
    service: { judged: 0, failed: 0 },
    caller: { judged: 0, failed: 0 },
    notKept: 0,
  };

  constructor(private readonly options: TrafficOptions = {}) {
    this.judged = options.judge ?? 'service';
    this.profile = options.profile ?? 'described';
  }

  private sideCounts(side: Side) {
    return side === 'service' ? this.counts.service : this.counts.caller;
  }

  /** Whether the run fails on this side's breaks. */
  fails(side: Side) {
    return this.judged === 'both' || this.judged === side;
  }

  /** Records a failed result of `side`, if that side is judged; returns it when it counts. */
  private fail(side: Side, result: CheckResult): CheckResult[] {
    this.sideCounts(side).failed++;
    if (!this.fails(side)) return [];
    const key = JSON.stringify(result.faults?.map((f) => [f.check, f.key ?? f.fault]) ?? [result.stage, result.name]);
    const group = this.groups.get(key) ?? (this.groups.size < keptCauses ? { results: [], count: 0 } : undefined);
    if (!group) this.counts.notKept++;
    else {
      this.groups.set(key, group);
      group.count++;
      if (group.results.length < keptPerCause) group.results.push(result);
      else this.counts.notKept++;
    }
    return [result];
  }

  /** The exchange as the judge keeps and records it: every credential as ***. */
  redacted(x: RecordedExchange): RecordedExchange {
    return redactExchange(x, this.options.secrets);
  }

  /** Judges one exchange (in time order); resolves with the failures it shows that fail the run, as they happen. */
  see(recorded: RecordedExchange): CheckResult[] {
    const caller = callerOf(recorded.request.headers);
    const x = redactExchange(recorded, this.options.secrets);
    this.counts.exchanges++;
    if (!x.response) this.counts.unanswered++;
    const answer = answerOfRecorded(x);
    const at = new Date(x.at).toISOString();
    const recordedAs = `${x.source}, sent ${at}, answered ${answer ? answerOf(answer.status, answer.body) : x.error ? `nothing (${x.error})` : 'nothing (none recorded)'}`;
    const base = {
      request: describeRequest(x.request),
      replay: recordedCurl(x.request),
      recorded: recordedAs,
      ms: 0,
      ok: false,
    };
    const found: CheckResult[] = [];
    const api = route(x.request, this.options.basePath);
    // A request to an operation's path is the API's; a callback goes elsewhere (the receiver's path).
    const callback = api.atPath
      ? undefined
      : callbackOf(x.request.method, new URL(x.request.url).pathname, x.request.body, this.options.callbackPath);
    const routed = callback ? undefined : api;
    if (callback) {
      this.counts.callbacks++;
      const faults = judgeCallback({ ...callback, answer }).filter(
        (f) => this.profile === 'strict' || f.kind !== 'decision',
      );
      for (const side of ['service', 'caller'] as const) {
        const mine = faults.filter((f) => f.side === side);
        this.sideCounts(side).judged++;
        if (mine.length)
          found.push(
            ...this.fail(side, {
              ...base,
              stage: side === 'service' ? 'callbacks' : 'receivers',
              name: `${x.source}: a ${callback.webhook} callback`,
              kind: mine.every((f) => f.kind === 'decision') ? 'decision' : 'described',
              expected: side === 'service' ? 'a payload valid against the webhook' : '200',
              actual: mine.map((f) => f.detail).join('; '),
              faults: mine.map(({ side: _, ...f }) => f),
            }),
          );
      }
    } else if (routed?.outside) {
      this.counts.outside++;
    } else if (routed) {
      const name = `${x.source}: ${x.request.method} ${routed.path}`;
      const covers = routed.operation ? { operationId: routed.operation.operationId } : undefined;
      const refused = judgeRequest(routed);
      this.counts.caller.judged++;
      if (refused.length)
        found.push(
          ...this.fail('caller', {
            ...base,
            stage: 'requests',
            name,
            kind: 'described',
            expected: 'a request the document accepts',
            actual: refused.map((f) => f.detail).join('; '),
            faults: refused,
            ...(covers ? { covers } : {}),
          }),
        );
      const c = recordedCase(routed, this.profile);
      // No answer, and the recorder says why: the service's fault, unless the caller gave up.
      if (!answer && x.error && !/abort|cancel|blocked/i.test(x.error)) {
        this.counts.service.judged++;
        const outcome = noAnswer(x.request, describeAllowed(c.expectation.allowed, c.expectation.otherErrors), x.error);
        found.push(
          ...this.fail('service', {
            ...base,
            stage: 'answers',
            name,
            kind: c.expectation.kind,
            basis: c.expectation.basis,
            expected: outcome.expected,
            actual: outcome.actual,
            answer: outcome.answer,
            faults: outcome.faults,
            ...(covers ? { covers } : {}),
          }),
        );
      }
      // What only this contract decides (a 404 it gives where the description shows none) is held under strict only.
      if (answer && c.expectation.kind === 'decision' && this.profile !== 'strict') this.counts.decisions++;
      else if (answer) {
        this.counts.service.judged++;
        const outcome = verdict(c, answer, this.profile);
        if (!outcome.ok)
          found.push(
            ...this.fail('service', {
              ...base,
              stage: 'answers',
              name,
              kind: outcome.faults?.every((f) => f.kind === 'decision') ? 'decision' : c.expectation.kind,
              basis: c.expectation.basis,
              expected: outcome.expected ?? describeAllowed(c.expectation.allowed, c.expectation.otherErrors),
              actual: outcome.actual,
              answer: outcome.answer,
              faults: outcome.faults,
              ...(covers ? { covers } : {}),
            }),
          );
      }
    }
    const seen: Seen = { exchange: x, caller, ...(routed ? { routed } : {}), ...(answer ? { answer } : {}) };
    if (callback) seen.callback = callback;
    for (const { check, state } of this.sequence)
      found.push(...this.sequenceFailures(check, state.see(seen), base, x.source));
    return found;
  }

  private sequenceFailures(
    check: (typeof sequenceChecks)[number],
    faults: Array<Omit<Fault, 'check'>>,
    base: Partial<CheckResult>,
    source: string,
  ): CheckResult[] {
    const kept = faults.filter((f) => this.profile === 'strict' || (f.kind ?? check.kind) !== 'decision');
    return kept.flatMap((f) =>
      this.fail('service', {
        ...base,
        ms: 0,
        ok: false,
        stage: 'sequence',
        name: `${source}: ${check.holds}`,
        kind: f.kind ?? check.kind,
        basis: check.basis,
        expected: check.holds,
        actual: f.detail,
        faults: [{ check: check.id, ...f }],
      }),
    );
  }

  /** The rules over time that judge at the end (a callback never posted again); resolves with their failures. */
  end(): CheckResult[] {
    return this.sequence.flatMap(({ check, state }) =>
      this.sequenceFailures(check, state.end(), {}, 'the end of the traffic'),
    );
  }

  /** How many failures the groups of these kept results hold. */
  shown(results: CheckResult[]): number {
    const groups = [...this.groups.values()].filter((g) => g.results.some((r) => results.includes(r)));
    return groups.reduce((n, g) => n + g.count, 0);
  }

  /** The report: the kept failures grouped by cause, and the counts. */
  report(): TrafficReport {
    const results = [...this.groups.values()].flatMap((g) => g.results);
    const failed =
      this.counts.service.failed * Number(this.fails('service')) +
      this.counts.caller.failed * Number(this.fails('caller'));
    return {
      profile: this.profile,
      results,
      stageMs: {},
      finished: true,
      ok: failed === 0,
      traffic: { ...this.counts, judgedSide: this.judged, ms: performance.now() - this.started },
    };
  }
}

/** The causes of a traffic report, each with how many failures show it (the report keeps the first few of each). */
export function trafficCauses(report: TrafficReport, judge?: TrafficJudgement) {
  return causes(report.results).map((cause) => ({
    ...cause,
    count: judge?.shown(cause.results) ?? cause.results.length,
  }));
}
