// Stage dredd: Dredd over the bundled document, in this process, one transaction per path, method
// and documented status. The hooks below send each transaction as planned here (credentials, fresh
// identifiers, the request that triggers each non-2xx status) and record its answer; the stage
// judges every body against its schema. Every transaction Dredd runs must be planned and every
// planned one must run.
import { EventEmitter } from 'node:events';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { createRequire } from 'node:module';
import { assetPath } from '../../core/assets.ts';
import { openapi, resolvePointer } from '../../core/document.ts';
import { examplePairs, documentOperations, type ExamplePair, type ExpectationKind } from '../../core/examples.ts';
import { validator } from '../../core/validators/all.ts';
import { answerOf, deadlinePassed, describeRequest, failFastAfter, replay, runs, StageStopped, type CheckResult, type Stage, type SuiteContext } from '../stage-runtime.ts';
import { examplePointer, pairExpectation } from '../expectations.ts';
import { contentTypeProblems, pairRequest, titleProblems, type PairRequest } from '../pairs.ts';
import { prepare } from '../vars.ts';

interface Step {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The request to send, made at each send: fresh identifiers every time. */
  request(): PairRequest;
  status: number;
  title?: string;
  schemaPointer: string;
  example: string;
  /** Where the example is in the document. */
  basis: string;
  kind: ExpectationKind;
  operationId: string;
  skip: boolean;
}

/** The example whose request Dredd's transaction for `status` sends: one that needs no state. */
function exampleFor(pairs: ExamplePair[], status: number): ExamplePair | undefined {
  const candidates = pairs.filter((p) => p.status === status);
  if (status !== 400) return candidates[0];
  // A 400 whose trigger breaks the schema answers the same on any deployment; Dredd expects one
  // status, so the trigger must be one the description allows no other answer for.
  return (
    candidates.find((p) => p.trigger.body !== undefined && !validator(p.operation.requestSchemaPointer!)(p.trigger.body).valid && pairExpectation(p, 'described').allowed.length === 1) ??
    candidates[0]
  );
}

export function dreddPlan(ctx: SuiteContext): Record<string, Step> {
  const transactions: Record<string, Step> = {};
  for (const op of documentOperations()) {
    const summary = (resolvePointer(op.pointer) as { summary: string }).summary;
    const pairs = examplePairs().filter((p) => p.operation.operationId === op.operationId);
    const statuses = Object.keys((resolvePointer(op.pointer) as { responses: object }).responses).map(Number);
    for (const status of statuses) {
      const pair = exampleFor(pairs, status);
      if (!pair) continue;
      const request = () => pairRequest(ctx.server, pair, ctx.credentials, () => prepare(pair, ctx.values).body);
      const { method, url, headers } = request();
      const title = (pair.response as { title?: string }).title;
      transactions[`${op.path} > ${summary} > ${status} > application/json`] = {
        method,
        path: url.slice(ctx.server.length),
        headers,
        request,
        status,
        title,
        schemaPointer: pair.responseSchemaPointer,
        example: pair.name,
        basis: examplePointer(pair),
        kind: pair.kind,
        operationId: op.operationId,
        // Out of the profile: Dredd skips it, and it is no check of this run.
        skip: !runs(ctx, pair.kind),
      };
    }
  }
  return transactions;
}

export const dreddStage: Stage = {
  name: 'dredd',
  description: 'Dredd over the bundled document, every transaction planned, every body checked against its schema',
  // A check per transaction in the profile, and Dredd's own verdict.
  count: (ctx) => Object.values(dreddPlan(ctx)).filter((step) => !step.skip).length + 1,
  run: (ctx: SuiteContext) => runDredd(ctx, dreddPlan(ctx)),
};

/** What the hooks saw of one transaction's answer. */
interface Answer {
  status: number;
  contentType: string;
  body: string | null;
}

/** A body as JSON, or undefined. */
function parsed(text: string | null): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
}

/** One transaction's answer, judged here: status, content type, body against its schema, title. */
function judge(step: Step, real: Answer): string[] {
  const problems: string[] = [];
  problems.push(...contentTypeProblems(real.contentType));
  const body = parsed(real.body);
  if (body === undefined) problems.push(`body is not JSON: ${String(real.body).slice(0, 120)}`);
  else {
    problems.push(...validator(step.schemaPointer)(body).errors, ...titleProblems(body, step.title));
  }
  if (real.status !== step.status) problems.push(`status ${real.status}, expected ${step.status}`);
  return problems;
}

