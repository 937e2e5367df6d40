// The registry's checks of a sequence: the description's rules over time, run over exchanges in time order (a log, a
// proxy's traffic, a run's own requests). Each rule is read from the document's keys (policy.ts) and judges only what
// the exchanges show: a value accepted twice, an identifier listed where a second send cannot put it, a callback the
// receiver refused and that never came again while the log went on past the first retry. A rule that needs state from
// before the first exchange never guesses: it starts knowing nothing.
import { hashKey } from '../../core/hash-key.ts';
import { apiKeyHeader } from '../../core/meta.ts';
import type { ExpectationKind } from '../../core/examples.ts';
import type { Fault, Found } from '../ground/model.ts';
import { listsOf } from './answer.ts';
import { firstRetrySeconds, listedOnce, sentAgain, takenOnce, valuesAt } from '../document/policy.ts';
import type { Routed } from './request.ts';
import type { RecordedExchange } from '../traffic/exchange.ts';
import type { Answer } from '../ground/transport.ts';

/** An exchange as the rules over time see it: the request routed to its operation, or the callback it carries. */
export interface Seen {
  exchange: RecordedExchange;
  routed?: Routed;
  answer?: Answer;
  /** A status callback the service posted to a receiver: the webhook's name and the payload. */
  callback?: { webhook: string; body: unknown };
  /** Who sent it: a hash of its credentials (a value is taken once per account; the log's secrets are never kept). */
  caller: string;
}

export interface SequenceCheck {
  id: string;
  holds: string;
  kind: ExpectationKind;
  basis: string;
  /** A fresh state for one pass over exchanges in time order. */
  start(): { see(s: Seen): Found[]; end(): Found[] };
}

/** The most a rule remembers: past it the oldest is forgotten, so a week of traffic needs bounded memory. */
export const rememberedAtMost = 1_000_000;

/** A Map that forgets its oldest key past `rememberedAtMost` (Map keeps insertion order). */
class Memory<V> extends Map<string, V> {
  override set(key: string, value: V) {
    super.delete(key);
    super.set(key, value);
    if (this.size > rememberedAtMost) this.delete(this.keys().next().value!);
    return this;
  }
}

/** Who sent a request: a hash of its credentials, never the values. */
export const callerOf = (headers: Record<string, string>) =>
  hashKey(`${headers[apiKeyHeader] ?? ''}\0${headers.authorization ?? ''}`);

const success = (s: Seen) => s.answer !== undefined && s.answer.status >= 200 && s.answer.status < 300;
const show = (value: string) => (value.length > 60 ? `${value.slice(0, 57)}...` : value);

const webhookPointer = (name: string) => `#/webhooks/${name}/post`;
/** How late a retry may come past its delay before the log counts it as never sent (the callbacks stage waits so too). */
export const retrySlackSeconds = 10;

