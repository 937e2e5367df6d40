// Stage callbacks (--callbacks): the service's own status callbacks, judged as callbacksStage's
// description says. The suite listens where the service posts them: the URL registered for the
// account (how it is registered is not part of the API).
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolvePointer } from '../../core/document.ts';
import { documentOperations, successExamples } from '../../core/examples.ts';
import { check } from '../suite/runner.ts';
import {
  runs,
  type CallbackOptions,
  type CheckOutcome,
  type CheckResult,
  type Stage,
  type SuiteContext,
} from '../suite/context.ts';
import { send } from '../suite/send.ts';
import { pairRequest } from '../document/pairs.ts';
import { firstRetrySeconds, links, reportedBy, sentAt } from '../document/policy.ts';
import { retrySlackSeconds } from '../checks/over-time.ts';
import { judgeCallback } from '../checks/callback.ts';
import { openPoint, pointBasis } from '../../core/open-points.ts';
import type { ExpectationKind } from '../../core/examples.ts';
import { prepare } from '../suite/vars.ts';

/** The webhook the operations' answers are reported by (`x-reported-by`): the status callback this stage judges. */
const reporters = [...new Set(documentOperations().flatMap(reportedBy))];
if (reporters.length !== 1)
  throw new Error(`the callbacks stage judges one webhook; x-reported-by names ${reporters.join(', ') || 'none'}`);
const webhook = reporters[0]!;
const webhookPointer = `#/webhooks/${webhook}/post`;
/** How a callback names its message, and what it reports of the scheduling request (`x-links`). */
const { identifies, reports } = links(webhook);
const callbackSchema = `${webhookPointer}/requestBody/content/application~1json/schema`;
const firstRetryMs = firstRetrySeconds(webhook)! * 1000;
/** Long enough for the first retry, as late as the rule over time allows it to come. */
const defaultCallbackWindowMs = firstRetryMs + retrySlackSeconds * 1000;
/** A receiver keeps at most this many posts, each at most this many bytes: a flood costs bounded memory. */
const maxPosts = 10_000;
const maxPostBytes = 1 << 20;

interface Post {
  at: number;
  text: string;
  body: any;
}

/** The receiver: 200 to every post, except 500 to the first post about `failOnce`. */
async function listen(options: CallbackOptions, failOnce: string) {
  const posts: Post[] = [];
  let failed = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxPostBytes) return req.destroy();
      chunks.push(chunk);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {}
      const fail = !failed && body?.[identifies.payload] === failOnce;
      failed ||= fail;
      if (posts.length < maxPosts) posts.push({ at: Date.now(), text, body });
      res.writeHead(fail ? 500 : 200, { 'content-type': 'text/plain' }).end(fail ? 'failing once on purpose' : 'ok');
    });
    req.on('error', () => {});
  });
  server.listen(options.port, options.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    server,
    posts,
    url: options.publicUrl ?? `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}/`,
  };
}

/** The operations whose messages the webhook reports. */
const reported = documentOperations().filter((op) => reportedBy(op).includes(webhook));

/** The success examples to schedule now (one sent later, `x-sent-at`, is reported then, past any window). */
function messagesToSend(ctx: SuiteContext) {
  return reported.flatMap((op) =>
    successExamples(op)
      .filter((p) => {
        const later = sentAt(op);
        return !(later && (p.requestBody as Record<string, unknown>)[later]);
      })
      .map((pair) => {
        const body = prepare(pair, ctx.values).body as Record<string, unknown>;
        return {
          pair,
          body,
          id: String(body[identifies.request]),
          reported: reports.map((link) => ({ ...link, value: String(body[link.request]) })),
          accepted: false,
        };
      }),
  );
}
type Message = ReturnType<typeof messagesToSend>[number];

/** What the receiver got in the window, as the judgements read it. */
interface Received {
  posts: Post[];
  accepted: Message[];
  about(id: string): Post[];
  /** The message whose first callback the receiver answered with 500 (its value taken once). */
  probe: string;
  /** "N callbacks in S s". */
  seen: string;
  /** How long the stage waited for posts. */
  waitedMs: number;
}

