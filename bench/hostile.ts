// Hostile input, measured: one request with many invalid thread ids (the work must be linear in
// the count), the sandbox's memory after a million distinct schedules (bounded by its windows),
// and the client's memory against an endless body (bounded by maxResponseBytes).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loadFixtures } from '../src/sandbox/fixtures.ts';
import { createSandbox } from '../src/sandbox/server.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const child = async (script: string, ...args: string[]) =>
  JSON.parse((await run(process.execPath, ['--expose-gc', '--import', 'tsx', script, ...args], { cwd: root, maxBuffer: 1 << 20 })).stdout) as Record<string, number | boolean>;

const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return `${s[0]!.toFixed(0)} / ${s[Math.floor(s.length / 2)]!.toFixed(0)} / ${s.at(-1)!.toFixed(0)}`;
};

export async function hostileBenchmark(): Promise<Record<string, string | number>> {
  const fixtures = loadFixtures();
  const sandbox = createSandbox({ fixtures, bodyLimitBytes: 64 * 1024 * 1024 });
  const url = await sandbox.listen(0, '127.0.0.1');
  const figures: Record<string, string | number> = {};
  try {
    const medians: number[] = [];
    for (const count of [80_000, 1_000_000]) {
      const body = JSON.stringify({ threadIds: Array.from({ length: count }, (_, i) => `id-${i}`) });
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        const res = await fetch(`${url}/api/v1/threads/close`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${fixtures.integratorTokens[0]}` }, body });
        await res.text();
        if (res.status !== 500) throw new Error(`expected the system-error problem, got ${res.status}`);
        times.push(performance.now() - start);
      }
      medians.push([...times].sort((a, b) => a - b)[2]!);
      figures[`${count.toLocaleString('en-US')} invalid thread ids in one request (ms, min / median / max of 5)`] = stats(times);
    }
    figures['1,000,000 vs 80,000 ids: time ratio (linear would be 12.5)'] = +(medians[1]! / medians[0]!).toFixed(1);
  } finally {
    await sandbox.close();
  }
  const schedules = await child('bench/hostile/schedules.ts', '1000000');
  figures['sandbox RSS after 1,000,000 distinct schedules (MiB, goal < 200)'] = schedules.rssMiB as number;
  figures['  requestIds remembered (the window holds 100,000)'] = schedules.requestIds as number;
  const endless = await child('bench/hostile/endless.ts');
  figures['client against an endless body: stopped at maxResponseBytes'] = String(endless.stopped);
  figures['  peak RSS above baseline (MiB, goal < 64)'] = endless.peakAboveBaselineMiB as number;
  return figures;
}
