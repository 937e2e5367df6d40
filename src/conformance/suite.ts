// Runs the selected stages against a server and collects every check.
import { exec } from 'node:child_process';
import { promisify } from 'node:util';
import { normalizeErrorCode } from '../core/error-codes.ts';
import { examplePairs, documentOperations, type ExamplePair } from '../core/examples.ts';
import { probeExamples } from './policy.ts';
import { badInputStage } from './stages/bad-input.ts';
import { boundariesStage } from './stages/boundaries.ts';
import { callbacksStage } from './stages/callbacks.ts';
import { defaultGenerated, generatedStage } from './stages/generated.ts';
import { dreddStage } from './stages/dredd.ts';
import { examplesStage } from './stages/examples.ts';
import { statefulStage } from './stages/stateful.ts';
import {
  Bailed,
  deadlinePassed,
  defaultDeadlineMs,
  defaultTimeoutMs,
  requestSignal,
  RunOver,
  send,
  StageStopped,
  type CheckResult,
  type Coverage,
  type Profile,
  type Stage,
  type SuiteContext,
} from './stage-runtime.ts';
import { documentedStatuses } from './expectations.ts';
import { missingFixtures, preparedRequest } from './vars.ts';
import { exchange, type Answer } from './transport.ts';
import { sequenceRun } from './sequence-checks.ts';
import { recorder, redactExchange } from './traffic/write.ts';

export const stages: Stage[] = [
  dreddStage,
  examplesStage,
  statefulStage,
  boundariesStage,
  generatedStage,
  badInputStage,
];

export class UnreachableError extends Error {}

export interface SuiteReport {
  /** Which checks ran: `described` only, or `strict` (the contract's decisions too). */
  profile: Profile;
  results: CheckResult[];
  stageMs: Record<string, number>;
  /** Per operation, what of the document the run exercised (absent for the webhook check). */
  coverage?: CoverageRow[];
  /** False when the run could not finish (its deadline passed); `unfinished` says why. */
  finished: boolean;
  unfinished?: string;
  /** The credentials answered 401 on requests that are otherwise right: the run stopped before any stage. */
  rejectedCredentials?: CredentialName[];
  /** Why the run stopped before any stage: the probes' answers are not the service's (all 404, none JSON). */
  misdirected?: string;
  /** True only when the run finished and every check of every selected stage ran and passed. */
  ok: boolean;
  /** The stage whose failed check stopped the run (--bail): the stages after it did not run. */
  bailedAt?: string;
}

/** The report of a run that could not start or go on, with the reason: the reports say why on every exit. */
export function failedRun(reason: string, profile: Profile = 'described'): SuiteReport {
  return {
    profile,
    results: [failedCheck('run', 'the run could not finish', 'the run to finish', reason)],
    stageMs: {},
    finished: false,
    unfinished: reason,
    ok: false,
  };
}

/** A failed check about the run itself: it could not finish, a stage stopped, a reset failed. */
function failedCheck(stage: string, name: string, expected: string, actual: string, answer?: string): CheckResult {
  return { stage, name, kind: 'described', ok: false, ms: 0, expected, actual, ...(answer ? { answer } : {}) };
}

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

/**
 * Runs the reset hook; resolves with why it failed, or undefined. A reset may take longer than an answer: up to 30 s,
 * within the run's deadline.
 */
async function reset(ctx: SuiteContext, hook: NonNullable<SuiteOptions['reset']>): Promise<string | undefined> {
  const ms = Math.max(ctx.timeoutMs, 30_000);
  if (hook.url) {
    // A reset URL may carry credentials (https://user:secret@host/reset), as curl takes them: they
    // are sent as Basic authentication, never in the URL, and never printed.
    const target = new URL(hook.url);
    const headers: Record<string, string> = {};
    if (target.username || target.password) {
      headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`).toString('base64')}`;
      [target.username, target.password] = ['', ''];
    }
    try {
      const res = await exchange({
        method: 'POST',
        url: String(target),
        headers,
        body: undefined,
        signal: requestSignal(ctx, ms),
      });
      if (res.status < 200 || res.status > 299)
        return `POST ${target} answered ${res.status} ${res.text.slice(0, 200)}`;
    } catch (error) {
      return `POST ${target} got no answer: ${(error as Error).message}`;
    }
  }
  if (hook.command) {
    const left = Math.max(1, Math.min(ms, ctx.deadlineAt - Date.now()));
    try {
      await promisify(exec)(hook.command, { timeout: left, maxBuffer: 1024 * 1024 });
    } catch (error) {
      const e = error as { code?: unknown; killed?: boolean; stderr?: string; message: string };
      const said = (e.stderr ?? '').trim().split('\n').slice(-3).join(' / ').slice(0, 300);
      return `${JSON.stringify(hook.command)} ${e.killed ? `did not end within ${left} ms` : `exited ${String(e.code ?? e.message)}`}${said ? `: ${said}` : ''}`;
    }
  }
  return undefined;
}