/** Dredd's hooks object: handlers run in series, each calling `done` when it is through. */
interface DreddHooks {
  beforeEach(hook: (transaction: Transaction, done: () => void) => void): void;
  beforeEachValidation(hook: (transaction: Transaction, done: () => void) => void): void;
  afterEach(hook: (transaction: Transaction, done: () => void) => void): void;
}

interface Transaction {
  id: string;
  name: string;
  skip: boolean;
  fail?: string;
  fullPath: string;
  request: { method: string; uri: string; headers: Record<string, string>; body: string };
  expected: { statusCode: string; headers?: unknown; body?: unknown; bodySchema?: unknown };
  real?: { statusCode: number; headers: Record<string, string>; body?: string };
}

interface ApiDescription {
  location: string;
  mediaType: string;
  annotations: object[];
  transactions: object[];
}
type Prepared = (error: Error | null, descriptions?: ApiDescription[]) => void;
type DreddClass = new (config: object) => {
  run(callback: (error: Error | null, stats: { failures: number; errors: number }) => void): void;
  prepareAPIdescriptions(callback: Prepared): void;
};

/**
 * Dredd compiles the document into transactions at every run, a quarter of a second each time.
 * The document is fixed, so it is compiled once per process; each run gets its own copy of the
 * transactions, which the hooks rewrite. The parsed document is left out: past compiling, Dredd
 * only copies it (for its hooks' view of the configuration), at a cost larger than the run's.
 */
let compiled: ApiDescription[] | undefined;
const copyOf = (descriptions: ApiDescription[]): ApiDescription[] =>
  descriptions.map(({ location, mediaType, annotations, transactions }) => ({ location, mediaType, annotations, transactions: structuredClone(transactions) }));
function compileOnce(runner: InstanceType<DreddClass>): void {
  const compile = runner.prepareAPIdescriptions.bind(runner);
  runner.prepareAPIdescriptions = (callback) => {
    if (compiled) {
      const copy = copyOf(compiled);
      process.nextTick(() => callback(null, copy));
      return;
    }
    compile((error, descriptions) => {
      if (error || !descriptions) return callback(error);
      compiled = copyOf(descriptions);
      callback(null, copyOf(compiled));
    });
  };
}

const hooksPath = assetPath(import.meta.url, { bundled: './dredd-hooks.cjs', source: '../dredd-hooks.cjs' });

interface DreddModules {
  Dredd: DreddClass;
  /** Dredd's reporters print each transaction to stdout, which would mix with the suite's own output (a JSON report, say). */
  reporterOutput: { silent: boolean };
}
let loaded: DreddModules | undefined;

/**
 * Dredd, loaded when a run first needs it. Loading it must not change the process it loads into:
 * its API Blueprint parser (drafter.js, compiled by Emscripten) adds an `unhandledRejection`
 * handler that exits with 1, which would end a user's program over a rejection it handles itself.
 * Process listeners added while loading are taken off again.
 */
function dreddModules(): DreddModules {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const before = new Map(process.eventNames().map((event) => [event, process.listeners(event as NodeJS.Signals)]));
  try {
    loaded = {
      Dredd: require('dredd') as DreddClass,
      reporterOutput: (require('dredd/build/reporters/reporterOutputLogger') as { default: { transports: { console: { silent: boolean } } } }).default.transports.console,
    };
  } finally {
    for (const event of process.eventNames()) {
      const kept = before.get(event) ?? [];
      for (const listener of process.listeners(event as NodeJS.Signals)) if (!kept.includes(listener)) process.removeListener(event, listener as () => void);
    }
  }
  loaded.reporterOutput.silent = runsUnderWay > 0;
  return loaded;
}

/**
 * Warnings that Dredd's dependencies make Node print, which say nothing to our users: winston 2
 * reads a module inside a circular require, and request calls util._extend (DEP0060, printed
 * from Node 22 on).
 */
function isDreddNoise(warning: string | Error, rest: unknown[]): boolean {
  const options = rest[0] !== null && typeof rest[0] === 'object' ? (rest[0] as { code?: unknown }) : undefined;
  const code = options ? options.code : rest[1] ?? (warning as { code?: unknown }).code;
  return code === 'DEP0060' || String(warning).includes('inside circular dependency');
}

let runsUnderWay = 0;
let emitWarning: typeof process.emitWarning | undefined;

/** While any Dredd run is under way (loading Dredd included), its reporters and its dependencies' warnings are quiet. */
function quiet(on: boolean): void {
  runsUnderWay += on ? 1 : -1;
  if (on && runsUnderWay === 1) {
    emitWarning = process.emitWarning;
    const emit = emitWarning;
    process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
      if (!isDreddNoise(warning, rest)) (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
    }) as typeof process.emitWarning;
  }
  if (!on && runsUnderWay === 0 && emitWarning) {
    process.emitWarning = emitWarning;
    emitWarning = undefined;
  }
  if (loaded) loaded.reporterOutput.silent = runsUnderWay > 0;
}

