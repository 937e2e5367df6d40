// Stage callbacks (--callbacks): the service's own status callbacks, judged as callbacksStage's
// description says. The suite listens where the service posts them: the URL registered for the
// account (how it is registered is not part of the API).
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolvePointer } from '../../core/document.ts';
import { documentOperations, successExamples, type ExpectationKind } from '../../core/examples.ts';
import { openPoint, pointBasis } from '../../core/open-points.ts';
import { retrySlackSeconds } from '../checks/over-time.ts';
import { pairRequest } from '../document/pairs.ts';
import { firstRetrySeconds, links, reportedBy, sentAt } from '../document/policy.ts';
import type { CheckResult, Fault, Outcome } from '../ground/model.ts';
import { runs, type CallbackOptions, type Stage, type SuiteContext } from '../suite/context.ts';
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
/** How long after a refused callback its retry is due: the first delay, and as late as the retry rule lets it come. */
const defaultCallbackWindowMs = firstRetryMs + retrySlackSeconds * 1000;
/** A receiver keeps at most this many posts, each at most this many bytes: a flood costs bounded memory. */
const maxPosts = 10_000;
const maxPostBytes = 1 << 20;

interface Post {
  at: number;
  text: string;
  body: any;
  /** What the judge found in it: its payload against the webhook, and the rules over time on it. */
  faults: Fault[];
}

/** The receiver: 200 to every post, except 500 to the first post about `failOnce`; each post judged as it comes. */
async function listen(ctx: SuiteContext, options: CallbackOptions, failOnce: string) {
  const posts: Post[] = [];
  let failed = false;
  let here = '';
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
      const at = Date.now();
      const status = fail ? 500 : 200;
      const faults = ctx.received({ at, url: here, webhook, body, text, status });
      if (posts.length < maxPosts) posts.push({ at, text, body, faults });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(fail ? 'failing once on purpose' : 'ok');
    });
    req.on('error', () => {});
  });
  server.listen(options.port, options.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  here = options.publicUrl ?? `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}/`;
  return { server, posts, url: here };
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
  /** What the registry's retry rule found due once the probe's retry was due (or the wait ended). */
  retried: Fault[];
}

/** The probe's first callback (the one the receiver answered with 500) and whether the same came again. */
function probed(about: (id: string) => Post[], probe: string) {
  const [first, ...later] = about(probe);
  const same = (p: Post) => p.body?.status === first?.body?.status && p.body?.messageId === first?.body?.messageId;
  return { first, again: first !== undefined && later.some(same) };
}

const fault = (check: string, found: string[], fault: string): Fault[] =>
  found.length ? [{ check, fault, detail: found.slice(0, 3).join(' | ') }] : [];

