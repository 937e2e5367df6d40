// Judging what really happened. The checking proxy (the built `messaging-conformance proxy` bin) beside a bare
// forwarding proxy (bare-proxy.ts), each in front of the sandbox's bin, loaded in turn in each run with the same valid
// schedule-cascade requests over 50 connections at a fixed rate, taking turns every 100 requests: the figure is the
// ratio of their median latencies
// (goal at most 1.10). Then `messaging-conformance traffic` (the built bin) on a 100,000-line NDJSON log of the
// sandbox's own answers: exchanges per second, and the process's peak memory (VmHWM) beside the log's size.
import { spawn, execFile } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { examplePairs } from '../src/core/examples.ts';
import { freePort, waitForPort } from '../src/util/wait.ts';
import { apiKey, buildSandbox, root } from './load.ts';
import { median, runs, type Figure } from './stats.ts';
import { execFileSync } from 'node:child_process';

const connections = 50;
const rate = 500;
const perRun = 2_000;
/** Requests to one proxy before the other's turn. */
const stretch = 100;

async function child(args: string[], port: number) {
  const proc = spawn(process.execPath, args, { cwd: root, stdio: 'ignore' });
  const exited = once(proc, 'exit');
  await waitForPort('127.0.0.1', port);
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}

let next = 0;
const body = () =>
  JSON.stringify({
    requestId: `bbbbbbbb-0000-4000-8000-${(next++).toString(16).padStart(12, '0')}`,
    cascadeId: 1001,
    subscriberFilter: { address: '79001234567', type: 'PHONE' },
    content: {
      viberContent: { contentType: 'TEXT', text: 'Your order 1234 is ready.' },
      smsContent: { contentType: 'TEXT', text: 'Your order 1234 is ready.' },
    },
  });

/** Latency in ms of each of `count` requests sent at `rate` a second over at most `connections` connections. */
async function latencies(url: string, count: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const times: number[] = [];
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const text = body();
      const start = performance.now();
      const req = request(`${url}/api/cascade/schedule`, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'content-length': Buffer.byteLength(text) },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`${url}: answered ${res.statusCode}`));
          times.push(performance.now() - start);
          resolve();
        });
      });
      req.on('error', reject);
      req.end(text);
    });
  const sent: Array<Promise<void>> = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    sent.push(one());
  }
  await Promise.all(sent);
  agent.destroy();
  return times;
}

/** Peak resident memory of a process in MiB, read as it ends (/proc/<pid>/status VmHWM). */
function peakOf(args: string[]): Promise<{ seconds: number; peakMiB: number; output: string }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const proc = execFile(
      '/bin/sh',
      [
        '-c',
        `"${process.execPath}" ${args.map((a) => `'${a}'`).join(' ')} & pid=$!; peak=0; while kill -0 $pid 2>/dev/null; do p=$(grep VmHWM /proc/$pid/status 2>/dev/null | tr -dc 0-9); [ -n "$p" ] && peak=$p; sleep 0.05; done; wait $pid; echo "exit $? peak $peak"`,
      ],
      { cwd: root, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => {
        if (error) return reject(error);
        const m = /exit (\d+) peak (\d+)\s*$/.exec(stdout);
        if (!m) return reject(new Error(`no peak in ${stdout.slice(-300)}`));
        resolve({ seconds: (performance.now() - start) / 1000, peakMiB: Number(m[2]) / 1024, output: stdout });
      },
    );
    proc.stdin?.end();
  });
}

/** A log of `lines` exchanges: a fresh requestId scheduled in each, answered as the document's example answers. */
async function writeLog(path: string, lines: number) {
  const out = createWriteStream(path);
  const at = Date.parse('2026-11-20T00:00:00Z');
  const example = examplePairs().find((p) => p.operation.operationId === 'scheduleCascade' && p.status === 200)!;
  for (let i = 0; i < lines; i++) {
    const sent = body();
    const answer = JSON.stringify({ ...(example.response as object), requestId: JSON.parse(sent).requestId });
    const line = `${JSON.stringify({
      startedAt: new Date(at + i * 10).toISOString(),
      request: {
        method: 'POST',
        url: 'https://service.example/api/cascade/schedule',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: sent,
      },
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: answer },
    })}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

export async function trafficBenchmark(): Promise<Figure[]> {
  const sandboxBin = buildSandbox();
  execFileSync('npm', ['run', 'build', '-w', 'src/conformance'], { cwd: root, stdio: 'ignore' });
  const bin = 'src/conformance/dist/cli.js';
  const sandboxPort = await freePort();
  const sandbox = await child([sandboxBin, '--port', String(sandboxPort)], sandboxPort);
  const barePort = await freePort();
  const bare = await child(['--import', 'tsx', 'bench/bare-proxy.ts', sandbox.url, String(barePort)], barePort);
  const checkingPort = await freePort();
  const checking = await child([bin, 'proxy', '--target', sandbox.url, '--port', String(checkingPort)], checkingPort);
  const ratios: number[] = [];
  const medians = { bare: [] as number[], checking: [] as number[] };
  try {
    await latencies(bare.url, 500); // warm both up: connections, JIT
    await latencies(checking.url, 500);
    for (let run = 0; run < runs; run++) {
      // Taking turns in short stretches, so a slow moment of the machine falls on both alike.
      const times = { bare: [] as number[], checking: [] as number[] };
      for (let turn = 0; turn < perRun / stretch; turn++) {
        times.bare.push(...(await latencies(bare.url, stretch)));
        times.checking.push(...(await latencies(checking.url, stretch)));
      }
      const [b, c] = [median(times.bare), median(times.checking)];
      medians.bare.push(b);
      medians.checking.push(c);
      ratios.push(c / b);
    }
  } finally {
    await Promise.all([checking.stop(), bare.stop()]);
    await sandbox.stop();
  }
  // The log: the sandbox's answer to one such request, as a recorded answer of each line.
  const dir = mkdtempSync(join(tmpdir(), 'traffic-bench-'));
  const log = join(dir, 'week.ndjson');
  const lines = 100_000;
  await writeLog(log, lines);
  const logMiB = statSync(log).size / 1024 / 1024;
  const judged: number[] = [];
  const peaks: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const { seconds, peakMiB } = await peakOf([bin, 'traffic', log]).catch((error: { stdout?: string }) => {
        throw new Error(`traffic did not judge the log: ${String(error.stdout ?? error).slice(-500)}`);
      });
      judged.push(lines / seconds);
      peaks.push(peakMiB);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return [
    { label: 'proxy: median latency, bare forwarding proxy', values: medians.bare, unit: 'ms' },
    { label: 'proxy: median latency, checking proxy', values: medians.checking, unit: 'ms' },
    {
      label: `proxy: checking / bare median latency (${connections} connections, ${rate}/s)`,
      values: ratios,
      goal: { atMost: 1.1 },
    },
    {
      label: `traffic: exchanges judged per second (${lines.toLocaleString('en-US')}-line NDJSON, the bin from start)`,
      values: judged,
      digits: 0,
    },
    {
      label: `traffic: peak memory of the process (the log: ${logMiB.toFixed(0)} MiB)`,
      values: peaks,
      unit: 'MiB',
      digits: 0,
    },
  ];
}
