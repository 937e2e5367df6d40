// Client overhead, measured side by side in one run with a stubbed in-process fetch (no network):
// plain fetch, bare openapi-fetch, and this client.
import createClient from 'openapi-fetch';
import { createMessagingClient } from '../src/client/index.ts';
import type { paths } from '../src/core/types.ts';

const body = { threadIds: [101, 102, 103], comment: 'bench' };
const result = JSON.stringify({ resolved_threads: [101], not_existing_threads: [102], already_resolved_threads: [103], not_resolved_due_to_system_error: [] });
const baseUrl = 'http://127.0.0.1:1';

const stubFetch: typeof fetch = async (input, init) => {
  const request = input instanceof Request ? input : new Request(input, init);
  await request.text();
  return new Response(result, { status: 200, headers: { 'content-type': 'application/json' } });
};

const plain = async () => {
  const res = await stubFetch(`${baseUrl}/api/v1/threads/close`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
    body: JSON.stringify(body),
  });
  return res.json();
};
const bare = createClient<paths>({ baseUrl, fetch: stubFetch, headers: { authorization: 'Bearer t' } });
const bareCall = async () => (await bare.POST('/api/v1/threads/close', { body })).data;
const client = createMessagingClient({ baseUrl, fetch: stubFetch, integratorToken: 't' });
const clientCall = () => client.closeThreads(body);

/**
 * Calls per second of each runner, measured in interleaved batches (order alternating) so that
 * drift of the machine and garbage collection fall on all of them alike.
 */
async function interleaved(runners: Record<string, () => Promise<unknown>>, rounds = 60, batch = 500): Promise<Record<string, number>> {
  const total: Record<string, number> = Object.fromEntries(Object.keys(runners).map((k) => [k, 0]));
  const entries = Object.entries(runners);
  for (let round = 0; round < rounds; round++) {
    for (const [name, fn] of round % 2 ? entries : [...entries].reverse()) {
      const start = performance.now();
      for (let i = 0; i < batch; i++) await fn();
      if (round >= 4) total[name]! += performance.now() - start; // the first rounds warm up
    }
  }
  return Object.fromEntries(Object.entries(total).map(([k, ms]) => [k, ((rounds - 4) * batch) / (ms / 1000)]));
}

export async function clientBenchmark(): Promise<Record<string, string | number>> {
  const rate = await interleaved({ 'plain fetch': plain, 'bare openapi-fetch': bareCall, 'this client': clientCall });
  return {
    'plain fetch (calls/s)': Math.round(rate['plain fetch']!),
    'bare openapi-fetch (calls/s)': Math.round(rate['bare openapi-fetch']!),
    'this client (calls/s)': Math.round(rate['this client']!),
    'time per call, client / openapi-fetch (target <= 1.10)': +(rate['bare openapi-fetch']! / rate['this client']!).toFixed(3),
  };
}
