// Stage dredd: Dredd over the bundled document, in this process, one transaction per path, method
// and documented status. The hooks below send each transaction as planned (dredd/plan.ts) and
// record its answer; the stage judges every answer (dredd/judge.ts). Every transaction Dredd runs
// must be planned and every planned one must run. Dredd itself is run by dredd/adapter.ts.
import { EventEmitter } from 'node:events';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Socket } from 'node:net';
import { createDredd, type DreddHooks } from '../dredd/adapter.ts';
import { judgeTransaction, parsed, type RecordedAnswer } from '../dredd/judge.ts';
import type { Fault } from '../case.ts';
import { dreddPlan, type Step } from '../dredd/plan.ts';
import type { PairRequest } from '../pairs.ts';
import { AnswerTooLarge, clientHeaders, maxAnswerBytes } from '../transport.ts';
import {
  answerOf,
  deadlinePassed,
  describeRequest,
  failFastAfter,
  replay,
  StageStopped,
  type CheckResult,
  type Stage,
  type SuiteContext,
} from '../stage-runtime.ts';

export { dreddPlan } from '../dredd/plan.ts';

export const dreddStage: Stage = {
  name: 'dredd',
  description: 'Dredd over the bundled document, every transaction planned, every body checked against its schema',
  // A check per transaction in the profile, and Dredd's own verdict.
  count: (ctx) => Object.values(dreddPlan(ctx)).filter((step) => !step.skip).length + 1,
  run: (ctx: SuiteContext) => runDredd(ctx, dreddPlan(ctx)),
};

/** What Dredd's run gave: each planned transaction's answer or network error, and what it ran unplanned. */
interface DreddRecord {
  ran: Map<string, RecordedAnswer | { error: string }>;
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
    return [
      {
        stage: 'dredd',
        name: 'dredd ran',
        kind: 'described',
        ok: false,
        ms,
        expected: 'Dredd to run the hooks',
        actual: record.verdict,
      },
    ];
  }
  // A stopped run keeps the checks of the transactions that ran, as a stopped stage does.
  const judged = Object.entries(plan).filter(([name, step]) => !step.skip && (!record.stopped || record.ran.has(name)));
  const checks: CheckResult[] = judged.map(([name, step]) => {
    const real = record.ran.get(name);
    const sent = record.sent.get(name);
    const faults: Fault[] = !real
      ? [
          {
            check: 'dredd',
            fault: 'Dredd did not run a planned transaction',
            detail: 'Dredd did not run this transaction',
          },
        ]
      : 'error' in real
        ? [
            {
              check: 'network',
              fault: `no answer: ${real.error.replace(/\d+ ms/, 'the timeout')}`,
              detail: `no answer: ${real.error}`,
            },
          ]
        : judgeTransaction(step, sent!, real);
    return {
      stage: 'dredd',
      name,
      kind: step.kind,
      basis: step.basis,
      covers: {
        operationId: step.operation.operationId,
        status: step.status,
        ...(step.title ? { code: step.title } : {}),
      },
      ok: faults.length === 0,
      ms: ms / Object.keys(plan).length,
      ...(sent
        ? { request: `${describeRequest(sent)} (example ${step.example})`, replay: replay(ctx, sent) }
        : { request: `${step.method} ${step.path} (example ${step.example})` }),
      expected: `${step.status}${step.title ? ` ${step.title}` : ''}, body valid against its schema`,
      actual: faults.length ? faults.map((f) => f.detail).join('; ') : `${step.status}`,
      answer: !real || 'error' in real ? 'no answer' : answerOf(real.status, parsed(real.body)),
      ...(faults.length ? { faults } : {}),
    };
  });
  if (record.stopped) {
    ctx.stage.checks.push(...checks);
    throw new StageStopped(record.stopped, deadlinePassed(ctx));
  }
  for (const name of record.unplanned) {
    checks.push({
      stage: 'dredd',
      name,
      kind: 'described',
      basis: '#/paths',
      ok: false,
      ms: 0,
      expected: 'a planned handling',
      actual: 'Dredd ran a transaction the suite has no plan for',
    });
  }
  // Dredd's own verdict adds a check only where no transaction check above explains it (an error of
  // Dredd's, or its own checks failing where ours pass); a failed transaction is already a check of its kind.
  const passed = record.verdict === 'passed';
  const explained = /^failed/.test(record.verdict) && checks.some((c) => !c.ok);
  checks.push({
    stage: 'dredd',
    name: 'dredd verdict',
    kind: 'described',
    basis: "#/paths (Dredd's own checks of every documented transaction)",
    ok: passed || explained,
    ms: 0,
    expected: 'passed, or failed for the failed transactions above',
    actual: record.verdict,
  });
  return checks;
}

