// Sending one request of the run: its timeout and the run's deadline, the stage's traffic for failing fast, and every
// exchange heard (--record) and judged by the rules over time.
import { route } from '../checks/request.ts';
import { callerOf } from '../checks/over-time.ts';
import { AnswerTooLarge, clientHeaders, exchange, type Answer, type HttpRequest as PairRequest } from '../ground/transport.ts';
import type { RecordedExchange } from '../traffic/exchange.ts';
import { deadlinePassed, runs, type SuiteContext } from './context.ts';

/**
 * A signal that fires after `ms` or at the run's deadline, whichever comes first. One timer, no listener: Node 20's
 * AbortSignal.any() can lose a timeout signal to garbage collection (a stalled request then waited for the server to
 * give up), and a listener per request on the deadline would pile up.
 */
export function requestSignal(ctx: SuiteContext, ms = ctx.timeoutMs): AbortSignal {
  const controller = new AbortController();
  const left = ctx.deadlineAt - Date.now();
  const [wait, why, name] =
    left <= ms ? [left, "the run's deadline passed", 'AbortError'] : [ms, `no answer within ${ms} ms`, 'TimeoutError'];
  setTimeout(() => controller.abort(new DOMException(why, name)), Math.max(0, wait)).unref();
  return controller.signal;
}

/** What `send` got: the whole answer, or why none came. */
export type Sent = { answer: Answer; error?: undefined } | { answer: null; error: string };

/**
 * Sends a request and reads the whole answer; a network failure is an answer too (none, and why). The answer, body
 * included, must come within the run's `timeoutMs` and before its deadline. An answer that breaks off after its
 * status line is none either, but the stage counts the server as answering.
 */
export async function send(ctx: SuiteContext, r: PairRequest): Promise<Sent> {
  const sent = await sendOnce(ctx, r);
  const x: RecordedExchange = {
    at: sent.at,
    request: { ...r, headers: { ...clientHeaders, ...r.headers } },
    response: sent.answer
      ? { status: sent.answer.status, headers: sent.answer.headers, body: sent.answer.text }
      : undefined,
    source: `${ctx.stage.name ?? 'run'} request ${++ctx.stage.sent}`,
  };
  ctx.observe?.(x);
  if (ctx.sequence) {
    const routed = route(r, new URL(ctx.server).pathname);
    const seen = { exchange: x, routed, caller: callerOf(r.headers), ...(sent.answer ? { answer: sent.answer } : {}) };
    ctx.stage.sequenceFaults.push(...ctx.sequence.see(seen).filter((f) => runs(ctx, f.kind ?? 'described')));
  }
  return sent;
}

async function sendOnce(ctx: SuiteContext, r: PairRequest): Promise<Sent & { at: number }> {
  const at = Date.now();
  const signal = requestSignal(ctx);
  let began = false;
  try {
    const answer = await exchange({
      ...r,
      signal,
      onAnswer: () => {
        began = true;
        ctx.stage.answered++;
      },
    });
    return { answer, at };
  } catch (error) {
    if (error instanceof AnswerTooLarge) return { answer: null, error: error.message, at };
    const reason = deadlinePassed(ctx)
      ? "the run's deadline passed"
      : signal.aborted
        ? `no answer within ${ctx.timeoutMs} ms`
        : (error as Error).message;
    if (began) return { answer: null, error: `the answer broke off: ${reason}`, at };
    ctx.stage.networkFailures++;
    return { answer: null, error: reason, at };
  }
}
