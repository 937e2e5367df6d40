// The sandbox under load, side by side in one run with autocannon: the sandbox, a plain node:http
// server answering the same JSON, and the Prism mock, each in its own process, on a valid
// schedule-cascade request with a fresh requestId each time. Then the time to close 100,000
// thread identifiers in one call, and the sandbox's memory after the load.
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startPrism } from '../src/mock/prism.ts';
import { freePort, waitForPort } from '../src/util/wait.ts';
import { loadFixtures } from '../src/sandbox/fixtures.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = loadFixtures();
const apiKey = fixtures.apiKeys.find((k) => k.balance > 0)!.key;
const token = fixtures.integratorTokens[0]!;
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 5);

async function child(args: string[]): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', ...args, String(port)], { cwd: root, stdio: 'ignore' });
  await waitForPort('127.0.0.1', port);
  return { url: `http://127.0.0.1:${port}`, process: proc };
}

// Bodies are made before the load, so the load generator spends its time sending.
const bodies = Array.from({ length: 400_000 }, (_, i) =>
  JSON.stringify({
    requestId: `aaaaaaaa-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
    cascadeId: 1001,
    subscriberFilter: { address: '79001234567', type: 'PHONE' },
    content: { viberContent: { contentType: 'TEXT', text: 'Your order 1234 is ready.' }, smsContent: { contentType: 'TEXT', text: 'Your order 1234 is ready.' } },
  }),
);
let next = 0;
const scheduleRequest = {
  method: 'POST' as const,
  path: '/api/cascade/schedule',
  headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
  setupRequest: (req: Record<string, unknown>) => ({ ...req, body: bodies[next++ % bodies.length] }),
};

async function load(url: string): Promise<{ rps: number; non2xx: number }> {
  const result = await autocannon({ url, connections: 16, duration: durationSeconds, requests: [scheduleRequest] });
  return { rps: result.requests.average, non2xx: result.non2xx + result.errors };
}

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Math.round(Number(line.replace(/\D+/g, '')) / 1024);
}

async function closeMany(url: string, count: number): Promise<number> {
  const body = JSON.stringify({ threadIds: Array.from({ length: count }, (_, i) => i + 1), comment: 'bench' });
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    await fetch(`${url}/_sandbox/reset`, { method: 'POST' });
    const start = performance.now();
    const res = await fetch(`${url}/api/v1/threads/close`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body });
    const result = (await res.json()) as Record<string, number[]>;
    times.push(performance.now() - start);
    const reported = Object.values(result).reduce((n, list) => n + list.length, 0);
    if (reported !== count) throw new Error(`close reported ${reported} identifiers of ${count}`);
  }
  return times.sort((a, b) => a - b)[2]!;
}

export async function sandboxBenchmark(): Promise<Record<string, string | number>> {
  const plain = await child(['bench/plain-server.ts']);
  const sandbox = await child(['src/sandbox/cli.ts', '--port']);
  const prism = await startPrism({ port: await freePort() });
  try {
    await load(sandbox.url); // warm-up
    const rssBefore = rssMiB(sandbox.process.pid!);
    const plainResult = await load(plain.url);
    const sandboxResult = await load(sandbox.url);
    const prismResult = await load(prism.url);
    const rssAfter = rssMiB(sandbox.process.pid!);
    const close100k = await closeMany(sandbox.url, 100_000);
    return {
      'plain node:http (req/s)': Math.round(plainResult.rps),
      'sandbox, valid schedule-cascade (req/s)': Math.round(sandboxResult.rps),
      'Prism mock (req/s)': Math.round(prismResult.rps),
      'sandbox / plain node:http (target >= 0.5)': +(sandboxResult.rps / plainResult.rps).toFixed(2),
      'sandbox / Prism (target >= 10)': +(sandboxResult.rps / prismResult.rps).toFixed(1),
      'sandbox non-2xx or errors under load': sandboxResult.non2xx,
      'close 100,000 thread ids in one call (ms, median of 5, target < 250)': Math.round(close100k),
      'sandbox RSS before / after load (MiB)': `${rssBefore} / ${rssAfter}`,
    };
  } finally {
    plain.process.kill();
    sandbox.process.kill();
    await prism.stop();
  }
}
