// Where the sandbox spends its CPU under the benchmark's load: the built bin under
// `node --cpu-prof`, pinned to one core, autocannon on the other, at the benchmark's rate. Prints
// the top self-time functions and files, and the total (self + callees) of the sandbox's own
// functions, of the samples taken during the measured load (start-up and warm-up left out).
//   npx tsx bench/profile.ts [sandbox|plain] [requests] [bin]
// Default: the sandbox, 40,000 requests (20 s). `plain` profiles the node:http baseline the same
// way; `bin` is another build of the sandbox's cli.js (an older one, to compare). PROFILE_KEEP=1
// keeps the .cpuprofile, for Chrome DevTools.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitForPort } from '../src/util/wait.ts';
import { buildSandbox, cpuSeconds, load, pin, rates, root } from './load.ts';

interface Profile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const target = process.argv[2] ?? 'sandbox';
const requests = Number(process.argv[3] ?? 40_000);
const args =
  target === 'plain' ? ['--import', 'tsx', 'bench/plain-server.ts'] : [process.argv[4] ?? buildSandbox(), '--port'];
const dir = mkdtempSync(join(tmpdir(), 'mc-profile-'));
const port = await freePort();
// V8's default sample interval (1 ms): a shorter one doubled the CPU per request.
const server = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, ...args, String(port)], {
  cwd: root,
  stdio: 'ignore',
});
const exited = new Promise((resolve) => server.once('exit', resolve));
const pinned = pin(server.pid!, '0') && pin(process.pid, '1');
// V8's profile timestamps and process.hrtime share the monotonic clock: keep the samples of the load.
const micros = () => Number(process.hrtime.bigint() / 1000n);
let window: [number, number] = [0, 0];
try {
  await waitForPort('127.0.0.1', port);
  const url = `http://127.0.0.1:${port}`;
  await load(url, 5_000); // warm-up: the JIT settles
  const cpuBefore = cpuSeconds(server.pid!);
  window = [micros(), 0];
  await load(url, requests, rates.sandbox);
  window[1] = micros();
  console.log(
    `${target}: ${(((cpuSeconds(server.pid!) - cpuBefore) / requests) * 1e6).toFixed(1)} µs of CPU per request under the profiler, ${requests} requests at ${rates.sandbox}/s${pinned ? ', server on core 0' : ''}`,
  );
} finally {
  server.kill('SIGTERM'); // the CLI exits on SIGTERM, and --cpu-prof writes the profile then
  await exited;
  if (pinned) pin(process.pid, '0-1');
}

const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
if (process.env.PROFILE_KEEP) console.log(`profile: ${file}`);
else rmSync(dir, { recursive: true, force: true });

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map(profile.nodes.flatMap((n) => (n.children ?? []).map((c) => [c, n.id] as const)));
const place = (url: string) => (url.startsWith('file:') ? relative(root, fileURLToPath(url)) : url);
const label = (f: Profile['nodes'][number]['callFrame']) =>
  `${f.functionName || '(anonymous)'}  ${f.url ? `${place(f.url)}:${f.lineNumber + 1}` : ''}`;
const self = new Map<string, number>();
const byFile = new Map<string, number>();
const own = new Map<string, number>(); // the server's own functions (not Node's, not a package's), self + callees
const add = (m: Map<string, number>, key: string) => m.set(key, (m.get(key) ?? 0) + 1);
let total = 0;
let at = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i]!;
  const frame = nodes.get(profile.samples[i]!)!.callFrame;
  if (at < window[0] || at > window[1] || frame.functionName === '(idle)') continue;
  total++;
  add(self, label(frame));
  add(
    byFile,
    frame.url.startsWith('file:')
      ? place(frame.url).replace(/^node_modules\/((?:@[^/]+\/)?[^/]+).*/, '$1')
      : frame.url || frame.functionName,
  );
  const stack = new Set<string>();
  for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id)) {
    const f = nodes.get(id)!.callFrame;
    if (f.url.startsWith('file:') && !f.url.includes('/node_modules/') && f.functionName) stack.add(label(f));
  }
  for (const key of stack) add(own, key);
}
const top = (m: Map<string, number>, n: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `  ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`)
    .join('\n');
console.log(
  `${total} samples, idle left out\n\ntop self time, by function:\n${top(self, 20)}\n\nby file or package:\n${top(byFile, 12)}\n\ntotal time (self + callees) of the server's own functions:\n${top(own, 15)}`,
);
