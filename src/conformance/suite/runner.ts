// The runner gives the context (context.ts) its methods: a request sent within the timeout and deadline, counted for
// failing fast, heard for --record and seen by the rules over time; a check timed, stopped where it must, judged.
import { callerOf, caseOutcome, judgeCallback, notJudged, type OverTime, verdict } from '../judge.ts';
import { route } from '../document/route.ts';
import type { Fault, Outcome, RecordedExchange } from '../ground/model.ts';
import { replay } from '../ground/replay.ts';
import { AnswerTooLarge, clientHeaders, exchange, parseAnswer, type HttpRequest } from '../ground/transport.ts';
import { Bailed, deadlinePassed, requestSignal, RunOver, StageStopped } from './context.ts';
import type { Sent, SuiteContext } from './context.ts';
import { unmappedHint } from './vars.ts';

/** The first requests of a stage all failing at the network level: the stage stops at once. */
export const failFastAfter = 3;

type Methods = 'send' | 'judged' | 'sendCase' | 'check' | 'received' | 'due';
type Data = Omit<SuiteContext, Methods>;

/** The context with its methods: `observe` hears each exchange (--record), `overTime` judges them (none for a mock). */
export function runner(data: Data, observe?: (x: RecordedExchange) => void, overTime?: OverTime): SuiteContext {
  let posts = 0;
  // Methods, not closures: a stage may run on a copy of the context with other options (its `this`).
  const methods: Pick<SuiteContext, Methods> = {
    // The one send path: at the run's pace, a 429 waited out and sent again; each send heard and seen over time.
    async send(this: SuiteContext, r) {
      const overTimeFound: Fault[] = [];
      for (let resend = 0; ; resend++) {
        await this.throttle.pace(this.deadlineAt);
        const sent = await sendOnce(this, r);
        const { answer } = sent;
        const x: RecordedExchange = {
          at: sent.at,
          request: { ...r, headers: { ...clientHeaders, ...r.headers } },
          response: answer ? { status: answer.status, headers: answer.headers, body: answer.text } : undefined,
          ...(answer ? {} : { error: sent.error }),
          source: `${this.stage.name ?? 'run'} request ${++this.stage.sent}`,
        };
        observe?.(x);
        const seen = { exchange: x, routed: route(r, new URL(this.server).pathname), caller: callerOf(r.headers) };
        overTimeFound.push(...(overTime?.see(answer ? { ...seen, answer } : seen) ?? []));
        if (answer?.status === 429 && (await this.throttle.waitOut(answer.headers, resend, this.deadlineAt))) continue;
        return { ...sent, overTime: overTimeFound } as Sent;
      }
    },
    judged(this: SuiteContext, c, sent) {
      return caseOutcome(c, sent, this.profile, sent.overTime);
    },
    async sendCase(this: SuiteContext, c, headers = {}) {
      return this.judged(c, await this.send({ ...c.request, headers: { ...c.request.headers, ...headers } }));
    },
    // A thrown error is a failure of the check's own. Before, it stops the run when the deadline has passed or (under
    // `bail`) a check has failed, and the stage when its first requests all failed: more checks say nothing.
    async check(this: SuiteContext, spec, run) {
      if (deadlinePassed(this)) throw new RunOver("the run's deadline passed before every check ran");
      if (this.bail && this.stage.checks.some((c) => !c.ok)) throw new Bailed();
      const { answered, networkFailures } = this.stage;
      if (answered === 0 && networkFailures >= failFastAfter)
        throw new StageStopped(
          `the first ${networkFailures} requests of the stage got no answer; the server is not answering`,
        );
      const start = performance.now();
      const standing = this.throttle.standing;
      let outcome: Outcome;
      try {
        outcome = await run();
      } catch (error) {
        outcome = { expected: 'the check to run', failed: (error as Error).message };
      }
      // A 429 the resends did not get past: what the check found after it may be its doing, so it is not judged.
      if (this.throttle.standing > standing) outcome = notJudged(outcome);
      const ms = performance.now() - start;
      const from = {
        replay: (r: HttpRequest) => replay(this.credentials, r),
        unmapped: (r: HttpRequest) => unmappedHint(r.body, this.values),
        ms,
      };
      const result = verdict(spec, outcome, this.profile, from);
      if (result.skipped) this.throttle.counts.notJudged++;
      this.stage.checks.push(result);
      return result;
    },
    received(this: SuiteContext, post) {
      const x: RecordedExchange = {
        at: post.at,
        request: { method: 'POST', url: post.url, headers: { 'content-type': 'application/json' }, body: post.text },
        response:
          post.status === undefined
            ? undefined
            : { status: post.status, headers: { 'content-type': 'text/plain' }, body: '' },
        // A recording says why a post got no answer: the receiver dropped it on purpose, as one that is down.
        ...(post.status === undefined && { error: 'the receiver dropped the connection on purpose (a receiver down)' }),
        source: `callback ${++posts}`,
      };
      observe?.(x);
      const answer = post.status === undefined ? undefined : parseAnswer(post.status, 'text/plain', '');
      const callback = { webhook: post.webhook, body: post.body, answer };
      const found = overTime?.see({ exchange: x, callback, caller: callerOf({}) }) ?? [];
      return [...judgeCallback(callback, this.profile), ...found];
    },
    due: (at = Date.now()) => overTime?.due(at) ?? [],
  };
  return Object.assign(data, methods);
}

/**
 * Sends a request and reads the whole answer; a network failure is an answer too (none, and why). An answer that
 * breaks off after its status line is none either, but the stage counts the server as answering.
 */
async function sendOnce(ctx: SuiteContext, r: HttpRequest): Promise<Omit<Sent, 'overTime'> & { at: number }> {
  const at = Date.now();
  const signal = requestSignal(ctx);
  let began = false;
  const onAnswer = () => {
    began = true;
    ctx.stage.answered++;
  };
  try {
    return { answer: await exchange({ ...r, signal, onAnswer }), at };
  } catch (error) {
    if (error instanceof AnswerTooLarge) return { answer: null, error: error.message, at };
    const why = signal.aborted ? `no answer within ${ctx.timeoutMs} ms` : (error as Error).message;
    const reason = deadlinePassed(ctx) ? "the run's deadline passed" : why;
    if (began) return { answer: null, error: `the answer broke off: ${reason}`, at };
    ctx.stage.networkFailures++;
    return { answer: null, error: reason, at };
  }
}
