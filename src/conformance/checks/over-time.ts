// The registry's rules over time: the description's rules that need more than one exchange, run by the judge's one
// driver over exchanges in time order (the suite's own, a log's, a proxy's). The world is open (a log need not hold
// every exchange; the description names transitions it does not show: a thread reopened, a subscriber deleted), so a
// rule fails only on what no history the document allows could explain: it starts knowing nothing, reads what may
// happen unseen from the document (`released-unseen`, `x-unseen-moves`), starts again at a reset, keeps hashes only.
import { openapi } from '../../core/document.ts';
import { documentOperations, type Operation } from '../../core/examples.ts';
import { hashKey } from '../../core/hash-key.ts';
import { openPoint, pointBasis } from '../../core/open-points.ts';
import { firstRetrySeconds, laterLists, listedOnce, listsOf, takenOnce, valuesAt } from '../document/policy.ts';
import { clip, type RuleOverTime, type Seen } from '../ground/model.ts';

/** Where the document states a rule, for each operation that has it: a basis the description's words are found from. */
const pointersOf = (has: (op: Operation) => boolean, at: string) =>
  documentOperations()
    .filter(has)
    .map((op) => `${op.pointer}/${at}`)
    .join('; ');

/** The most a rule remembers: past it the oldest is forgotten, so a week of traffic needs bounded memory. */
const rememberedAtMost = 1_000_000;
/** A Map that forgets its oldest key past `rememberedAtMost` (Map keeps insertion order). */
class Memory<V> extends Map<string, V> {
  override set(key: string, value: V) {
    super.delete(key);
    super.set(key, value);
    if (this.size > rememberedAtMost) this.delete(this.keys().next().value!);
    return this;
  }
}

const success = (s: Seen) => s.answer !== undefined && s.answer.status >= 200 && s.answer.status < 300;
const show = (value: string) => clip(value, 60);

/** What makes a callback the same one posted again: its message and its status (another status is another report). */
export const callbackIdentity = (body: unknown) => {
  const b = body as { messageId?: unknown; status?: unknown } | null;
  return `${JSON.stringify(b?.messageId)}\0${JSON.stringify(b?.status)}`;
};

/** How late a retry may come past its delay before it counts as never sent (the callbacks stage waits as long). */
export const retrySlackSeconds = 10;

const described = (rules: Omit<RuleOverTime, 'family' | 'side' | 'kind'>[]) =>
  rules.map((r): RuleOverTime => ({ ...r, family: 'over-time', side: 'service', kind: 'described' }));