/** The same callback again: the same message and status (a service may also post other statuses of the message). */
const sameCallback = (a: Post, b: Post) => a.body?.status === b.body?.status && a.body?.messageId === b.body?.messageId;

/** The probe's first callback (the one the receiver answered with 500) and its repeats. */
function repeatsOf(about: (id: string) => Post[], probe: string) {
  const [first, ...later] = about(probe);
  return { first, again: first ? later.filter((p) => sameCallback(p, first)) : [] };
}

/** The checks of the callbacks that arrived: what each is, and its verdict. */
const judgements: Array<{ name: string; basis: string; kind?: ExpectationKind; judge(r: Received): CheckOutcome }> = [
  {
    name: 'every callback is a status callback as the document writes it (status in upper case, UNDELIVERED with its error code)',
    basis: callbackSchema,
    // The registry's check of a callback's payload (callback-checks.ts): as recorded traffic and the proxy judge one.
    judge: ({ posts, seen }) => {
      const wrong = posts.flatMap((p) => {
        const faults = judgeCallback({ webhook, body: p.body, answer: undefined }).filter((f) => f.side === 'service');
        return faults.length ? [`${p.text.slice(0, 160)}: ${faults.map((f) => f.detail).join('; ')}`] : [];
      });
      return {
        ok: posts.length > 0 && wrong.length === 0,
        expected: `each callback valid against the ${webhook} webhook's schema`,
        actual:
          posts.length === 0
            ? 'no callback arrived'
            : wrong.length
              ? `${wrong.length} of ${posts.length} not: ${wrong.slice(0, 3).join(' | ')}`
              : seen,
      };
    },
  },
  {
    name: `every accepted message gets a callback naming its ${identifies.payload} within the window`,
    basis: `${webhookPointer}/x-links/identifies (${identifies.payload}: the ${identifies.request} of the scheduling request)`,
    judge: ({ accepted, about, seen }) => {
      const missing = accepted.filter((m) => about(m.id).length === 0).map((m) => `${m.pair.name} (${m.id})`);
      return {
        ok: accepted.length > 0 && missing.length === 0,
        expected: `a callback for each of ${accepted.length} accepted messages`,
        actual: missing.length ? `none for ${missing.join(', ')}; ${seen}` : seen,
      };
    },
  },
  {
    name: `a callback reports the ${reports.map((l) => l.payload).join(' and ')} of the message it names`,
    basis: `${webhookPointer}/x-links/reports`,
    judge: ({ accepted, about, seen }) => {
      const wrong = accepted.flatMap((m) =>
        about(m.id).flatMap((p) =>
          m.reported
            .filter((l) => p.body?.[l.payload] !== undefined && String(p.body[l.payload]) !== l.value)
            .map((l) => `${m.id}: ${l.payload} ${JSON.stringify(p.body[l.payload])}, scheduled ${l.value}`),
        ),
      );
      return {
        ok: wrong.length === 0,
        expected: `the ${reports.map((l) => l.request).join(' and ')} of the scheduling request`,
        actual: wrong.length ? wrong.join('; ') : seen,
      };
    },
  },
  {
    name: 'a callback the receiver answered with 500 is posted again',
    basis: `${webhookPointer}/description (otherwise the service retries), x-retry-delays-seconds`,
    judge: ({ about, probe, waitedMs }) => {
      const { first, again } = repeatsOf(about, probe);
      return {
        ok: first !== undefined && again.length > 0,
        expected: `the callback about ${probe} posted again after the receiver's 500 (first retry after ${firstRetryMs / 1000} s)`,
        actual:
          first === undefined
            ? `no callback about ${probe}`
            : again.length
              ? `posted again after ${again[0]!.at - first.at} ms`
              : `not posted again within ${(waitedMs / 1000).toFixed(1)} s`,
      };
    },
  },
];

