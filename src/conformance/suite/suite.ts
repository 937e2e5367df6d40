// Runs the selected stages against a server and collects every check: the run's own checks first (run-checks.ts),
// then each stage, after the reset hook where there is one; the report redacted once, at the end.
import { badInputStage } from '../stages/bad-input.ts';
import { boundariesStage } from '../stages/boundaries.ts';
import { callbacksStage } from '../stages/callbacks.ts';
import { defaultGenerated, generatedStage } from '../stages/generated.ts';
import { dreddStage } from '../stages/dredd.ts';
import { examplesStage } from '../stages/examples.ts';
import { statefulStage } from '../stages/stateful.ts';
import {
  Bailed,
  deadlinePassed,
  defaultDeadlineMs,
  defaultTimeoutMs,
  RunOver,
  StageStopped,
  type CheckResult,
  type Stage,
  type SuiteContext,
  type SuiteReport,
} from './context.ts';
import { coverage } from './coverage.ts';
import { redactAll, redactor } from '../ground/redaction.ts';
import { reset } from './reset.ts';
import { failedCheck, misdirection, probe, reachable } from './run-checks.ts';
import { sequenceRun } from '../checks/over-time.ts';
import { recorder, redactExchange } from '../traffic/write.ts';

export const stages: Stage[] = [
  dreddStage,
  examplesStage,
  statefulStage,
  boundariesStage,
  generatedStage,
  badInputStage,
];

/** The stages to run; `callbacks` only when the run has a receiver for them (--callbacks). */
export function selectStages(only: string[] = [], skip: string[] = [], withCallbacks = false): Stage[] {
  const available = withCallbacks ? [...stages, callbacksStage] : stages;
  const names = available.map((s) => s.name);
  for (const name of [...only, ...skip]) {
    if (name === callbacksStage.name && !withCallbacks)
      throw new Error(
        'stage "callbacks" needs --callbacks and --callback-listen HOST:PORT (runConformance: callbacks)',
      );
    if (!names.includes(name)) throw new Error(`unknown stage "${name}"; the stages are ${names.join(', ')}`);
  }
  const selected = available.filter((s) => (only.length === 0 || only.includes(s.name)) && !skip.includes(s.name));
  if (selected.length === 0)
    throw new Error(`no stage is left to run: --only ${only.join(',') || '(all)'} and --skip ${skip.join(',')}`);
  return selected;
}

export type SuiteOptions = Omit<
  SuiteContext,
  | 'timeoutMs'
  | 'deadline'
  | 'deadlineAt'
  | 'stage'
  | 'profile'
  | 'stateKnown'
  | 'generated'
  | 'sentExamples'
  | 'sequence'
> &
  Partial<Pick<SuiteContext, 'generated' | 'profile' | 'timeoutMs'>> & {
    /** Longest time for the whole run (default 5 min); past it the run stops and does not pass. */
    deadlineMs?: number;
    /** Values to replace with `***` in everything the report holds (credentials). */
    secrets?: string[];
    /**
     * A team's way back to the examples' state, run before each stage: a URL to POST (the sandbox's is
     * /_sandbox/reset) and/or a shell command. The checks that need that state run exactly only after it.
     */
    reset?: { url?: string; command?: string };
    /** Write every exchange the run sends, credentials as ***, to this file: NDJSON, or HAR for a `.har` name. */
    record?: string;
  };

/** The context the stages run in: the options with their defaults, the deadline started now. */
export function suiteContext(options: SuiteOptions): SuiteContext {
  const deadlineMs = options.deadlineMs ?? defaultDeadlineMs;
  return {
    ...options,
    stateKnown: false,
    sentExamples: new Map(),
    server: options.server.replace(/\/+$/, ''),
    profile: options.profile ?? 'described',
    generated: options.generated ?? defaultGenerated,
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    deadline: AbortSignal.timeout(deadlineMs),
    deadlineAt: Date.now() + deadlineMs,
    stage: { answered: 0, networkFailures: 0, sent: 0, checks: [], sequenceFaults: [] },
    ...(options.mock ? {} : { sequence: sequenceRun() }),
  };
}

/** Runs the stages; with `record`, writes every exchange they send (credentials as ***) to that file. */
export async function runSuite(options: SuiteOptions, selected: Stage[] = stages): Promise<SuiteReport> {
  if (!options.record) return runStages(options, selected);
  const file = recorder(options.record);
  const secrets = [...(options.secrets ?? []), ...Object.values(options.credentials)].filter(
    (s): s is string => typeof s === 'string',
  );
  const observe = options.observe;
  try {
    return await runStages(
      {
        ...options,
        observe: (x) => {
          observe?.(x);
          file.write(redactExchange(x, secrets));
        },
      },
      selected,
    );
  } finally {
    await file.close();
  }
}

