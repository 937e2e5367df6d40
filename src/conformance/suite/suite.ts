// Runs the run's own checks (run-checks.ts), then each stage after any reset hook; redacts the report once, at the end.
import { isHttpUrl } from '../../core/http-url.ts';
import type { CheckResult, CredentialName, Credentials, Profile } from '../ground/model.ts';
import type { RecordedExchange, SuiteReport } from '../ground/model.ts';
import { redactAll, redactExchange, redactor } from '../ground/redaction.ts';
import { OverTime, report } from '../judge.ts';
import { badInputStage } from '../stages/bad-input.ts';
import { boundariesStage } from '../stages/boundaries.ts';
import { callbacksStage } from '../stages/callbacks.ts';
import { dreddStage } from '../stages/dredd.ts';
import { examplesStage } from '../stages/examples.ts';
import { defaultGenerated, generatedStage } from '../stages/generated.ts';
import { statefulStage } from '../stages/stateful.ts';
import { recorder } from '../traffic/write.ts';
import { type CallbackOptions, Bailed, deadlinePassed, defaultDeadlineMs, defaultTimeoutMs } from './context.ts';
import { RunOver, StageStopped, type Stage, type SuiteContext } from './context.ts';
import { coverage } from './coverage.ts';
import { reset } from './reset.ts';
import { failedCheck, misdirection, probe, reachable } from './run-checks.ts';
import { runner } from './runner.ts';
import { isRate, Throttle } from './throttle.ts';

export const stages = [dreddStage, examplesStage, statefulStage, boundariesStage, generatedStage, badInputStage];

/** The stages to run; `callbacks` only when the run has a receiver for them (--callbacks). */
export function selectStages(only: string[] = [], skip: string[] = [], withCallbacks = false): Stage[] {
  const available = withCallbacks ? [...stages, callbacksStage] : stages;
  const names = available.map((s) => s.name);
  const needs = 'stage "callbacks" needs --callbacks and --callback-listen HOST:PORT (runConformance: callbacks)';
  for (const name of [...only, ...skip]) {
    if (name === callbacksStage.name && !withCallbacks) throw new Error(needs);
    if (!names.includes(name)) throw new Error(`unknown stage "${name}"; the stages are ${names.join(', ')}`);
  }
  const selected = available.filter((s) => (only.length === 0 || only.includes(s.name)) && !skip.includes(s.name));
  if (selected.length === 0)
    throw new Error(`no stage is left to run: --only ${only.join(',') || '(all)'} and --skip ${skip.join(',')}`);
  return selected;
}

/** The suite's options: runConformance's, the credentials as one object and the reset hook as one, and its own. */
export type SuiteOptions = Omit<ConformanceOptions, CredentialName | 'only' | 'skip' | 'resetUrl' | 'resetCommand'> & {
  credentials: Credentials;
  /** Values to replace with `***` in everything the report holds (credentials). */
  secrets?: string[];
  /** Back to the examples' state before each stage (resetUrl, resetCommand): checks that need it are exact after it. */
  reset?: { url?: string; command?: string };
  /** Hears every exchange the run sends, answered or not, as it ends (--record). */
  observe?: (x: RecordedExchange) => void;
  /** The rules over time judging the run's exchanges (default: this run's own; none for a mock, which has no state). */
  overTime?: OverTime;
};

/** The context the stages run in: the options with their defaults, the deadline started now. */
export function suiteContext(options: SuiteOptions): SuiteContext {
  const {
    observe,
    overTime,
    secrets: _,
    reset: __,
    record: ___,
    deadlineMs = defaultDeadlineMs,
    rate,
    ...rest
  } = options;
  if (rate !== undefined && !isRate(rate)) throw new OptionError('rate', rateExpected, rate);
  const profile = options.profile ?? 'described';
  const data = {
    ...rest,
    values: options.values ?? {},
    seed: options.seed ?? 1,
    mock: options.mock ?? false,
    bail: options.bail === true,
    log: options.log ?? (() => {}),
    stateKnown: false,
    sentExamples: new Map(),
    server: options.server.replace(/\/+$/, ''),
    profile,
    generated: options.generated ?? defaultGenerated,
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    deadline: AbortSignal.timeout(deadlineMs),
    deadlineAt: Date.now() + deadlineMs,
    throttle: new Throttle(rate),
    stage: { answered: 0, networkFailures: 0, sent: 0, checks: [] },
  };
  return runner(data, observe, overTime ?? (options.mock ? undefined : new OverTime(profile)));
}

