// The load the sandbox benchmark and the profile put on a server: a fixed number of valid
// schedule-cascade requests (cascade 1001, Viber then SMS) from autocannon at a fixed rate, each
// with a fresh requestId; the CPU time a process tree has run, read from /proc; and the sandbox
// as users run it, the built bin.
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadFixtures } from '../src/sandbox/fixtures.ts';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** The `messaging-sandbox` bin, built from the sources now (about 5 s), so the figures are of the code users run. */
export function buildSandbox(): string {
  execFileSync('npm', ['run', 'build', '-w', 'src/sandbox'], { cwd: root, stdio: 'ignore' });
  return 'src/sandbox/dist/cli.js';
}

export const apiKey = loadFixtures().apiKeys.find((k) => k.balance > 0)!.key;

/**
 * The load the plain server and the sandbox get, in requests a second: one each 0.5 ms, well
 * within what either can answer, so both see the same arrivals. Prism (about 0.5 ms of CPU a
 * request) gets a fifth of it.
 */
export const rates = { plain: 2_000, sandbox: 2_000, prism: 400 };

// One counter for the whole bench process: no server sees a requestId twice.
let next = 0;
const content = JSON.stringify({
  viberContent: { contentType: 'TEXT', text: 'Your order 1234 is ready.' },
  smsContent: { contentType: 'TEXT', text: 'Your order 1234 is ready.' },
});
const scheduleBody = (): string =>
  `{"requestId":"aaaaaaaa-0000-4000-8000-${(next++).toString(16).padStart(12, '0')}","cascadeId":1001,"subscriberFilter":{"address":"79001234567","type":"PHONE"},"content":${content}}`;

/** Sends `amount` requests over 8 connections, `rate` a second when given; throws unless every one got a 2xx. */
export async function load(url: string, amount: number, rate?: number): Promise<void> {
  const result = await autocannon({
    url,
    connections: 8,
    amount,
    ...(rate ? { overallRate: rate } : {}),
    requests: [
      {
        method: 'POST',
        path: '/api/cascade/schedule',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        setupRequest: (req: Record<string, unknown>) => ({ ...req, body: scheduleBody() }),
      },
    ],
  });
  const answered = result['2xx'] as number;
  if (answered !== amount || result.non2xx || result.errors || result.timeouts) {
    throw new Error(
      `${url}: ${answered} of ${amount} requests got a 2xx (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`,
    );
  }
}

const read = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process or thread ended meanwhile
  }
};
const threads = (pid: number) => {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
};
const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
const schedstat = existsSync('/proc/self/schedstat');

/**
 * CPU seconds one process has run: the sum of its threads' run time in nanoseconds
 * (/proc/<pid>/task/<tid>/schedstat; a server's threads live as long as it does), else utime +
 * stime of /proc/<pid>/stat, which counts whole clock ticks (10 ms).
 */
function processCpu(pid: number, stat: string): number {
  if (schedstat) {
    let ns = 0;
    for (const tid of threads(pid)) ns += Number(read(`/proc/${pid}/task/${tid}/schedstat`)?.split(' ')[0] ?? 0);
    return ns / 1e9;
  }
  // Fields after the command name (which may hold spaces) start at state: utime is the 12th, stime the 13th.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / clockTicks;
}

/** CPU seconds `pid` and its descendants have run so far (user + system, every thread). */
export function cpuSeconds(pid: number): number {
  const parents = new Map<number, { ppid: number; stat: string }>();
  for (const name of readdirSync('/proc')) {
    const stat = /^\d+$/.test(name) ? read(`/proc/${name}/stat`) : undefined;
    if (stat) parents.set(Number(name), { ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), stat });
  }
  let seconds = 0;
  const tree = [pid];
  for (const p of tree) {
    const own = parents.get(p);
    if (own) seconds += processCpu(p, own.stat);
    for (const [child, s] of parents) if (s.ppid === p) tree.push(child);
  }
  return seconds;
}

/** Runs `pid`'s threads (and those it starts later) on the given cores, when taskset is there. */
export function pin(pid: number, cores: string): boolean {
  try {
    execFileSync('taskset', ['-a', '-c', '-p', cores, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