export const sequenceChecks: SequenceCheck[] = [
  {
    id: 'taken-once',
    holds: 'a value a deployment takes once (`x-taken-once`) is accepted once: a second success with it is a break',
    kind: 'described',
    basis: 'x-taken-once of each operation',
    start() {
      const accepted = new Memory<string>();
      return {
        see(s) {
          const op = s.routed?.operation;
          const once = op && takenOnce(op);
          if (!once || !success(s)) return [];
          return valuesAt(s.routed!.body, once.field).flatMap((value) => {
            const key = hashKey(`${op.operationId}\0${s.caller}\0${JSON.stringify(value)}`);
            const first = accepted.get(key);
            accepted.set(key, first ?? s.exchange.source);
            if (!first) return [];
            return [
              {
                fault: `${op.operationId} accepted a \`${once.field}\` it had accepted before (the document gives ${once.code})`,
                detail: `${once.field} ${show(String(value))} accepted at ${first} and again at ${s.exchange.source}`,
              },
            ];
          });
        },
        end: () => [],
      };
    },
  },
  {
    id: 'sent-again',
    holds:
      'an identifier listed in an answer is listed in a later answer of the same caller only where `x-sent-again` says a second send puts it',
    kind: 'described',
    basis: 'x-sent-again of each list answer (a thread once closed is already closed; no reopening is shown)',
    start() {
      const last = new Memory<{ list: string; at: string }>();
      return {
        see(s) {
          const op = s.routed?.operation;
          if (!op || !success(s)) return [];
          const again = sentAgain(op, s.answer!.status);
          const field = listedOnce(op, s.answer!.status);
          if (!again || !field || !s.answer!.json) return [];
          // Judged against earlier answers only: an identifier given twice may be listed twice in one answer.
          const now = new Map<string, { id: string; list: string }>();
          for (const [list, ids] of listsOf(s.answer!.text))
            for (const id of ids) now.set(hashKey(`${op.operationId}\0${s.caller}\0${id}`), { id, list });
          const found: Found[] = [];
          for (const [key, { id, list }] of now) {
            const before = last.get(key);
            last.set(key, { list, at: s.exchange.source });
            const allowed = before && again[before.list];
            if (!allowed || allowed.includes(list)) continue;
            found.push({
              fault: `${op.operationId} listed a \`${field}\` in ${list} after listing it in ${before.list} (a second send puts it in ${allowed.join(' or ')})`,
              key: `${op.operationId} ${before.list} -> ${list}`,
              detail: `${field} ${show(id)}: ${before.list} at ${before.at}, ${list} at ${s.exchange.source}; no reopening is shown between them`,
            });
          }
          return found;
        },
        end: () => [],
      };
    },
  },
  {
    id: 'callback-retried',
    holds:
      'a callback the receiver did not answer with 200 is posted again (`x-retry-delays-seconds`), where the log goes on past the first delay',
    kind: 'described',
    basis: `${webhookPointer('{webhook}')}/description ("otherwise the service retries"), x-retry-delays-seconds`,
    start() {
      const waiting = new Memory<{ at: number; due: number; source: string; status: number | undefined }>();
      let latest = Number.NEGATIVE_INFINITY;
      const keyOf = (s: Seen) => {
        const body = s.callback!.body as { messageId?: unknown; status?: unknown } | null;
        return hashKey(`${s.callback!.webhook}\0${JSON.stringify(body?.messageId)}\0${JSON.stringify(body?.status)}`);
      };
      return {
        see(s) {
          latest = Math.max(latest, s.exchange.at);
          if (!s.callback) return [];
          const key = keyOf(s);
          waiting.delete(key); // posted again: whatever came before is retried
          const delay = firstRetrySeconds(s.callback.webhook);
          if (delay !== undefined && s.answer?.status !== 200)
            waiting.set(key, {
              at: s.exchange.at,
              due: s.exchange.at + (delay + retrySlackSeconds) * 1000,
              source: s.exchange.source,
              status: s.answer?.status,
            });
          return [];
        },
        // Only where the log goes on past the delay: a callback refused near its end may yet be retried.
        end: () =>
          [...waiting.values()]
            .filter((w) => w.due <= latest)
            .map((w) => ({
              fault: 'a callback its receiver did not answer with 200 was never posted again',
              detail: `answered ${w.status ?? 'nothing'} at ${w.source}; no repeat in the ${Math.round((latest - w.at) / 1000)} s the log goes on`,
            })),
      };
    },
  },
];

/** Every rule over time, started: what an exchange breaks, each fault named by its rule and kind. */
export function sequenceRun() {
  const states = sequenceChecks.map((check) => ({ check, state: check.start() }));
  const named = (check: SequenceCheck, found: Found[]): Fault[] =>
    found.map((f) => ({ check: check.id, ...f, kind: f.kind ?? check.kind }));
  return {
    see: (s: Seen) => states.flatMap(({ check, state }) => named(check, state.see(s))),
    end: () => states.flatMap(({ check, state }) => named(check, state.end())),
  };
}
export type SequenceRun = ReturnType<typeof sequenceRun>;