/** Runs the stages; with `record`, writes every exchange they send (credentials as ***) to that file. */
export async function runSuite(options: SuiteOptions, selected: Stage[] = stages): Promise<SuiteReport> {
  const { credentials, observe } = options;
  const secrets = [...(options.secrets ?? []), ...Object.values(credentials)].filter((s) => typeof s === 'string');
  const file = options.record ? recorder(options.record) : undefined;
  const heard = (x: RecordedExchange) => {
    observe?.(x);
    file?.write(redactExchange(x, secrets));
  };
  try {
    return await runStages({ ...options, observe: file ? heard : observe }, selected, redactor(secrets));
  } finally {
    await file?.close();
  }
}

async function runStages(options: SuiteOptions, selected: Stage[], redact: (text: string) => string) {
  const overTime = options.mock ? undefined : new OverTime(options.profile ?? 'described');
  const ctx = suiteContext({ ...options, overTime, log: (line) => options.log?.(redact(line)) });
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
  const where = 'the service answers where the run looks';
  if (misdirected)
    results.push(failedCheck('run', where, 'an answer of the service', misdirected, `${answers[0]!.status}`));
  const stageMs: Record<string, number> = {};
  // Rejected credentials or a misdirected run: no stage would tell more.
  for (const stage of unfinished ? [] : selected) {
    if (deadlinePassed(ctx)) {
      const reason = `the run's deadline passed before stage ${stage.name}`;
      unfinished ??= reason; // the first stage the deadline stopped says why the run is unfinished
      results.push(failedCheck(stage.name, 'stage ran', 'the stage to run', reason));
      continue;
    }
    ctx.stage = { name: stage.name, answered: 0, networkFailures: 0, sent: 0, checks: [] };
    if (options.reset?.url || options.reset?.command) {
      const failed = await reset(ctx, options.reset, options.observe);
      if (failed) {
        unfinished = `the reset hook failed before stage ${stage.name}: ${failed}`;
        results.push(failedCheck(stage.name, 'reset before the stage', 'the reset hook to succeed', failed));
        break;
      }
      ctx.stateKnown = true;
      overTime?.reset(); // the examples' state again: what the rules over time remember is no longer so
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
      stageResults = [...ctx.stage.checks];
      if (!(error instanceof Bailed))
        stageResults.push(failedCheck(stage.name, 'stage ran to the end', 'every check of the stage to run', reason));
    }
    stageMs[stage.name] = performance.now() - start;
    const failed = stageResults.filter((r) => !r.ok).length;
    const unjudged = stageResults.filter((r) => r.skipped).length;
    const decisions = stageResults.filter((r) => r.kind === 'decision').length;
    // One line per stage, once it ran (--list describes each): the stage table of the summary.
    ctx.log(
      `stage ${stage.name}: ${stageResults.length - failed - unjudged} passed, ${failed} failed${unjudged ? `, ${unjudged} not judged (429)` : ''} in ${(stageMs[stage.name]! / 1000).toFixed(1)} s${decisions ? ` (${decisions} of the checks decisions)` : ''}`,
    );
    results.push(...stageResults);
    // A stage stopped early (the server stopped answering) has failed a check too.
    if (ctx.bail && failed > 0) {
      bailedAt = stage.name;
      break;
    }
  }
  // Every text of the report: a fault quotes the answer, which may echo a credential.
  const redacted = redactAll(results, redact);
  const limits = ctx.throttle.counts;
  return report(ctx.profile, redacted, {
    ...(limits.rate !== undefined || limits.answers > 0 ? { rateLimit: { ...limits } } : {}),
    stageMs,
    coverage: coverage(redacted, selected, ctx),
    finished: unfinished === undefined,
    ...(unfinished === undefined ? {} : { unfinished: redact(unfinished) }),
    ...(rejected.length > 0 ? { rejectedCredentials: rejected } : {}),
    ...(misdirected ? { misdirected: redact(misdirected) } : {}),
    ...(bailedAt ? { bailedAt } : {}),
  });
}

