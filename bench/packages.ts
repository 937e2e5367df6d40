// What a user's app pays for the client: the three entries packed, installed from the tarball into
// an empty project, and bundled the way an app bundles them (esbuild, minified; openapi-fetch
// included), with gzip beside. The consumer test (test/consumer) holds the three budgets. Sizes are
// the same each run: one run.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bundleEntries, entryImports, installProject, packPackages } from '../test/helpers/packages.ts';
import type { Figure, Goal } from './stats.ts';

const budgets: Record<string, Goal | undefined> = {
  '@messaging-contract/client (createMessagingClient)': { atMost: 18.5 },
  '@messaging-contract/client/webhooks (parseStatusCallback)': { atMost: 30 },
  '@messaging-contract/client/preflight (createValidatingClient)': { atMost: 125 },
};

export async function packagesBenchmark(): Promise<Figure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'mc-bench-packages-'));
  try {
    const tarballs = await packPackages(join(dir, 'packs'));
    const project = join(dir, 'project');
    await installProject(project, [tarballs.client]);
    const figures: Figure[] = [];
    for (const [label, code] of Object.entries(await bundleEntries(project, entryImports))) {
      figures.push({ label: `${label} minified`, values: code.length / 1000, unit: 'kB', goal: budgets[label] });
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
