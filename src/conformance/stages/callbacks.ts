// Stage callbacks (--callbacks): the service's own status callbacks, judged as the stage's description says, heard at
// the URL registered for the account (how it is registered is not part of the API).
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolvePointer } from '../../core/document.ts';
import { documentOperations, successExamples, type ExamplePair, type ExpectationKind } from '../../core/examples.ts';
import { openPoint, pointBasis } from '../../core/open-points.ts';
import { callbackIdentity, retrySlackSeconds } from '../checks/over-time.ts';
import { pairRequest } from '../document/pairs.ts';
import { firstRetrySeconds, links, reportedBy, sentAt } from '../document/policy.ts';
import { clip, type CheckResult, type Fault, type Outcome } from '../ground/model.ts';
import { runs, type CallbackOptions, type Stage, type SuiteContext } from '../suite/context.ts';
import { missingFixtures, prepare } from '../suite/vars.ts';

/** The delivery error code of an identical message within the window, and where the document gives the window. */
const duplicated = 'duplicated';
const duplicateCodePointer = '#/components/schemas/KnownDeliveryErrorCode';
/** A callback's status and error, as a report shows them. */
const shown = (p: Post) => `${p.body?.status} ${p.body?.error ?? ''}`.trim();

/** The webhook the operations' answers are reported by (`x-reported-by`): the status callback this stage judges. */
const reporters = [...new Set(documentOperations().flatMap(reportedBy))];
if (reporters.length !== 1)
  throw new Error(`the callbacks stage judges one webhook; x-reported-by names ${reporters.join(', ') || 'none'}`);
export const webhook = reporters[0]!;
export const webhookPointer = `#/webhooks/${webhook}/post`;
/** How a callback names its message, and what it reports of the scheduling request (`x-links`). */
const { identifies, reports } = links(webhook);
const firstRetryMs = firstRetrySeconds(webhook)! * 1000;
/** How long after a refused callback its retry is due: the first delay, and as late as the retry rule lets it come. */
const defaultCallbackWindowMs = firstRetryMs + retrySlackSeconds * 1000;
/** A receiver keeps at most this many posts, each at most this many bytes: a flood costs bounded memory. */
const maxPosts = 10_000;
const maxPostBytes = 1 << 20;
const reported = documentOperations().filter((op) => reportedBy(op).includes(webhook));

/** A post the receiver got, and what the judge found in it: its payload against the webhook, and the rules over time. */
type Post = { body: any; faults: Fault[] };

/**
 * The receiver: 200 to every post, except 500 to the first post about `failOnce` and no answer at all (the connection
 * dropped, as when a receiver is down) to the first about `dropOnce`; each post judged as it comes.
 */
async function listen(ctx: SuiteContext, options: CallbackOptions, failOnce: string, dropOnce?: string) {
  const posts: Post[] = [];
  let failed = false;
  let dropped = false;
  let url = '';
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
      const drop = !fail && !dropped && dropOnce !== undefined && body?.[identifies.payload] === dropOnce;
      failed ||= fail;
      dropped ||= drop;
      const status = drop ? undefined : fail ? 500 : 200;
      const faults = ctx.received({ at: Date.now(), url, webhook, body, text, status });
      if (posts.length < maxPosts) posts.push({ body, faults });
      if (drop) return void req.socket.destroy();
      res.writeHead(status!, { 'content-type': 'text/plain' }).end(fail ? 'failing once on purpose' : 'ok');
    });
    req.on('error', () => {});
  });
  server.listen(options.port, options.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  url = options.publicUrl ?? `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}/`;
  return { server, posts, url };
}

