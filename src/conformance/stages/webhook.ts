// messaging-conformance webhook: checks a customer's status-callback receiver. Every documented callback, and those a
// receiver must take too (unknown values, extra fields, a duplicate, out of order), must get 200 (the service retries
// anything else); what is not a callback (malformed JSON, a wrong content type, an oversized body; --profile strict)
// anything but a 5xx or a hang.
import { resolvePointer } from '../../core/document.ts';
import { defaultTimeoutMs } from '../suite/context.ts';
import {
  clip,
  type CheckResult,
  type CheckSpec,
  type Outcome,
  type Profile,
  type SuiteReport,
} from '../ground/model.ts';
import { exchange } from '../ground/transport.ts';
import { judgeCallback, noAnswer, report, sideOf, verdict } from '../judge.ts';
import { webhook as webhookName, webhookPointer } from './callbacks.ts';

type Obj = Record<string, unknown>;
/** The webhook the operations' messages are reported by (`x-reported-by`): the receiver's side of it. */
const webhook = resolvePointer(webhookPointer) as {
  description: string;
  requestBody: { content: Record<string, { examples: Record<string, { value: Obj }> }> };
};
const enumOf = (name: string) => (resolvePointer(`#/components/schemas/${name}`) as { enum: string[] }).enum;

/** The posts to make: a well-formed callback must get 200, anything else any answer but a 5xx or none. */
function webhookCases(): Array<{ name: string; body: string; wellFormed?: boolean; type?: string }> {
  const examples = webhook.requestBody.content['application/json']!.examples;
  const base = { ...examples.delivered!.value };
  const json = (name: string, value: unknown) => ({ name, body: JSON.stringify(value), wellFormed: true });
  let messageId = 900_000_000;
  const fresh = (extra: Obj) => ({ ...base, messageId: ++messageId, ...extra });
  const duplicate = fresh({ status: 'DELIVERED' });
  const later = fresh({ status: 'READ', statusAt: '2030-01-15T09:40:00Z' });
  const earlier = { ...later, status: 'DELIVERED', statusAt: '2030-01-15T09:30:00Z' };
  const undelivered = { status: 'UNDELIVERED', error: 'error-address-format' };
  const notYet = 'this contract does not know yet';
  return [
    ...Object.entries(examples).map(([name, { value }]) => json(`the document's example ${name}`, value)),
    ...enumOf('KnownDeliveryStatus').map((status) =>
      json(`status ${status}`, fresh(status === 'UNDELIVERED' ? { ...undelivered, comment: 'x' } : { status })),
    ),
    ...enumOf('KnownDeliveryErrorCode').map((error) =>
      json(`UNDELIVERED with ${error}`, fresh({ status: 'UNDELIVERED', error, comment: null })),
    ),
    json(`a status ${notYet}`, fresh({ status: 'PAUSED' })),
    json(`a delivery error code ${notYet}`, fresh({ status: 'UNDELIVERED', error: 'a-code-added-later' })),
    json(
      `fields ${notYet}`,
      fresh({ status: 'DELIVERED', paymentData: { amount: 1 }, somethingNew: { nested: true } }),
    ),
    json('a message not sent by this API (requestId null)', fresh({ status: 'READ', requestId: null })),
    json('a callback, once', duplicate),
    json('the same callback again (the service retries)', duplicate),
    json('a later status first', later),
    json('then an earlier status of the same message (out of order)', earlier),
    { name: 'malformed JSON', body: '{"messageId": 1, "status": ' },
    { name: 'a JSON array', body: '[]' },
    { name: 'a wrong content type', body: 'status=DELIVERED', type: 'application/x-www-form-urlencoded' },
    { name: 'an oversized body (2 MiB)', body: JSON.stringify({ ...base, comment: 'x'.repeat(2 * 1024 * 1024) }) },
  ];
}

export interface WebhookOptions {
  url: string;
  timeoutMs?: number;
  /** described (default): the posts the service makes; strict: also what is not a callback (this contract's expectation). */
  profile?: Profile;
  log?: (line: string) => void;
}

/** The contract's sentence on the receiver's answer (the webhook's description). */
const answerRule = /The receiver must answer 200[^.]*\./.exec(webhook.description.replace(/\s+/g, ' '))?.[0];
if (!answerRule)
  throw new Error('the document no longer says what the receiver must answer: webhook.ts reads that sentence');

export async function checkWebhookReceiver(options: WebhookOptions): Promise<SuiteReport> {
  const { url, timeoutMs = defaultTimeoutMs, profile = 'described', log } = options;
  const results: CheckResult[] = [];
  const start = performance.now();
  // What is not a callback is this contract's expectation of a receiver: strict only.
  const cases = webhookCases().filter((c) => c.wellFormed || profile === 'strict');
  log?.(`webhook receiver ${url}: ${cases.length} posts`);
  for (const c of cases) {
    const began = performance.now();
    const request = { method: 'POST', url, headers: { 'content-type': c.type ?? 'application/json' }, body: c.body };
    let outcome: Outcome;
    try {
      const res = await exchange({ ...request, signal: AbortSignal.timeout(timeoutMs) });
      const text = clip(res.text, 200);
      // Judged by the registry's checks of a receiver, as in traffic (what is not a callback: as no payload).
      const callback = { webhook: webhookName, body: c.wellFormed ? JSON.parse(c.body) : undefined, answer: res };
      const faults = judgeCallback(callback, profile).filter((f) => sideOf(f.check) === 'caller');
      const rule = faults.length && c.wellFormed ? `: the contract says "${answerRule}"` : '';
      outcome = { request, actual: `${res.status}${text ? ` ${text}` : ''}${rule}`, faults };
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      const why = timedOut ? `no answer within ${timeoutMs} ms` : (error as Error).message;
      outcome = { request, actual: timedOut ? why : `no answer: ${why}`, faults: [noAnswer(why)] };
    }
    // 200 to every callback, unknown values included, is the service's rule [public docs].
    const spec: CheckSpec = c.wellFormed
      ? { stage: 'webhook', name: c.name, kind: 'described', basis: `${webhookPointer}/description` }
      : { stage: 'webhook', name: c.name, kind: 'decision' };
    const expected = c.wellFormed ? '200 (anything else makes the service retry)' : 'an answer that is not a 5xx';
    results.push(verdict(spec, { ...outcome, expected }, profile, { ms: performance.now() - began }));
  }
  const failed = results.filter((r) => !r.ok).length;
  log?.(`  ${results.length - failed} passed, ${failed} failed`);
  return report(profile, results, { stageMs: { webhook: performance.now() - start } }, true);
}
