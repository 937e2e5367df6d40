// The client's cost per call against bare openapi-fetch making the same close-threads call through
// the same fetch, side by side in one run (goal: at most 1.00, so retries, timeouts and typed
// errors cost nothing on success). Two views of Node's own fetch: against an in-process node:http
// server over loopback, and over an undici MockAgent (no socket, so the libraries' own work
// weighs more).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import createClient from 'openapi-fetch';
import { createMessagingClient } from '../src/client/index.ts';
import type { paths } from '../src/core/types.ts';
import { median, runs, seconds, type Figure } from './stats.ts';

const path = '/api/v1/threads/close';
const body = { threadIds: [101, 102, 103], comment: 'bench' };
const result = {
  resolved_threads: [101],
  not_existing_threads: [102],
  already_resolved_threads: [103],
  not_resolved_due_to_system_error: [],
};
const answer = JSON.stringify(result);
const answerHeaders = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(answer)) };

type Runner = () => Promise<unknown>;

function runners(baseUrl: string): { bare: Runner; client: Runner } {
  const bare = createClient<paths>({
    baseUrl,
    fetch: globalThis.fetch,
    headers: { authorization: 'Bearer bench-token' },
  });
  const client = createMessagingClient({ baseUrl, fetch: globalThis.fetch, integratorToken: 'bench-token' });
  return {
    bare: async () => (await bare.POST(path, { body })).data,
    client: () => client.closeThreads(body),
  };
}

const timeCalls = async (fn: Runner, calls: number) => {
  const start = performance.now();
  for (let i = 0; i < calls; i++) await fn();
  return performance.now() - start;
};

/**
 * Microseconds per call of bare openapi-fetch and of this client, and the ratio client / bare, in
 * each run. A run is 10 pairs of batches, one batch of each runner, the order alternating. The
 * ratio of a run is the median of its 10 pairs' ratios, and a runner's figure the median of its
 * 10 batches: a slow moment of this shared machine falls on one pair, not on the run. Calls per
 * batch are set by the warm-up so that a runner's share of a run lasts about BENCH_SECONDS.
 */
async function sideBySide(view: string, r: { bare: Runner; client: Runner }): Promise<Figure[]> {
  for (const [name, fn] of Object.entries(r)) {
    if (!isDeepStrictEqual(await fn(), result)) throw new Error(`${view}: ${name} did not return the answer`);
  }
  // Warm-up (the JIT settles) for about BENCH_SECONDS, which also times a call.
  let warmMs = 0;
  let warmCalls = 0;
  while (warmMs < seconds * 1000) {
    warmMs += (await timeCalls(r.bare, 200)) + (await timeCalls(r.client, 200));
    warmCalls += 400;
  }
  const perBatch = Math.max(50, Math.round((seconds * 1000) / 10 / (warmMs / warmCalls)));
  const us = { bare: [] as number[], client: [] as number[], ratio: [] as number[] };
  for (let run = 0; run < runs; run++) {
    const batch = { bare: [] as number[], client: [] as number[], ratio: [] as number[] };
    for (let pair = 0; pair < 10; pair++) {
      const order = (run * 10 + pair) % 2 ? (['bare', 'client'] as const) : (['client', 'bare'] as const);
      for (const name of order) batch[name].push(((await timeCalls(r[name], perBatch)) * 1000) / perBatch);
      batch.ratio.push(batch.client[pair]! / batch.bare[pair]!);
    }
    for (const key of ['bare', 'client', 'ratio'] as const) us[key].push(median(batch[key]));
  }
  return [
    { label: `${view}: bare openapi-fetch per call`, values: us.bare, unit: 'µs', digits: 1 },
    { label: `${view}: this client per call`, values: us.client, unit: 'µs', digits: 1 },
    { label: `${view}: this client / bare openapi-fetch`, values: us.ratio, goal: { atMost: 1 } },
  ];
}

async function realFetch(): Promise<Figure[]> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, answerHeaders);
      res.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await sideBySide(
      'fetch, in-process node:http',
      runners(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    );
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/**
 * Node's fetch over an undici MockAgent set as the global dispatcher (undici 7's own fetch refuses
 * the Request objects of Node's fetch, which openapi-fetch builds). undici is imported here, after
 * realFetch has run: importing it installs undici's Agent as the global dispatcher when Node's
 * fetch has not installed its own yet. Node's dispatcher is put back afterwards.
 */
async function mockAgent(): Promise<Figure[]> {
  const key = Symbol.for('undici.globalDispatcher.1');
  const nodeDispatcher = (globalThis as Record<symbol, unknown>)[key];
  const { MockAgent, setGlobalDispatcher } = await import('undici');
  const agent = new MockAgent();
  agent.disableNetConnect(); // nothing unmatched reaches a socket
  const origin = 'http://messaging.bench';
  agent.get(origin).intercept({ path, method: 'POST' }).reply(200, answer, { headers: answerHeaders }).persist();
  setGlobalDispatcher(agent);
  try {
    return await sideBySide('fetch, undici MockAgent', runners(origin));
  } finally {
    setGlobalDispatcher(nodeDispatcher as Parameters<typeof setGlobalDispatcher>[0]);
    await agent.close();
  }
}

export async function clientBenchmark(): Promise<Figure[]> {
  return [...(await realFetch()), ...(await mockAgent())];
}