/**
 * Dredd's requests go through one agent, so that the suite can end them: each gets the run's
 * timeout, body included, as in every other stage, and past the deadline none goes on. The agent
 * keeps no connection alive, so each request has a connection of its own, and one that brings more
 * than an answer may hold (maxAnswerBytes) is cut: Dredd's client reads any answer whole.
 */
class Requests {
  readonly agent: HttpAgent | HttpsAgent;
  private timer: NodeJS.Timeout | undefined;
  timedOut = false;
  tooLarge = false;

  constructor(
    server: string,
    private readonly timeoutMs: number,
  ) {
    this.agent = server.startsWith('https:')
      ? new HttpsAgent({ keepAlive: false })
      : new HttpAgent({ keepAlive: false });
    const connect = this.agent.createConnection.bind(this.agent) as (...args: unknown[]) => Socket;
    (this.agent as { createConnection: unknown }).createConnection = (...args: unknown[]) => {
      const socket = connect(...args);
      let size = 0;
      socket.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= maxAnswerBytes) return;
        this.tooLarge = true;
        socket.destroy();
      });
      return socket;
    };
  }

  /** Ends every request under way: it fails now. */
  end(): void {
    for (const sockets of Object.values(this.agent.sockets)) for (const socket of sockets ?? []) socket.destroy();
  }

  /** A request starts: it is ended at the timeout. */
  started(): void {
    this.timedOut = false;
    this.tooLarge = false;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.end();
    }, this.timeoutMs);
    // The request keeps the process alive while it is under way; the timer alone must not (a run
    // the deadline ended can leave it behind when Dredd skips the transaction's afterEach).
    this.timer.unref();
  }

  finished(): void {
    clearTimeout(this.timer);
  }
}

/** The hooks: each planned transaction sends its planned request and records its answer; an unplanned one fails. */
function planHooks(
  ctx: SuiteContext,
  plan: Record<string, Step>,
  record: DreddRecord,
  requests: Requests,
  errors: Map<string, string>,
) {
  return (hooks: DreddHooks) => {
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
      transaction.request.headers = {
        ...clientHeaders,
        ...headers,
        'content-length': String(Buffer.byteLength(body ?? '')),
      };
      transaction.request.body = body ?? '';
      transaction.expected.statusCode = String(step.status);
      requests.started();
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
      requests.finished();
      if (Object.hasOwn(plan, transaction.name) && !transaction.skip) {
        const real = transaction.real;
        // An answer past the limit began: the server answers.
        if (real || requests.tooLarge) ctx.stage.answered++;
        else ctx.stage.networkFailures++;
        const noAnswer = requests.tooLarge
          ? new AnswerTooLarge().message
          : requests.timedOut
            ? `no answer within ${ctx.timeoutMs} ms`
            : (errors.get(transaction.id) ?? 'the request failed');
        // (Node writes the names of received headers in lower case.)
        record.ran.set(
          transaction.name,
          real
            ? {
                status: Number(real.statusCode),
                contentType: real.headers['content-type'] ?? '',
                body: real.body === undefined ? null : String(real.body),
              }
            : { error: noAnswer },
        );
      }
      done();
    });
  };
}

/**
 * One Dredd run in this process. Each request waits at most the run's timeout; past the deadline,
 * or once the first requests all went unanswered, the remaining transactions are skipped.
 */
function dredd(ctx: SuiteContext, plan: Record<string, Step>): Promise<DreddRecord> {
  const record: DreddRecord = { ran: new Map(), sent: new Map(), unplanned: [], hooksAttached: false, verdict: '' };
  const errors = new Map<string, string>();
  const requests = new Requests(ctx.server, ctx.timeoutMs);
  const emitter = new EventEmitter();
  emitter.on('test error', (error: Error, test: { title?: string }) => {
    if (test.title) errors.set(test.title, error.message);
  });
  let runner: ReturnType<typeof createDredd>;
  try {
    runner = createDredd({
      endpoint: ctx.server,
      agent: requests.agent,
      emitter,
      attach: planHooks(ctx, plan, record, requests, errors),
    });
  } catch (error) {
    requests.agent.destroy();
    throw error;
  }
  return new Promise<DreddRecord>((resolve) => {
    const onDeadline = () => {
      record.stopped ??= "the run's deadline passed while Dredd ran";
      requests.end(); // the request under way fails now; the hooks skip the rest
      resolve(record);
    };
    ctx.deadline.addEventListener('abort', onDeadline, { once: true });
    runner.run((error, stats) => {
      requests.finished();
      ctx.deadline.removeEventListener('abort', onDeadline);
      requests.agent.destroy();
      record.verdict = error
        ? `Dredd stopped: ${error.message}`
        : stats.failures + stats.errors > 0
          ? `failed: ${stats.failures} failures, ${stats.errors} errors`
          : 'passed';
      resolve(record);
    });
  });
}