/** A delivery outcome the document gives: a webhook example naming the request it reports (`x-request`). */
type DeliveryOutcome = { name: string; status: unknown; error: unknown };
const outcomes = Object.entries(
  (resolvePointer(`${webhookPointer}/requestBody/content/application~1json/examples`) ?? {}) as Record<string, any>,
).flatMap(([name, example]) => {
  const trigger = example?.['x-request'] as { operationId?: string; body?: unknown } | undefined;
  if (!trigger) return [];
  const op = reported.find((o) => o.operationId === trigger.operationId);
  if (!op) throw new Error(`${webhookPointer} example ${name}: x-request names no operation it reports`);
  const pair: ExamplePair = { ...successExamples(op)[0]!, name, requestBody: trigger.body };
  return [{ pair, outcome: { name, status: example.value?.status, error: example.value?.error ?? null } }];
});

const message = (ctx: SuiteContext, pair: ExamplePair, outcome?: DeliveryOutcome) => {
  const body = prepare(pair, ctx.values).body as Record<string, unknown>;
  const linked = reports.map((l) => ({ ...l, value: String(body[l.request]) }));
  const id = String(body[identifies.request]);
  return { pair, body, id, reported: linked, accepted: false, duplicateOf: undefined as string | undefined, outcome };
};

/**
 * The success examples to schedule now (one sent later, `x-sent-at`, is reported then, past any window), and the
 * requests of the delivery outcomes whose fixtures the deployment has.
 */
const messagesToSend = (ctx: SuiteContext) => [
  ...reported.flatMap((op) =>
    successExamples(op)
      .filter((p) => !(sentAt(op) && (p.requestBody as Record<string, unknown>)[sentAt(op)!]))
      .map((pair) => message(ctx, pair)),
  ),
  ...outcomes
    .filter(({ pair }) => missingFixtures(pair, ctx.values).length === 0)
    .map(({ pair, outcome }) => message(ctx, pair, outcome)),
];
type Message = ReturnType<typeof messagesToSend>[number];

// Waits until each accepted message has a callback and the probes' first ones (answered 500, dropped) their repeats, or
// the window or the run's deadline ends; then what the receiver got, as the judgements read it.
async function gathered(ctx: SuiteContext, posts: Post[], messages: Message[], chosen: string[], windowMs: number) {
  const accepted = messages.filter((m) => m.accepted);
  // The probes whose message was accepted: a refused one has nothing to post again.
  const probes = chosen.flatMap((id, i) =>
    accepted.some((m) => m.id === id) ? [{ id, how: i === 0 ? 'answered 500' : 'dropped unanswered' }] : [],
  );
  const about = (id: string) => posts.filter((p) => String(p.body?.[identifies.payload]) === id);
  // The probe's first callback came again, the same.
  const again = ([first, ...later]: Post[]) =>
    later.some((p) => callbackIdentity(p.body) === callbackIdentity(first!.body));
  const start = Date.now();
  const end = Math.min(start + windowMs, ctx.deadlineAt);
  // A duplicate's result has come (an UNDELIVERED one, whatever its code): one reported delivered waits out the window.
  const settled = (m: Message) =>
    (!m.duplicateOf || about(m.id).some((p) => p.body?.status === 'UNDELIVERED')) &&
    (!m.outcome || about(m.id).some((p) => p.body?.status === m.outcome!.status || p.body?.status === 'DELIVERED'));
  const done = () =>
    accepted.every((m) => about(m.id).length > 0 && settled(m)) && probes.every((p) => again(about(p.id)));
  while (!done() && Date.now() < end && !ctx.deadline.aborted) await new Promise((r) => setTimeout(r, 50));
  const waitedMs = Date.now() - start;
  const seen = `${posts.length} callbacks in ${(waitedMs / 1000).toFixed(1)} s`;
  // The receiver has stopped listening: a refused callback not posted again in the window was not, for this run.
  return { posts, accepted, about, probes, seen, waitedMs, retried: ctx.due(Number.POSITIVE_INFINITY) };
}
type Received = Awaited<ReturnType<typeof gathered>>;