/**
 * The requests that tell whether each credential is accepted, and whether the service answers
 * where the run looks: each operation's example that changes nothing (`x-request: {probe: true}`),
 * with the credential its operation takes; the key without balance with the first that takes a key.
 */
export function probes(): Array<{ credential: CredentialName; pair: ExamplePair }> {
  const found = probeExamples().map((pair) => ({
    credential: (pair.operation.security.includes('apiKey') ? 'apiKey' : 'integratorToken') as CredentialName,
    pair,
  }));
  const withKey = found.find((p) => p.credential === 'apiKey');
  return withKey ? [...found, { credential: 'apiKeyNoBalance', pair: withKey.pair }] : found;
}

export type CredentialName = 'apiKey' | 'apiKeyNoBalance' | 'integratorToken';

/** What the probes found: the credentials the server answers 401 to on a request that is otherwise right, and every answer. */
async function probe(ctx: SuiteContext): Promise<{ rejected: CredentialName[]; answers: Answer[] }> {
  const { credentials } = ctx;
  const answers = await Promise.all(
    probes().map(async ({ credential, pair }) => {
      const value = credentials[credential];
      if (!value) return undefined;
      const apiKey = credential === 'apiKeyNoBalance' ? value : credentials.apiKey;
      const { request } = preparedRequest({ ...ctx, credentials: { ...credentials, apiKey } }, pair);
      const { answer } = await send(ctx, request);
      return answer ? { credential, answer } : undefined;
    }),
  );
  const got = answers.filter((a) => a !== undefined);
  return {
    rejected: [...new Set(got.filter((a) => a.answer.status === 401).map((a) => a.credential))],
    answers: got.map((a) => a.answer),
  };
}

/**
 * Why the probes' answers say the run is not looking at the service (all 404: a base path left out of
 * --server; none JSON: a proxy's or a sign-in page), or undefined. Hundreds of checks would say so again.
 */
function misdirection(ctx: SuiteContext, answers: Answer[]): string | undefined {
  if (answers.length === 0) return undefined;
  if (answers.every((a) => a.status === 404))
    return `every operation answered 404 at ${ctx.server}: the server's base path is likely missing or wrong (--server is the URL the document's paths, such as ${documentOperations()[0]!.path}, start from)`;
  if (answers.every((a) => !/^application\/json/i.test(a.contentType)))
    return `no answer at ${ctx.server} was JSON (the first: ${answers[0]!.status} ${JSON.stringify(answers[0]!.contentType)} ${JSON.stringify(answers[0]!.text.slice(0, 60))}): something other than the service answers, such as a proxy's or a sign-in page`;
  return undefined;
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

/**
 * Replaces every secret in `text` with `***`; longer secrets first, so one inside another goes whole. Values under 4
 * characters are not secrets anyone could keep: replacing them would only garble the text.
 */
export function redactor(secrets: Array<string | undefined>): (text: string) => string {
  const list = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4))].sort(
    (a, b) => b.length - a.length,
  );
  return (text) => list.reduce((t, secret) => t.split(secret).join('***'), text);
}

/** `value` with `redact` applied to every string in it. */
function redactAll<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactAll(v, redact)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactAll(v, redact)])) as T;
}

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
  try {
    // Any answer will do: its status line is enough (the body of a server's root may be a large page).
    await exchange({
      method: 'GET',
      url: ctx.server,
      headers: {},
      body: undefined,
      signal: requestSignal(ctx),
      statusOnly: true,
    });
  } catch (error) {
    throw new UnreachableError(redact(`the server ${ctx.server} does not answer: ${(error as Error).message}`));
  }
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