export interface ConformanceOptions extends Credentials {
  /** Base URL of the implementation, e.g. https://staging.example.org. */
  server: string;
  /** Deployment values for the examples' values, keyed by their JSON form (see the README). */
  values?: Record<string, unknown>;
  /** Stage names to run (default: all) and to leave out. */
  only?: string[];
  skip?: string[];
  /** Seed of the generated requests and of the order of the bad inputs (default 1): the same seed repeats a run. */
  seed?: number;
  /** Generated requests per operation in the generated stage (default 25). */
  generated?: number;
  /**
   * Check the service's own status callbacks (adds the stage `callbacks`): a receiver listens at `host:port` (the
   * service posts there, or to `publicUrl`) for `windowMs` after the suite schedules the success examples.
   */
  callbacks?: CallbackOptions;
  /** Against a mock: ask for each example by name with `Prefer`. */
  mock?: boolean;
  /** Stop at the first failed check (default false): a quick answer to "is anything wrong?", not the whole list. */
  bail?: boolean;
  /** `described` (default): only what the service's description states. `strict`: this contract's decisions too. */
  profile?: Profile;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
  /** Longest wait for one answer, body included (default 10 s). */
  timeoutMs?: number;
  /** Longest time for the whole run (default 5 min); past it the run stops, unfinished and not passed. */
  deadlineMs?: number;
  /**
   * Requests a second the run keeps to, every request of every stage (default: none, as fast as answers come). A 429
   * is waited out (Retry-After, else a back-off) and sent again whatever the rate; this keeps a run below the limit.
   */
  rate?: number;
  /**
   * POSTed before each stage to put the service back in the examples' state (the sandbox's is `<url>/_sandbox/reset`).
   * Without a reset hook every check holds whatever state it finds; those needing the examples' say so in the coverage.
   */
  resetUrl?: string;
  /** A shell command run before each stage, for the same purpose; it must exit 0. */
  resetCommand?: string;
  /** Write every exchange the run sends, credentials as ***, to this file: NDJSON, or HAR for a `.har` name. */
  record?: string;
}

const rateExpected = 'must be a number of requests a second above 0';

/** An option of runConformance that is not what it must be: which, what it must be, and what it was. */
export class OptionError extends TypeError {
  constructor(
    readonly option: keyof ConformanceOptions,
    readonly expected: string,
    readonly value: unknown,
  ) {
    super(
      `runConformance: ${option} ${expected}, got ${typeof value === 'bigint' ? `${value}n` : JSON.stringify(value)}`,
    );
  }
}

/** The names and descriptions of the stages, in the order they run; `callbacks` runs only with the callbacks option. */
export const conformanceStages: Array<{ name: string; description: string; needsCallbacks?: true }> = [
  ...stages.map(({ name, description }) => ({ name, description })),
  { name: callbacksStage.name, description: callbacksStage.description, needsCallbacks: true },
];

/** Runs the stages: rejects with UnreachableError when the server does not answer, an Error naming an unknown stage. */
export async function runConformance(options: ConformanceOptions): Promise<SuiteReport> {
  // The one place the options are checked: the command line passes its flags here and names them in the error.
  if (!isHttpUrl(options?.server)) throw new OptionError('server', 'must be an http(s) URL', options?.server);
  const { apiKey, apiKeyNoBalance, integratorToken, resetUrl, resetCommand, only, skip, ...rest } = options;
  if (!apiKey || !integratorToken) throw new TypeError('runConformance: apiKey and integratorToken are required');
  if (resetUrl !== undefined && !isHttpUrl(resetUrl))
    throw new OptionError('resetUrl', 'must be an http(s) URL', resetUrl);
  if (resetCommand !== undefined && (typeof resetCommand !== 'string' || resetCommand.trim() === ''))
    throw new OptionError('resetCommand', 'must be a command line', resetCommand);
  for (const key of ['timeoutMs', 'deadlineMs'] as const)
    if (options[key] !== undefined && !(Number.isFinite(options[key]) && options[key] > 0))
      throw new OptionError(key, 'must be a number of milliseconds above 0', options[key]);
  // `rate` is checked where every run's options are made (suiteContext), before any request.
  const credentials = { apiKey, apiKeyNoBalance, integratorToken };
  const reset = { url: resetUrl, command: resetCommand };
  return runSuite({ ...rest, credentials, reset }, selectStages(only, skip, options.callbacks !== undefined));
}