/** The checks of the callbacks that arrived: what each holds, and the faults the judge (and this stage's receiver) found. */
const judgements: Array<{ name: string; basis: string; kind?: ExpectationKind; judge(r: Received): Outcome }> = [
  {
    name: 'every callback is a status callback as the document writes it (status in upper case, UNDELIVERED with its error code)',
    basis: callbackSchema,
    judge: ({ posts, seen }) => {
      const wrong = posts.filter((p) => p.faults.some((f) => f.check === 'callback-schema'));
      return {
        expected: `each callback valid against the ${webhook} webhook's schema`,
        actual: seen,
        faults: [
          ...fault(
            'callback-arrives',
            posts.length ? [] : ['no callback arrived'],
            'no callback arrived in the window',
          ),
          ...wrong.flatMap((p) => p.faults.filter((f) => f.check === 'callback-schema')),
        ],
      };
    },
  },
  {
    name: `every accepted message gets a callback naming its ${identifies.payload} within the window`,
    basis: `${webhookPointer}/x-links/identifies (${identifies.payload}: the ${identifies.request} of the scheduling request)`,
    judge: ({ accepted, about, seen }) => {
      const missing = accepted.filter((m) => about(m.id).length === 0).map((m) => `${m.pair.name} (${m.id})`);
      return {
        expected: `a callback for each of ${accepted.length} accepted messages`,
        actual: seen,
        faults: fault(
          'callback-arrives',
          accepted.length ? missing : ['no message was accepted'],
          'an accepted message got no callback in the window',
        ),
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
        expected: `the ${reports.map((l) => l.request).join(' and ')} of the scheduling request`,
        actual: seen,
        faults: fault(
          'callback-reports',
          wrong,
          'a callback reports another value than its message was scheduled with',
        ),
      };
    },
  },
  {
    name: 'a callback the receiver answered with 500 is posted again',
    basis: `${webhookPointer}/description (otherwise the service retries), x-retry-delays-seconds`,
    // The registry's retry rule, over the posts this receiver heard, judged when the probe's retry was due.
    judge: ({ about, probe, retried, waitedMs }) => {
      const { first } = probed(about, probe);
      return {
        expected: `the callback about ${probe} posted again after the receiver's 500 (first retry after ${firstRetryMs / 1000} s)`,
        actual: first
          ? `${about(probe).length} callbacks about it in ${(waitedMs / 1000).toFixed(1)} s`
          : `no callback about ${probe}`,
        faults: [
          ...fault(
            'callback-arrives',
            first ? [] : [`no callback about ${probe}`],
            'an accepted message got no callback in the window',
          ),
          ...retried,
        ],
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
          expected: `the statuses ${results.join(', ')} only`,
          actual: seen,
          faults: others.length
            ? [
                {
                  check: 'callback-statuses',
                  fault: 'a callback reports a status that is no result',
                  detail: `also ${others.join(', ')}`,
                  kind: 'decision',
                },
              ]
            : [],
        };
      },
    });
}

/** Schedules each message; each accepted one is marked so. */
async function sendMessages(ctx: SuiteContext, messages: Message[]): Promise<Outcome> {
  const refused: string[] = [];
  const overTime: Fault[] = [];
  for (const m of messages) {
    const { answer, error, overTime: found } = await ctx.send(pairRequest(ctx.server, m.pair, ctx.credentials, m.body));
    overTime.push(...found);
    m.accepted = answer?.status === 200;
    if (!m.accepted)
      refused.push(`${m.pair.name}: ${answer ? `${answer.status} ${answer.text.slice(0, 120)}` : error}`);
  }
  return {
    expected: `200 for each of ${messages.length} messages`,
    actual: refused.length ? refused.join('; ') : 'each accepted',
    faults: [...fault('callback-arrives', refused, 'a message the callbacks are about was not accepted'), ...overTime],
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
    const receiver = await listen(ctx, options, probe);
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
      results.push(await ctx.check(sent, () => sendMessages(ctx, messages)));
      const accepted = messages.filter((m) => m.accepted);
      const about = (id: string) => receiver.posts.filter((p) => String(p.body?.[identifies.payload]) === id);
      // Until each message has a callback and the probe's first one its repeat, or the window or the run's deadline ends.
      const start = Date.now();
      const end = () => Math.min(start + windowMs, ctx.deadlineAt);
      const done = () => accepted.every((m) => about(m.id).length > 0) && probed(about, probe).again;
      while (!done() && Date.now() < end() && !ctx.deadline.aborted) await new Promise((r) => setTimeout(r, 50));
      const { posts } = receiver;
      const waitedMs = Date.now() - start;
      const seen = `${posts.length} callbacks in ${(waitedMs / 1000).toFixed(1)} s`;
      // The receiver has stopped listening: a refused callback not posted again in the window was not, for this run.
      const retried = ctx.due(Number.POSITIVE_INFINITY);
      const received: Received = { posts, accepted, about, probe, seen, waitedMs, retried };
      for (const { name, basis, kind, judge } of judgements)
        if (runs(ctx, kind ?? 'described'))
          results.push(await ctx.check(spec(name, basis, kind), async () => judge(received)));
    } finally {
      receiver.server.closeAllConnections();
      await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
    }
    return results;
  },
};
