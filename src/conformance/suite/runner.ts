// The runner: a check sends a case (or does its own work), is judged by the registry, and is recorded in its stage's
// traffic; the run stops when its deadline passes, under --bail at the first failure, and a stage when the server
// stops answering. A stage is a list of planned checks.
import { describeAllowed, type Case, type Profile } from '../ground/model.ts';
import { answerOf, judge } from '../checks/answer.ts';
import type { Answer, HttpRequest as PairRequest } from '../ground/transport.ts';
import {
  Bailed,
  deadlinePassed,
  failFastAfter,
  RunOver,
  runs,
  StageStopped,
  type CheckOutcome,
  type CheckResult,
  type CheckSpec,
  type Coverage,
  type Planned,
  type Stage,
  type SuiteContext,
} from './context.ts';
import { describeRequest, replay } from '../ground/replay.ts';
import { send, type Sent } from './send.ts';

/** The check that sends a case and judges its answer. */
export const caseCheck = (ctx: SuiteContext, name: string, c: Case, covers?: Coverage): Planned => ({
  name,
  kind: c.expectation.kind,
  basis: c.expectation.basis,
  ...(covers ? { covers } : {}),
  run: () => sendCase(ctx, c),
});

export async function runPlanned(ctx: SuiteContext, stage: string, planned: Planned[]): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const { run, ...spec } of planned) results.push(await check(ctx, { stage, ...spec }, run));
  return results;
}

/**
 * A stage whose checks are a list made from the run's options, once per run (each run has its own
 * context), so that its banner counts the very checks it runs: those of the run's profile, in order.
 */
export function planStage(name: string, description: string, plan: (ctx: SuiteContext) => Planned[]): Stage {
  const built = new WeakMap<SuiteContext, Planned[]>();
  const selected = (ctx: SuiteContext) => {
    const list = built.get(ctx) ?? plan(ctx).filter((p) => runs(ctx, p.kind));
    built.set(ctx, list);
    return list;
  };
  return {
    name,
    description,
    count: (ctx) => selected(ctx).length,
    run: (ctx) => runPlanned(ctx, name, selected(ctx)),
  };
}

/** The outcome of a check whose request got no answer, and why. */
export const noAnswer = (request: PairRequest, expected: string, why: string): CheckOutcome => ({
  ok: false,
  request,
  expected,
  actual: `no answer: ${why}`,
  answer: 'no answer',
  faults: [{ check: 'network', fault: `no answer: ${why.replace(/\d+ ms/, 'the timeout')}`, detail: why }],
});

/** What a case expects, in words. */
const expectedOf = (c: Case) =>
  `${describeAllowed(c.expectation.allowed, c.expectation.otherErrors)}${c.expectation.allowed.every((a) => a.status >= 400) ? ' with a problem body' : ''}`;

/**
 * The verdict on a case's answer: every check of the registry that concerns it (checks.ts). Under
 * the described profile a fault in a part this contract decides (a header it marks, a `detail`
 * format) is not held: the rest of the answer is.
 */
export function verdict(c: Case, answer: Answer, profile: Profile): CheckOutcome {
  const faults = judge(c, answer).filter((f) => profile === 'strict' || f.kind !== 'decision');
  const short = answerOf(answer.status, answer.body);
  return {
    ok: faults.length === 0,
    request: c.request,
    expected: expectedOf(c),
    actual: faults.length
      ? `${answer.status} ${answer.text.slice(0, 200)}: ${faults.map((f) => f.detail).join('; ')}`
      : short,
    answer: short,
    ...(faults.length ? { faults } : {}),
  };
}

/** The verdict on what `send` got for a case's request. */
export const judgeSent = (ctx: SuiteContext, c: Case, sent: Sent) =>
  sent.answer ? verdict(c, sent.answer, ctx.profile) : noAnswer(c.request, expectedOf(c), sent.error);

/** Sends a case's request, with `headers` that the report leaves out of it, and judges its answer. */
export const sendCase = async (ctx: SuiteContext, c: Case, headers: Record<string, string> = {}) =>
  judgeSent(ctx, c, await send(ctx, { ...c.request, headers: { ...c.request.headers, ...headers } }));

/**
 * Times `fn` and turns a thrown error into a failed check, recorded in the stage's traffic. First it
 * stops the run when the deadline has passed or (under `bail`) a check has failed, and the stage when
 * its first requests all failed at the network level: more checks against a dead server say nothing.
 */
export async function check(ctx: SuiteContext, spec: CheckSpec, fn: () => Promise<CheckOutcome>): Promise<CheckResult> {
  if (deadlinePassed(ctx)) throw new RunOver("the run's deadline passed before every check ran");
  if (ctx.bail && ctx.stage.checks.some((c) => !c.ok)) throw new Bailed();
  if (ctx.stage.answered === 0 && ctx.stage.networkFailures >= failFastAfter) {
    throw new StageStopped(
      `the first ${ctx.stage.networkFailures} requests of the stage got no answer; the server is not answering`,
    );
  }
  const start = performance.now();
  let outcome: CheckOutcome;
  ctx.stage.sequenceFaults = [];
  try {
    outcome = await fn();
  } catch (error) {
    outcome = { ok: false, expected: 'the check to run', actual: (error as Error).message };
  }
  // A rule over time the check's exchanges broke fails the check too: the same answer's cause, seen over time.
  const overTime = ctx.stage.sequenceFaults.splice(0);
  if (overTime.length)
    outcome = {
      ...outcome,
      ok: false,
      actual: [outcome.ok ? outcome.answer : outcome.actual, ...overTime.map((f) => f.detail)]
        .filter(Boolean)
        .join('; '),
      faults: [...(outcome.faults ?? []), ...overTime],
    };
  const { request, ...verdict } = outcome;
  // A failure only in parts this contract decides (Case.decided) is a decision's failure.
  const decided = verdict.faults?.length && verdict.faults.every((f) => f.kind === 'decision');
  const result: CheckResult = {
    ...spec,
    ...(decided ? { kind: 'decision' as const } : {}),
    ...verdict,
    ...(request ? { request: describeRequest(request), replay: replay(ctx, request) } : {}),
    ms: performance.now() - start,
  };
  ctx.stage.checks.push(result);
  return result;
}