async function runStages(options: SuiteOptions, selected: Stage[]): Promise<SuiteReport> {
  const ctx = suiteContext(options);
  const redact = redactor([...(options.secrets ?? []), ...Object.values(options.credentials)]);
  const log = ctx.log;
  ctx.log = (line) => log(redact(line));
  await reachable(ctx, redact);
  const { rejected, answers } = ctx.mock ? { rejected: [], answers: [] } : await probe(ctx);
  const misdirected = rejected.length > 0 ? undefined : misdirection(ctx, answers);
  let unfinished = rejected.length
    ? `the server answered 401 to ${rejected.join(', ')} on requests that are otherwise right: the credentials were rejected, so nothing was checked`
    : misdirected;
  let bailedAt: string | undefined;
  const results = rejected.map((credential) =>
    failedCheck('credentials', `the server accepts ${credential}`, 'an answer other than 401', '401', '401'),
  );
  if (misdirected) {
    const answer = String(answers[0]!.status);
    results.push(
      failedCheck('run', 'the service answers where the run looks', 'an answer of the service', misdirected, answer),
    );
  }
  const stageMs: Record<string, number> = {};
  // Rejected credentials or a misdirected run: no stage would tell more.
  for (const stage of unfinished ? [] : selected) {
    if (deadlinePassed(ctx)) {
      const reason = `the run's deadline passed before stage ${stage.name}`;
      unfinished ??= reason; // the first stage the deadline stopped says why the run is unfinished
      results.push(failedCheck(stage.name, 'stage ran', 'the stage to run', reason));
      continue;
    }
    ctx.stage = { name: stage.name, answered: 0, networkFailures: 0, sent: 0, checks: [], sequenceFaults: [] };
    if (options.reset?.url || options.reset?.command) {
      const failed = await reset(ctx, options.reset);
      if (failed) {
        unfinished = `the reset hook failed before stage ${stage.name}: ${failed}`;
        results.push(failedCheck(stage.name, 'reset before the stage', 'the reset hook to succeed', failed));
        break;
      }
      ctx.stateKnown = true;
      // The examples' state again: what the rules over time remember is no longer so.
      if (ctx.sequence) ctx.sequence = sequenceRun();
    }
    // After the reset: a stage's checks may depend on whether the state is known.
    const start = performance.now();
    let stageResults: CheckResult[];
    try {
      stageResults = await stage.run(ctx);
      if (stageResults.length === 0) throw new StageStopped('the stage ran no check');
    } catch (error) {
      // A stopped stage keeps the checks it ran, and fails with the reason it stopped.
      const reason =
        error instanceof StageStopped
          ? error.message
          : `the stage failed: ${(error as Error)?.message ?? String(error)}`;
      if (error instanceof RunOver) unfinished ??= reason;
      stageResults =
        error instanceof Bailed
          ? ctx.stage.checks
          : [
              ...ctx.stage.checks,
              failedCheck(stage.name, 'stage ran to the end', 'every check of the stage to run', reason),
            ];
    }
    stageMs[stage.name] = performance.now() - start;
    const failed = stageResults.filter((r) => !r.ok).length;
    const decisions = stageResults.filter((r) => r.kind === 'decision').length;
    // One line per stage, once it ran (--list describes each): the stage table of the summary.
    ctx.log(
      `stage ${stage.name}: ${stageResults.length - failed} passed, ${failed} failed in ${(stageMs[stage.name]! / 1000).toFixed(1)} s${decisions ? ` (${decisions} of the checks decisions)` : ''}`,
    );
    results.push(...stageResults);
    // A stage stopped early (the server stopped answering) has failed a check too.
    if (ctx.bail && stageResults.some((r) => !r.ok)) {
      bailedAt = stage.name;
      break;
    }
  }
  // Every text of the report: a fault quotes the answer, which may echo a credential.
  const redacted = redactAll(results, redact);
  return {
    profile: ctx.profile,
    results: redacted,
    stageMs,
    coverage: coverage(redacted, selected, ctx.profile, ctx.values),
    finished: unfinished === undefined,
    ...(unfinished === undefined ? {} : { unfinished: redact(unfinished) }),
    ...(rejected.length > 0 ? { rejectedCredentials: rejected } : {}),
    ...(misdirected ? { misdirected: redact(misdirected) } : {}),
    ok: unfinished === undefined && redacted.length > 0 && redacted.every((r) => r.ok),
    ...(bailedAt ? { bailedAt } : {}),
  };
}
