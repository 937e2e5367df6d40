// What a user's app pays for the client: the three entries packed, installed from the tarball into
// an empty project, and bundled the way an app bundles them (esbuild, minified; openapi-fetch
// included), with gzip beside, against the budgets the consumer test (test/consumer) holds. Sizes are
// the same each run: one run.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bundleEntries, entryBudgets, entryImports, installProject, packPackages } from '../test/helpers/packages.ts';
import type { Figure, Goal } from './stats.ts';

/** The consumer test's budgets, in kB. */
const goalOf = (label: string): Goal | undefined =>
  Object.hasOwn(entryBudgets, label) ? { atMost: entryBudgets[label as keyof typeof entryBudgets] / 1000 } : undefined;

export async function packagesBenchmark(): Promise<Figure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'mc-bench-packages-'));
  try {
    const tarballs = await packPackages(join(dir, 'packs'));
    const project = join(dir, 'project');
    await installProject(project, [tarballs.client]);
    const figures: Figure[] = [];
    for (const [label, code] of Object.entries(await bundleEntries(project, entryImports))) {
      figures.push({ label: `${label} minified`, values: code.length / 1000, unit: 'kB', goal: goalOf(label) });
      figures.push({ label: `${label} minified + gzip`, values: gzipSync(code).length / 1000, unit: 'kB' });
    }
    for (const [name, tarball] of Object.entries(tarballs))
      figures.push({
        label: `${name} tarball`,
        values: (await readFile(tarball)).length / 1000,
        unit: 'kB',
        digits: 1,
      });
    return figures;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
