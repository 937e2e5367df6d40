// @messaging-contract/conformance: checks a live implementation of the messaging service against
// the contract, for a service team's CI.
import type { CallbackOptions, Profile } from './suite/context.ts';
import { callbacksStage } from './stages/callbacks.ts';
import { runSuite, selectStages, stages } from './suite/suite.ts';
import type { SuiteReport } from './suite/context.ts';
import { isHttpUrl } from '../core/http-url.ts';
import type { Credentials } from './ground/model.ts';

export type { CheckResult } from './suite/context.ts';
export type { SuiteReport as ConformanceReport } from './suite/context.ts';
export { UnreachableError } from './suite/run-checks.ts';
export { json as formatJson, junit as formatJUnit, summary as formatSummary } from './report.ts';
export type { CallbackOptions, Profile } from './suite/context.ts';
export { loadVars, VarsError, type Vars } from './suite/vars.ts';
export { checkWebhookReceiver, type WebhookOptions } from './stages/webhook.ts';
export { judgeTraffic, trafficSummary as formatTrafficSummary } from './traffic/run.ts';
export { startProxy, type ProxyOptions, type RunningProxy } from './traffic/proxy.ts';
export type { Judged, TrafficJudgement, TrafficOptions, TrafficReport } from './traffic/judge.ts';
export type { RecordedAnswer, RecordedExchange } from './traffic/exchange.ts';

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
   * Check the service's own status callbacks (adds the stage `callbacks`): a receiver listens at
   * `host:port` (the service posts there, or to `publicUrl`) for `windowMs` after the suite
   * schedules the success examples.
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
   * POSTed before each stage, to put the service back in the state the examples describe (the
   * sandbox's is `<url>/_sandbox/reset`). Without a reset hook every check holds whatever state the
   * service starts from; the few that need the examples' state say so in the coverage.
   */
  resetUrl?: string;
  /** A shell command run before each stage, for the same purpose; it must exit 0. */
  resetCommand?: string;
  /** Write every exchange the run sends, credentials as ***, to this file: NDJSON, or HAR for a `.har` name. */
  record?: string;
}

/** An option of runConformance that is not what it must be: which, what it must be, and what it was. */
export class OptionError extends TypeError {
  constructor(
    readonly option: keyof ConformanceOptions,
    readonly expected: string,
    readonly value: unknown,
  ) {
    super(`runConformance: ${option} ${expected}, got ${JSON.stringify(value)}`);
  }
}

/** The names and descriptions of the stages, in the order they run; `callbacks` runs only with the callbacks option. */
export const conformanceStages: Array<{ name: string; description: string; needsCallbacks?: true }> = [
  ...stages.map(({ name, description }) => ({ name, description })),
  { name: callbacksStage.name, description: callbacksStage.description, needsCallbacks: true },
];

/**
 * Runs the selected stages and resolves with every check. Rejects with UnreachableError when the
 * server does not answer, and with an Error naming the stage for an unknown stage name.
 */
export async function runConformance(options: ConformanceOptions): Promise<SuiteReport> {
  // The one place the options are checked: the command line passes its flags here and names them in the error.
  const wrong = (option: keyof ConformanceOptions, expected: string, value: unknown) =>
    new OptionError(option, expected, value);
  if (!isHttpUrl(options?.server)) throw wrong('server', 'must be an http(s) URL', options?.server);
  const { apiKey, apiKeyNoBalance, integratorToken, resetUrl, resetCommand } = options;
  if (!apiKey || !integratorToken) throw new TypeError('runConformance: apiKey and integratorToken are required');
  if (resetUrl !== undefined && !isHttpUrl(resetUrl)) throw wrong('resetUrl', 'must be an http(s) URL', resetUrl);
  if (resetCommand !== undefined && (typeof resetCommand !== 'string' || resetCommand.trim() === ''))
    throw wrong('resetCommand', 'must be a command line', resetCommand);
  for (const key of ['timeoutMs', 'deadlineMs'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isFinite(value) && value > 0))
      throw wrong(key, 'must be a number of milliseconds above 0', value);
  }
  return runSuite(
    {
      server: options.server,
      credentials: { apiKey, apiKeyNoBalance, integratorToken },
      values: options.values ?? {},
      seed: options.seed ?? 1,
      generated: options.generated,
      callbacks: options.callbacks,
      mock: options.mock ?? false,
      bail: options.bail === true,
      profile: options.profile,
      log: options.log ?? (() => {}),
      timeoutMs: options.timeoutMs,
      deadlineMs: options.deadlineMs,
      reset: { url: resetUrl, command: resetCommand },
      ...(options.record === undefined ? {} : { record: options.record }),
    },
    selectStages(options.only, options.skip, options.callbacks !== undefined),
  );
}