const fault = (check: string, found: string[], fault: string, kind?: 'decision'): Fault[] =>
  found.length ? [{ check, fault, detail: found.slice(0, 3).join(' | '), ...(kind && { kind }) }] : [];
const noCallback = 'an accepted message got no callback in the window';

/** The checks of the callbacks that arrived: what each holds, and the faults the judge (and this stage's receiver) found. */
const judgements: Array<{ name: string; basis: string; kind?: ExpectationKind; judge(r: Received): Outcome }> = [
  {
    name: 'every callback is a status callback as the document writes it (status in upper case, UNDELIVERED with its error code)',
    basis: `${webhookPointer}/requestBody/content/application~1json/schema`,
    judge: ({ posts, seen }) => ({
      expected: `each callback valid against the ${webhook} webhook's schema`,
      actual: seen,
      faults: [
        ...fault('callback-arrives', posts.length ? [] : ['no callback arrived'], 'no callback arrived in the window'),
        ...posts.flatMap((p) => p.faults.filter((f) => f.check === 'callback-schema')),
      ],
    }),
  },
  {
    name: `every accepted message gets a callback naming its ${identifies.payload} within the window`,
    basis: `${webhookPointer}/x-links/identifies (${identifies.payload}: the ${identifies.request} of the scheduling request)`,
    judge: ({ accepted, about, seen }) => {
      const missing = accepted.filter((m) => about(m.id).length === 0).map((m) => `${m.pair.name} (${m.id})`);
      return {
        expected: `a callback for each of ${accepted.length} accepted messages`,
        actual: seen,
        faults: fault('callback-arrives', accepted.length ? missing : ['no message was accepted'], noCallback),
      };
    },
  },
  {
    name: `a callback reports the ${reports.map((l) => l.payload).join(' and ')} of the message it names`,
    basis: `${webhookPointer}/x-links/reports`,
    judge: ({ accepted, about, seen }) => {
      const diff = accepted.flatMap((m) =>
        about(m.id).flatMap((p) =>
          m.reported
            .filter((l) => p.body?.[l.payload] !== undefined && String(p.body[l.payload]) !== l.value)
            .map((l) => `${m.id}: ${l.payload} ${JSON.stringify(p.body[l.payload])}, scheduled ${l.value}`),
        ),
      );
      return {
        expected: `the ${reports.map((l) => l.request).join(' and ')} of the scheduling request`,
        actual: seen,
        faults: fault('callback-reports', diff, 'a callback reports another value than its message was scheduled with'),
      };
    },
  },
  {
    name: 'a callback the receiver answered with 500, or dropped unanswered, is posted again',
    basis: `${webhookPointer}/description (otherwise the service retries), x-retry-delays-seconds`,
    // The registry's retry rule, over the posts this receiver heard, judged when the probes' retries were due.
    judge: ({ about, probes, retried, waitedMs }) => {
      const missing = probes.filter((p) => about(p.id).length === 0).map((p) => `no callback about ${p.id}`);
      return {
        expected: `the callbacks about ${probes.map((p) => `${p.id} (${p.how})`).join(' and ')} posted again (first retry after ${firstRetryMs / 1000} s)`,
        actual: `${probes.map((p) => about(p.id).length).join(' and ')} callbacks about them in ${(waitedMs / 1000).toFixed(1)} s`,
        faults: [...fault('callback-arrives', missing, noCallback), ...retried],
      };
    },
  },
];