// The open point `statuses-reported`: under strict, the contract's decision (the statuses its `results` lists only).
{
  const point = openPoint('statuses-reported', ['results-only', 'each-status'] as const);
  const results = (resolvePointer(point.pointer) as { results?: string[] }).results ?? [];
  if (point.decision === 'results-only')
    judgements.push({
      name: `every callback reports a result (${results.join(' or ')})`,
      basis: pointBasis(point),
      kind: 'decision',
      // The posts about the messages this stage scheduled: the service may report other messages as it likes.
      judge: ({ accepted, about, seen }) => {
        const posts = accepted.flatMap((m) => about(m.id));
        const others = [...new Set(posts.map((p) => String(p.body?.status)).filter((s) => !results.includes(s)))];
        return {
          ok: others.length === 0,
          expected: `the statuses ${results.join(', ')} only`,
          actual: others.length ? `also ${others.join(', ')}` : seen,
        };
      },
    });
}

/** Schedules each message; each accepted one is marked so. */
async function sendMessages(ctx: SuiteContext, messages: Message[]): Promise<CheckOutcome> {
  const refused: string[] = [];
  for (const m of messages) {
    const request = pairRequest(ctx.server, m.pair, ctx.credentials, m.body);
    const { answer, error } = await send(ctx, request);
    m.accepted = answer?.status === 200;
    if (!m.accepted)
      refused.push(`${m.pair.name}: ${answer ? `${answer.status} ${answer.text.slice(0, 120)}` : error}`);
  }
  return {
    ok: refused.length === 0,
    expected: `200 for each of ${messages.length} messages`,
    actual: refused.length ? refused.join('; ') : 'each accepted',
  };
}

export const callbacksStage: Stage = {
  name: 'callbacks',
  description:
    "the service's own status callbacks: schedules the success examples and judges every callback within a window (schema, link to the scheduling request's value taken once and what it reports of it, one for every message, a repeat after the receiver answers 500)",
  count: (ctx) => 1 + judgements.filter((j) => runs(ctx, j.kind ?? 'described')).length,
  async run(ctx: SuiteContext): Promise<CheckResult[]> {
    const options = ctx.callbacks;
    if (!options) return [];
    const windowMs = options.windowMs ?? defaultCallbackWindowMs;
    const messages = messagesToSend(ctx);
    const probe = messages[0]!.id;
    const receiver = await listen(options, probe);
    ctx.log(
      `  callbacks: listening for the service's posts at ${receiver.url} for up to ${Math.round(windowMs / 1000)} s`,
    );
    const spec = (name: string, basis: string, kind: ExpectationKind = 'described') => ({
      stage: 'callbacks',
      kind,
      name,
      basis,
    });
    const results: CheckResult[] = [];
    try {
      const scheduling = reported.map((op) => `${op.pointer}/responses/200`).join(', ');
      const sent = spec('the messages the callbacks are about are accepted', scheduling);
      results.push(await check(ctx, sent, () => sendMessages(ctx, messages)));
      const accepted = messages.filter((m) => m.accepted);
      const about = (id: string) => receiver.posts.filter((p) => String(p.body?.[identifies.payload]) === id);
      // Until each message has a callback and the probe's first one its repeat, or the window or the run's deadline ends.
      const start = Date.now();
      const end = Math.min(start + windowMs, ctx.deadlineAt);
      const done = () => accepted.every((m) => about(m.id).length > 0) && repeatsOf(about, probe).again.length > 0;
      while (!done() && Date.now() < end && !ctx.deadline.aborted) await new Promise((r) => setTimeout(r, 50));
      const { posts } = receiver;
      const waitedMs = Date.now() - start;
      const seen = `${posts.length} callbacks in ${(waitedMs / 1000).toFixed(1)} s`;
      const received: Received = { posts, accepted, about, probe, seen, waitedMs };
      for (const { name, basis, kind, judge } of judgements)
        if (runs(ctx, kind ?? 'described'))
          results.push(await check(ctx, spec(name, basis, kind), async () => judge(received)));
    } finally {
      receiver.server.closeAllConnections();
      await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
    }
    return results;
  },
};