/** Per operation: how much of what the document states for it this run exercised. */
/** Of the `of` items the document states, how many a check reached (`covered`), and of those how many no check failed. */
export interface Covered {
  covered: number;
  /** Absent in a report of 1.1.0 and before, which counted no passes: read it as `covered`. */
  passed?: number;
  of: number;
}

export interface CoverageRow {
  operationId: string;
  statuses: Covered;
  codes: Covered;
  examples: Covered;
  /** Distinct schema limits reached; checks that met one (`at`) or passed it by one (`past`); requests generated. */
  breadth: { limits: number; at: number; past: number; generated: number };
  /** What no check reached, and why. */
  missed: Array<{ what: string; why: string }>;
  /** What a check held only loosely because no reset hook made the starting state known. */
  needsReset?: Array<{ what: string; why: string }>;
}

/** The coverage scorecard of a run: the document's statuses, error codes and named examples per operation. */
export function coverage(
  results: CheckResult[],
  selected: Stage[],
  profile: Profile,
  values: Record<string, unknown> = {},
): CoverageRow[] {
  const ran = new Set(selected.map((s) => s.name));
  const title = (p: ExamplePair) => (p.response as { title?: unknown } | undefined)?.title;
  return documentOperations().map((op) => {
    const pairs = examplePairs().filter((p) => p.operation.operationId === op.operationId);
    const mine = results.flatMap((r) => (r.covers?.operationId === op.operationId ? [r.covers] : []));
    const failing = results.flatMap((r) => (!r.ok && r.covers?.operationId === op.operationId ? [r.covers] : []));
    const missed: CoverageRow['missed'] = [];
    /** How many of `items` a check reached; each other is missed, with why the pairs behind it ran no check. */
    const tally = (items: Array<{ what: string; reached: (c: Coverage) => boolean; behind: ExamplePair[] }>) => {
      const missing = items.filter((item) => !mine.some((c) => item.reached(c)));
      for (const { what, behind } of missing) {
        const decided = behind.length > 0 && behind.every((p) => p.kind === 'decision');
        const lacking = behind.map((p) => missingFixtures(p, values));
        const why =
          !ran.has('examples') && !ran.has('dredd')
            ? 'the examples and dredd stages were not selected'
            : profile === 'described' && decided
              ? 'a decision of this contract: --profile strict runs it'
              : behind.length > 0 && lacking.every((l) => l.length > 0)
                ? `the deployment lacks a fixture: ${[...new Set(lacking.flat())].join(', ')} in --vars would exercise it`
                : 'no check reached it';
        missed.push({ what, why });
      }
      // Passed: reached, and no check that reached it failed.
      const passed = items.filter((item) => !missing.includes(item) && !failing.some((c) => item.reached(c))).length;
      return { covered: items.length - missing.length, passed, of: items.length };
    };
    const codes = [...new Set(pairs.map(title).filter((t): t is string => typeof t === 'string'))];
    const loose = mine.flatMap((c) =>
      c.needsReset ? [{ what: `example ${c.status} ${c.example}`, why: c.needsReset }] : [],
    );
    return {
      operationId: op.operationId,
      statuses: tally(
        documentedStatuses(op).map((s) => ({
          what: `status ${s}`,
          reached: (c) => c.status === s,
          behind: pairs.filter((p) => p.status === s),
        })),
      ),
      codes: tally(
        codes.map((code) => ({
          what: `code ${code}`,
          reached: (c) => c.code !== undefined && normalizeErrorCode(c.code) === normalizeErrorCode(code),
          behind: pairs.filter((p) => title(p) === code),
        })),
      ),
      examples: tally(
        pairs.map((p) => ({
          what: `example ${p.status} ${p.name}`,
          reached: (c) => c.example === p.name && c.status === p.status,
          behind: [p],
        })),
      ),
      breadth: {
        limits: new Set(mine.map((c) => c.limit).filter(Boolean)).size,
        at: mine.filter((c) => c.side === 'at').length,
        past: mine.filter((c) => c.side === 'past').length,
        generated: mine.reduce((n, c) => n + (c.generated ?? 0), 0),
      },
      missed,
      ...(loose.length ? { needsReset: loose } : {}),
    };
  });
}