const windowSeconds = (resolvePointer(duplicateCodePointer) as Record<string, number>)['x-duplicate-window-seconds'];
judgements.push({
  name: `an identical message sent again within the duplicate window (${windowSeconds} s) is reported as duplicated`,
  basis: `${duplicateCodePointer}/x-duplicate-window-seconds (section 8: "an identical message within 5 minutes is reported as duplicated")`,
  // Unless the first failed for a reason of its own (an address of a wrong format fails both): which code wins is open.
  judge: ({ accepted, about, seen }) => {
    const again = accepted.find((m) => m.duplicateOf !== undefined);
    const failedOtherwise = (id: string) =>
      about(id).some((p) => p.body?.status === 'UNDELIVERED' && p.body?.error !== duplicated);
    const missed =
      again && !failedOtherwise(again.duplicateOf!) && !about(again.id).some((p) => p.body?.error === duplicated)
        ? [`${again.id}: ${about(again.id).map(shown).join(', ') || 'no callback'}`]
        : [];
    return {
      expected: `a callback about ${again?.id ?? 'the identical message'} with the error ${duplicated}`,
      actual: seen,
      faults: fault(
        'callback-duplicated',
        missed,
        'an identical message sent again at once was not reported as duplicated',
      ),
    };
  },
});

judgements.push({
  name: `a message the document gives a delivery outcome is reported so (${outcomes.map((o) => o.outcome.name).join(', ')})`,
  basis: outcomes
    .map(({ outcome }) => `${webhookPointer}/requestBody/content/application~1json/examples/${outcome.name}`)
    .join('; '),
  // An identical message within the window (a run again within 5 minutes) may be reported duplicated instead.
  judge: ({ accepted, about, seen }) => {
    const sent = accepted.filter((m) => m.outcome);
    if (sent.length === 0)
      return {
        skipped: 'no delivery outcome was sent: the vars file maps its fixtures to null, or the service refused it',
      };
    const due = (m: Message) => `${m.outcome!.status} ${m.outcome!.error ?? ''}`.trim();
    const wrong = sent.flatMap((m) => {
      const { name, status, error } = m.outcome!;
      const got = about(m.id);
      const as = (p: Post) => p.body?.status === status && (p.body?.error ?? null) === error;
      if (got.some((p) => as(p) || p.body?.error === duplicated)) return [];
      return [`${name} (${m.id}): ${got.map(shown).join(', ') || 'no callback'}, where ${due(m)} is due`];
    });
    return {
      expected: sent.map((m) => `${m.outcome!.name}: ${due(m)}`).join('; '),
      actual: seen,
      faults: fault('callback-outcome', wrong, 'a message reported with another outcome than its delivery rule gives'),
    };
  },
});

// A delivered message goes to no later stage: the description shows no transition after a delivery (section 3.2: "Other
// delivery states and all transitions: not shown"), so this is this contract's decision.
judgements.push({
  name: 'a message delivered at a stage is reported at no later stage [contract decision]',
  basis: `${webhookPointer}/description (a message goes through its stages up to DELIVERED [contract decision])`,
  kind: 'decision',
  judge: ({ accepted, about, seen }) => {
    const onward = accepted.flatMap((m) => {
      const got = about(m.id);
      const at = got.findIndex((p) => p.body?.status === 'DELIVERED');
      // A stage heard before the delivery is no later one (a refused callback of an earlier stage posted again).
      const before = new Set(got.slice(0, at + 1).map((p) => p.body?.cascadeStageUUID));
      const stage = got[at]?.body?.cascadeStageUUID;
      const later = at < 0 ? [] : got.slice(at + 1).filter((p) => !before.has(p.body?.cascadeStageUUID));
      return later.length
        ? [`${m.id}: delivered at ${stage}, then reported at ${later[0]!.body?.cascadeStageUUID}`]
        : [];
    });
    return {
      expected: 'no callback about a delivered message from a later stage',
      actual: seen,
      faults: fault('callback-after-delivered', onward, 'a delivered message reported at a later stage', 'decision'),
    };
  },
});

