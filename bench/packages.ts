// What a user's app pays for the client: the three entries packed, installed from the tarball into
// an empty project, and bundled the way an app bundles them (esbuild, minified; openapi-fetch
// included), with gzip beside. The consumer test (test/consumer) holds the two budgets.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bundleEntries, entryImports, installProject, packPackages } from '../test/helpers/packages.ts';

const budgets: Record<string, string> = {
  '@messaging-contract/client (createMessagingClient)': 'target <= 15.5 kB',
  '@messaging-contract/client/webhooks (parseStatusCallback)': 'target <= 30 kB',
  '@messaging-contract/client/preflight (createValidatingClient)': 'no target',
};

export async function packagesBenchmark(): Promise<Record<string, string | number>> {
  const dir = await mkdtemp(join(tmpdir(), 'mc-bench-packages-'));
  try {
    const tarballs = await packPackages(join(dir, 'packs'));
    const project = join(dir, 'project');
    await installProject(project, [tarballs.client]);
    const figures: Record<string, string | number> = {};
    for (const [label, code] of Object.entries(await bundleEntries(project, entryImports))) {
      figures[`${label} minified (kB, ${budgets[label]})`] = +(code.length / 1000).toFixed(2);
      figures[`${label} minified + gzip (kB)`] = +(gzipSync(code).length / 1000).toFixed(2);
    }
    for (const [name, tarball] of Object.entries(tarballs)) figures[`${name} tarball (kB)`] = +((await readFile(tarball)).length / 1000).toFixed(1);
    return figures;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