/** What Dredd's run gave: each planned transaction's answer or network error, and what it ran unplanned. */
interface DreddRecord {
  ran: Map<string, Answer | { error: string }>;
  /** The request each transaction sent, for its replay. */
  sent: Map<string, PairRequest>;
  unplanned: string[];
  hooksAttached: boolean;
  stopped?: string;
  verdict: string;
}

/** Runs Dredd with `plan`; a transaction missing from the plan fails, and so does a planned one that did not run. */
export async function runDredd(ctx: SuiteContext, plan: Record<string, Step>): Promise<CheckResult[]> {
  // An aborted signal never fires again: a run that starts past the deadline must stop here.
  if (deadlinePassed(ctx)) throw new StageStopped("the run's deadline passed before Dredd ran", true);
  const start = performance.now();
  const record = await dredd(ctx, plan);
  const ms = performance.now() - start;
  if (!record.hooksAttached) {
    if (record.stopped) throw new StageStopped(record.stopped, deadlinePassed(ctx));
    return [{ stage: 'dredd', name: 'dredd ran', kind: 'described', ok: false, ms, expected: 'Dredd to run the hooks', actual: record.verdict }];
  }
  // A stopped run keeps the checks of the transactions that ran, as a stopped stage does.
  const judged = Object.entries(plan).filter(([name, step]) => !step.skip && (!record.stopped || record.ran.has(name)));
  const checks: CheckResult[] = judged.map(([name, step]) => {
    const real = record.ran.get(name);
    const problems = !real ? ['Dredd did not run this transaction'] : 'error' in real ? [`no answer: ${real.error}`] : judge(step, real);
    const sent = record.sent.get(name);
    return {
      stage: 'dredd',
      name,
      kind: step.kind,
      basis: step.basis,
      covers: { operationId: step.operationId, status: step.status, ...(step.title ? { code: step.title } : {}) },
      ok: problems.length === 0,
      ms: ms / Object.keys(plan).length,
      ...(sent ? { request: `${describeRequest(sent)} (example ${step.example})`, replay: replay(ctx, sent) } : { request: `${step.method} ${step.path} (example ${step.example})` }),
      expected: `${step.status}${step.title ? ` ${step.title}` : ''}, body valid against its schema`,
      actual: problems.length ? problems.join('; ') : `${step.status}`,
      answer: !real || 'error' in real ? 'no answer' : answerOf(real.status, parsed(real.body)),
    };
  });
  if (record.stopped) {
    ctx.stage.checks.push(...checks);
    throw new StageStopped(record.stopped, deadlinePassed(ctx));
  }
  for (const name of record.unplanned) {
    checks.push({ stage: 'dredd', name, kind: 'described', basis: '#/paths', ok: false, ms: 0, expected: 'a planned handling', actual: 'Dredd ran a transaction the suite has no plan for' });
  }
  // Dredd's own verdict adds a check only where no transaction check above explains it (an error of
  // Dredd's, or its own checks failing where ours pass); a failed transaction is already a check of its kind.
  const passed = record.verdict === 'passed';
  const explained = /^failed/.test(record.verdict) && checks.some((c) => !c.ok);
  checks.push({ stage: 'dredd', name: 'dredd verdict', kind: 'described', basis: "#/paths (Dredd's own checks of every documented transaction)", ok: passed || explained, ms: 0, expected: 'passed, or failed for the failed transactions above', actual: record.verdict });
  return checks;
}

/**
 * One Dredd run in this process. Each request waits at most the run's timeout; past the deadline,
 * or once the first requests all went unanswered, the remaining transactions are skipped.
 */