// The open point `statuses-reported`: under strict, the contract's decision (the statuses its `results` lists only).
const point = openPoint('statuses-reported', ['results-only', 'each-status'] as const);
const results = (resolvePointer(point.pointer) as { results?: string[] }).results ?? [];
if (point.decision === 'results-only')
  judgements.push({
    name: `every callback reports a result (${results.join(' or ')})`,
    basis: pointBasis(point),
    kind: 'decision',
    // The posts about the messages this stage scheduled: the service may report other messages as it likes.
    judge: ({ accepted, about, seen }) => {
      const statuses = accepted.flatMap((m) => about(m.id)).map((p) => String(p.body?.status));
      const others = [...new Set(statuses.filter((s) => !results.includes(s)))];
      const also = others.length ? [`also ${others.join(', ')}`] : [];
      return {
        expected: `the statuses ${results.join(', ')} only`,
        actual: seen,
        faults: fault('callback-statuses', also, 'a callback reports a status that is no result', 'decision'),
      };
    },
  });
const selected = (ctx: SuiteContext) => judgements.filter((j) => runs(ctx, j.kind ?? 'described'));

/** Schedules each message; each accepted one is marked so. */
async function sendMessages(ctx: SuiteContext, messages: Message[]): Promise<Outcome> {
  const refused: string[] = [];
  const overTime: Fault[] = [];
  const send = async (m: Message) => {
    const { answer, error, overTime: found } = await ctx.send(pairRequest(ctx.server, m.pair, ctx.credentials, m.body));
    overTime.push(...found);
    m.accepted = answer?.status === 200;
    if (!m.accepted) refused.push(`${m.pair.name}: ${answer ? `${answer.status} ${clip(answer.text, 120)}` : error}`);
  };
  let duplicate: Message | undefined;
  for (const m of [...messages]) {
    await send(m);
    if (duplicate || !m.accepted) continue;
    // The first accepted one again at once, under a new value taken once: an identical message within the window.
    const id = (prepare(m.pair, ctx.values).body as Record<string, unknown>)[identifies.request];
    const body = { ...m.body, [identifies.request]: id };
    duplicate = { ...m, body, id: String(id), accepted: false, duplicateOf: m.id, outcome: undefined };
    messages.push(duplicate);
    await send(duplicate);
  }
  return {
    expected: `200 for each of ${messages.length} messages`,
    actual: refused.length ? refused.join('; ') : 'each accepted',
    faults: [...fault('callback-arrives', refused, 'a message the callbacks are about was not accepted'), ...overTime],
  };
}

const stage = 'callbacks';
export const callbacksStage: Stage = {
  name: stage,
  description:
    "the service's own status callbacks: schedules the success examples and the requests of the delivery outcomes the webhook's examples give, and judges every callback within a window (schema, link to the scheduling request's value taken once and what it reports of it, one for every message, a repeat after the receiver answers 500 or drops the connection, an identical message sent again reported as duplicated, each outcome as its example gives; strict: only results, none from a later stage after a delivery)",
  count: (ctx) => 1 + selected(ctx).length,
  async run(ctx: SuiteContext): Promise<CheckResult[]> {
    const options = ctx.callbacks;
    if (!options) return [];
    const windowMs = options.windowMs ?? defaultCallbackWindowMs;
    const messages = messagesToSend(ctx);
    const probes = messages.slice(0, 2).map((m) => m.id);
    const receiver = await listen(ctx, options, probes[0]!, probes[1]);
    ctx.log(
      `  callbacks: listening for the service's posts at ${receiver.url} for up to ${Math.round(windowMs / 1000)} s`,
    );
    const results: CheckResult[] = [];
    try {
      const basis = reported.map((op) => `${op.pointer}/responses/200`).join(', ');
      const name = 'the messages the callbacks are about are accepted';
      results.push(await ctx.check({ stage, kind: 'described', name, basis }, () => sendMessages(ctx, messages)));
      const received = await gathered(ctx, receiver.posts, messages, probes, windowMs);
      for (const { name, basis, kind = 'described', judge } of selected(ctx))
        results.push(await ctx.check({ stage, kind, name, basis }, async () => judge(received)));
    } finally {
      receiver.server.closeAllConnections();
      await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
    }
    return results;
  },
};
