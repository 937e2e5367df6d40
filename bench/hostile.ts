// Hostile input, measured: one request with many invalid thread ids (the work must be linear in
// the count), the sandbox's memory after a million distinct schedules (bounded by its windows),
// and the client's memory against an endless body (bounded by maxResponseBytes). The memory
// figures are one run each.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loadFixtures } from '../src/sandbox/fixtures.ts';
import { createSandbox } from '../src/sandbox/server.ts';
import { runs, type Figure } from './stats.ts';

const exec = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const child = async (script: string, ...args: string[]) =>
  JSON.parse(
    (
      await exec(process.execPath, ['--expose-gc', '--import', 'tsx', script, ...args], {
        cwd: root,
        maxBuffer: 1 << 20,
      })
    ).stdout,
  ) as Record<string, number | boolean>;

const fixtures = loadFixtures();
const post = async (url: string, body: string) => {
  const start = performance.now();
  const res = await fetch(`${url}/api/v1/threads/close`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${fixtures.integratorTokens[0]}` },
    body,
  });
  await res.text();
  if (res.status !== 500) throw new Error(`expected the system-error problem, got ${res.status}`);
  return performance.now() - start;
};

export async function hostileBenchmark(): Promise<Figure[]> {
  const sandbox = createSandbox({ fixtures, bodyLimitBytes: 64 * 1024 * 1024 });
  const url = await sandbox.listen(0, '127.0.0.1');
  const figures: Figure[] = [];
  try {
    const bodies = [80_000, 1_000_000].map((count) =>
      JSON.stringify({ threadIds: Array.from({ length: count }, (_, i) => `id-${i}`) }),
    );
    const ms: number[][] = [[], []];
    // Side by side: each run times both sizes, in alternating order.
    for (let run = 0; run < runs; run++) {
      for (const i of run % 2 ? [1, 0] : [0, 1]) ms[i]!.push(await post(url, bodies[i]!));
    }
    figures.push({ label: '80,000 invalid thread ids in one request', values: ms[0]!, unit: 'ms', digits: 0 });
    figures.push({ label: '1,000,000 invalid thread ids in one request', values: ms[1]!, unit: 'ms', digits: 0 });
    figures.push({
      label: '1,000,000 vs 80,000 ids: time ratio (linear would be 12.5)',
      values: ms[1]!.map((t, i) => t / ms[0]![i]!),
      digits: 1,
    });
  } finally {
    await sandbox.close();
  }
  const schedules = await child('bench/hostile/schedules.ts', '1000000');
  figures.push({
    label: 'sandbox RSS after 1,000,000 distinct schedules',
    values: schedules.rssMiB as number,
    unit: 'MiB',
    digits: 0,
    goal: { atMost: 200 },
  });
  figures.push({ label: '  heap in use after a full GC', values: schedules.heapMiB as number, unit: 'MiB', digits: 0 });
  figures.push({
    label: '  requestIds remembered (the window holds 100,000)',
    values: schedules.requestIds as number,
    digits: 0,
  });
  const endless = await child('bench/hostile/endless.ts');
  figures.push({
    label: 'client against an endless body: stopped at maxResponseBytes',
    values: String(endless.stopped),
  });
  figures.push({
    label: '  peak RSS above baseline',
    values: endless.peakAboveBaselineMiB as number,
    unit: 'MiB',
    digits: 0,
    goal: { atMost: 64 },
  });
  return figures;
}