function dredd(ctx: SuiteContext, plan: Record<string, Step>): Promise<DreddRecord> {
  const record: DreddRecord = { ran: new Map(), sent: new Map(), unplanned: [], hooksAttached: false, verdict: '' };
  const errors = new Map<string, string>();
  // Dredd's requests go through this agent, so that the suite can end one: a request gets the run's
  // timeout, body included, as in every other stage, and past the deadline none goes on.
  const agent = ctx.server.startsWith('https:') ? new HttpsAgent() : new HttpAgent();
  const endRequests = () => {
    for (const sockets of Object.values(agent.sockets)) for (const socket of sockets ?? []) socket.destroy();
  };
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const emitter = new EventEmitter();
  emitter.on('test error', (error: Error, test: { title?: string }) => {
    if (test.title) errors.set(test.title, error.message);
  });
  const attach = (hooks: DreddHooks) => {
    record.hooksAttached = true;
    hooks.beforeEach((transaction, done) => {
      const step = Object.hasOwn(plan, transaction.name) ? plan[transaction.name] : undefined;
      if (!step) {
        record.unplanned.push(transaction.name);
        transaction.fail = `no planned handling for "${transaction.name}"`;
        return done();
      }
      if (deadlinePassed(ctx)) record.stopped ??= "the run's deadline passed while Dredd ran";
      if (ctx.stage.answered === 0 && ctx.stage.networkFailures >= failFastAfter) {
        record.stopped ??= `the first ${ctx.stage.networkFailures} requests of the stage got no answer; the server is not answering`;
      }
      // Out of the profile, or the run is over: Dredd skips it and does not count it as a failure.
      // So is a second transaction of one name: Dredd compiles an operation's `default` response
      // as another "200", after the real one. `default` stands for any other status; no request
      // triggers it, and sending the 200's again would only replace the 200's answer.
      transaction.skip = step.skip || record.stopped !== undefined || record.ran.has(transaction.name);
      if (transaction.skip) return done();
      const sent = step.request();
      record.sent.set(transaction.name, sent);
      const { method, url, body, headers } = sent;
      const target = url.slice(new URL(url).origin.length); // the server's base path included
      transaction.request.method = method;
      transaction.fullPath = target;
      transaction.request.uri = target;
      transaction.request.headers = { ...headers, 'content-length': String(Buffer.byteLength(body ?? '')) };
      transaction.request.body = body ?? '';
      transaction.expected.statusCode = String(step.status);
      timedOut = false;
      timer = setTimeout(() => {
        timedOut = true;
        endRequests();
      }, ctx.timeoutMs);
      // The request keeps the process alive while it is under way; the timer alone must not (a run
      // the deadline ended can leave it behind when Dredd skips the transaction's afterEach).
      timer.unref();
      done();
    });
    hooks.beforeEachValidation((transaction, done) => {
      // The stage judges the answer (status, content type, the body against the real schema);
      // Dredd's own check is left with the status. Its validator predates JSON Schema 2020-12, and
      // it takes most of the run's time compiling a schema for each body and each header set.
      if (Object.hasOwn(plan, transaction.name)) {
        delete transaction.expected.body;
        delete transaction.expected.bodySchema;
        delete transaction.expected.headers;
      }
      done();
    });
    hooks.afterEach((transaction, done) => {
      clearTimeout(timer);
      if (Object.hasOwn(plan, transaction.name) && !transaction.skip) {
        const real = transaction.real;
        if (real) ctx.stage.answered++;
        else ctx.stage.networkFailures++;
        // (Node writes the names of received headers in lower case.)
        record.ran.set(transaction.name, real ? { status: Number(real.statusCode), contentType: real.headers['content-type'] ?? '', body: real.body === undefined ? null : String(real.body) } : { error: timedOut ? `no answer within ${ctx.timeoutMs} ms` : (errors.get(transaction.id) ?? 'the request failed') });
      }
      done();
    });
  };
  quiet(true);
  let runner: InstanceType<DreddClass>;
  try {
    runner = new (dreddModules().Dredd)({
      endpoint: ctx.server,
      // The document this package carries, handed over in memory.
      apiDescriptions: [{ location: 'openapi.json', content: JSON.stringify(openapi) }],
      hookfiles: [hooksPath],
      language: 'nodejs',
      loglevel: 'silent',
      reporter: [],
      emitter,
      http: { agent },
      custom: { cwd: process.cwd(), messagingConformance: { attach } },
    });
  } catch (error) {
    quiet(false);
    agent.destroy();
    throw error;
  }
  compileOnce(runner);
  return new Promise<DreddRecord>((resolve) => {
    const onDeadline = () => {
      record.stopped ??= "the run's deadline passed while Dredd ran";
      endRequests(); // the request under way fails now; the hooks skip the rest
      resolve(record);
    };
    ctx.deadline.addEventListener('abort', onDeadline, { once: true });
    let ran = false;
    runner.run((error, stats) => {
      if (ran) return; // once only: Dredd's own comments warn that an error in a hook can run its flow twice
      ran = true;
      clearTimeout(timer);
      ctx.deadline.removeEventListener('abort', onDeadline);
      agent.destroy();
      quiet(false);
      record.verdict = error ? `Dredd stopped: ${error.message}` : stats.failures + stats.errors > 0 ? `failed: ${stats.failures} failures, ${stats.errors} errors` : 'passed';
      resolve(record);
    });
  });
}