const describedRules = described([
  {
    id: 'taken-once',
    holds: 'a value a deployment takes once (`x-taken-once`) is accepted once: a second success with it is a break',
    basis: `${pointersOf((op) => takenOnce(op) !== undefined, 'x-taken-once')} (none where \`released-unseen\` says how it is freed unseen)`,
    start() {
      const accepted = new Memory<string>();
      return {
        see(s) {
          const op = s.routed?.operation;
          const once = op && takenOnce(op);
          if (!once || once['released-unseen'] || !success(s)) return [];
          return valuesAt(s.routed!.body, once.field).flatMap((value) => {
            const key = hashKey(`${op.operationId}\0${s.caller}\0${JSON.stringify(value)}`);
            const first = accepted.get(key);
            accepted.set(key, first ?? s.exchange.source);
            if (!first) return [];
            const fault = `${op.operationId} accepted a \`${once.field}\` it had accepted before (the document gives ${once.code})`;
            const detail = `${once.field} ${show(String(value))} accepted at ${first} and again at ${s.exchange.source}`;
            return [{ fault, detail }];
          });
        },
      };
    },
  },
  {
    id: 'sent-again',
    holds:
      'an identifier listed in an answer is listed in a later answer only where `x-sent-again` or `x-unseen-moves` can put it',
    basis: `${pointersOf((op) => listedOnce(op, 200) !== undefined, 'responses/200/x-sent-again')} (and x-unseen-moves beside it)`,
    start() {
      const last = new Memory<{ list: string; at: string }>();
      return {
        see(s) {
          const op = s.routed?.operation;
          if (!op || !success(s) || !s.answer!.json) return [];
          const later = laterLists(op, s.answer!.status);
          const field = listedOnce(op, s.answer!.status);
          if (!later || !field) return [];
          // Judged against earlier answers only: an identifier given twice may be listed twice in one answer.
          const now = new Map<string, { id: string; list: string }>();
          for (const [list, ids] of listsOf(s.answer!.text))
            for (const id of ids) now.set(hashKey(`${op.operationId}\0${s.caller}\0${id}`), { id, list });
          return [...now].flatMap(([key, { id, list }]) => {
            const before = last.get(key);
            last.set(key, { list, at: s.exchange.source });
            const allowed = before && later[before.list];
            if (!allowed || allowed.includes(list)) return [];
            const fault = `${op.operationId} listed a \`${field}\` in ${list} after listing it in ${before.list} (no history the document allows puts it there)`;
            const detail = `${field} ${show(id)}: ${before.list} at ${before.at}, ${list} at ${s.exchange.source}; from ${before.list} it may be in ${allowed.join(', ')}`;
            return [{ fault, key: `${op.operationId} ${before.list} -> ${list}`, detail }];
          });
        },
      };
    },
  },
  {
    id: 'callback-retried',
    holds:
      'a callback the receiver did not answer with 200 is posted again, same message and status (`x-retry-delays-seconds`), where the exchanges go on past the first delay',
    basis: `${Object.keys(openapi.webhooks ?? {})
      .map((w) => `#/webhooks/${w}/post/x-retry-delays-seconds`)
      .join('; ')} ("otherwise the service retries")`,
    start() {
      const waiting = new Memory<{ at: number; due: number; source: string; status: number | undefined }>();
      return {
        see(s) {
          if (!s.callback) return [];
          const { webhook, answer } = s.callback;
          const key = hashKey(`${webhook}\0${callbackIdentity(s.callback.body)}`);
          waiting.delete(key); // posted again: whatever came before is retried
          const delay = firstRetrySeconds(webhook);
          const { at, source } = s.exchange;
          if (delay !== undefined && answer?.status !== 200)
            waiting.set(key, { at, due: at + (delay + retrySlackSeconds) * 1000, source, status: answer?.status });
          return [];
        },
        // Only those whose time has come: a callback refused near the end of the exchanges may yet be retried.
        due(at) {
          const late = [...waiting].filter(([, w]) => w.due <= at);
          for (const [key] of late) waiting.delete(key);
          return late.map(([, w]) => ({
            fault: 'a callback its receiver did not answer with 200 was never posted again',
            detail: `answered ${w.status ?? 'nothing'} at ${w.source}; no repeat of the same message and status in the ${Math.round((at - w.at) / 1000)} s that followed`,
          }));
        },
      };
    },
  },
]);

/** The rule a 429 breaks under strict: this contract decides the service sets no rate limit (open point rate-limit). */
export const rateLimitRule = 'no-rate-limit';
const rateLimitPoint = () => openPoint('rate-limit', ['no-limit', 'too-many-requests'] as const);

const rateLimited: RuleOverTime = {
  id: rateLimitRule,
  family: 'over-time',
  side: 'service',
  kind: 'decision',
  holds: "the service answers without a rate limit: no 429 (this contract's decision on an open point)",
  // Read when asked: the document is read once a rule is.
  get basis() {
    return pointBasis(rateLimitPoint());
  },
  start() {
    return {
      // Every 429, waited out or not: the default profile leaves it out (a service with a limit is one it allows).
      see(s) {
        if (s.answer?.status !== 429 || rateLimitPoint().decision !== 'no-limit') return [];
        const after = s.answer.headers['retry-after'];
        const fault = 'the service answered 429 (rate limited); this contract decides it sets no rate limit';
        const detail = `${s.exchange.source}: ${s.exchange.request.method} ${s.routed?.path ?? s.exchange.request.url} answered 429${after ? ` (Retry-After ${after})` : ''}`;
        return [{ fault, key: rateLimitRule, detail }];
      },
    };
  },
};

export const overTimeChecks: RuleOverTime[] = [...describedRules, rateLimited];
