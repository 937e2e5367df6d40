// CPU per request of three servers on the same valid schedule-cascade request (a fresh requestId
// each time), side by side in one run: plain node:http answering the same JSON, the sandbox (its
// built bin, as users run it) and the Prism mock, each in its own process pinned to core 0, with
// autocannon in this process on core 1. In each run the three take their fixed load at the same
// time, so a slow moment of the machine falls on all three alike. A server's figure is its process
// CPU time (user + system, /proc) over its requests, every one answered 2xx. Then the time to
// close 100,000 thread ids in one call, and the sandbox's memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { startPrism } from '../src/mock/prism.ts';
import { loadFixtures } from '../src/sandbox/fixtures.ts';
import { freePort, waitForPort } from '../src/util/wait.ts';
import { buildSandbox, cpuSeconds, load, pin, rates, root } from './load.ts';
import { runs, seconds, type Figure } from './stats.ts';

const token = loadFixtures().integratorTokens[0]!;

interface Server {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

async function child(args: string[]): Promise<Server> {
  const port = await freePort();
  const proc = spawn(process.execPath, [...args, String(port)], { cwd: root, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill();
    return exited;
  };
  try {
    await waitForPort('127.0.0.1', port);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, process: proc, stop };
}

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Math.round(Number(line.replace(/\D+/g, '')) / 1024);
}

async function closeMany(url: string, count: number): Promise<number[]> {
  const body = JSON.stringify({ threadIds: Array.from({ length: count }, (_, i) => i + 1), comment: 'bench' });
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    await (await fetch(`${url}/_sandbox/reset`, { method: 'POST' })).text();
    const start = performance.now();
    const res = await fetch(`${url}/api/v1/threads/close`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    });
    const result = (await res.json()) as Record<string, number[]>;
    times.push(performance.now() - start);
    const reported = Object.values(result).reduce((n, list) => n + list.length, 0);
    if (reported !== count) throw new Error(`close reported ${reported} identifiers of ${count}`);
  }
  return times;
}

type Name = keyof typeof rates;

export async function sandboxBenchmark(): Promise<Figure[]> {
  const bin = buildSandbox();
  const started: Server[] = [];
  const start = async (server: Promise<Server>) => {
    started.push(await server);
    return started.at(-1)!;
  };
  const cores = availableParallelism();
  // Servers on core 0, the load generator on the other: neither takes the other's CPU.
  const pinned = cores >= 2 && pin(process.pid, '1');
  try {
    const servers: Record<Name, Server> = {
      plain: await start(child(['--import', 'tsx', 'bench/plain-server.ts'])),
      sandbox: await start(child([bin, '--port'])),
      prism: await start(freePort().then((port) => startPrism({ port }))),
    };
    if (pinned) for (const s of started) pin(s.process.pid!, '0');
    const names = Object.keys(servers) as Name[];
    const requests = (name: Name) => Math.round(rates[name] * seconds);

    // Warm-up at full speed, until the JIT has settled (Prism's takes longest). The sandbox gets
    // more than its requestId window holds (100,000), so it is measured as a long-running one.
    await Promise.all([
      load(servers.plain.url, 10_000),
      load(servers.sandbox.url, 110_000),
      load(servers.prism.url, 4_000),
    ]);
    const rssBefore = rssMiB(servers.sandbox.process.pid!);
    const us: Record<Name, number[]> = { plain: [], sandbox: [], prism: [] };
    // Run -1 is one more warm-up, at the measured load: the garbage of the full-speed warm-up is
    // collected then, not in the first measured run.
    for (let run = -1; run < runs; run++) {
      const order = run % 2 ? names : [...names].reverse();
      const before = order.map((name) => cpuSeconds(servers[name].process.pid!));
      await Promise.all(order.map((name) => load(servers[name].url, requests(name), rates[name])));
      if (run >= 0)
        for (const [i, name] of order.entries())
          us[name].push(((cpuSeconds(servers[name].process.pid!) - before[i]!) / requests(name)) * 1e6);
    }
    const rssAfter = rssMiB(servers.sandbox.process.pid!);
    const close = await closeMany(servers.sandbox.url, 100_000);
    return [
      { label: 'plain node:http: CPU per request', values: us.plain, unit: 'µs', digits: 1 },
      { label: 'sandbox (its requestId window full): CPU per request', values: us.sandbox, unit: 'µs', digits: 1 },
      { label: 'Prism mock: CPU per request', values: us.prism, unit: 'µs', digits: 0 },
      {
        label: 'sandbox / plain node:http, CPU per request',
        values: us.sandbox.map((s, i) => s / us.plain[i]!),
        goal: { atMost: 1.4 },
      },
      {
        label: 'Prism / sandbox, CPU per request',
        values: us.prism.map((p, i) => p / us.sandbox[i]!),
        digits: 1,
        goal: { atLeast: 7 },
      },
      {
        label: 'the load of each run',
        values: `${seconds} s, all at once: plain and sandbox ${rates.plain} requests/s, Prism ${rates.prism}; ${pinned ? 'servers on core 0, autocannon on core 1' : 'not pinned (one core)'}`,
      },
      { label: 'close 100,000 thread ids in one call', values: close, unit: 'ms', digits: 0, goal: { atMost: 250 } },
      { label: 'sandbox RSS before / after the loads', values: `${rssBefore} / ${rssAfter}`, unit: 'MiB' },
    ];
  } finally {
    await Promise.all(started.map((s) => s.stop()));
    if (pinned) pin(process.pid, `0-${cores - 1}`);
  }
}
