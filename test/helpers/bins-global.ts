// The command-line tools the tests run many times, bundled once for the whole run (vitest
// globalSetup): under tsx each start costs half a second of CPU transforming the sources. The
// conformance bin is the package build's bundle (src/build/bundle.ts), as users run it; the diff
// gate, a root script, is bundled the same way with its dependencies left as imports. Both go in a
// folder of node_modules, so those imports resolve from the repository.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { bundleCode, packageSource } from '../../src/build/bundle.ts';
import { projectRoot } from '../../src/paths.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    conformanceBin: string;
    diffBin: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = join(projectRoot, 'node_modules/.cache/messaging-contract-tests', `bins-${process.pid}`);
  await Promise.all([
    bundleCode(packageSource(join(projectRoot, 'src/conformance')), join(dir, 'conformance'), ['cli']),
    build({
      entryPoints: { diff: join(projectRoot, 'src/diff/cli.ts') },
      outdir: dir,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.19',
      packages: 'external',
      logLevel: 'warning',
    }),
  ]);
  project.provide('conformanceBin', join(dir, 'conformance/cli.js'));
  project.provide('diffBin', join(dir, 'diff.js'));
  return () => rmSync(dir, { recursive: true, force: true });
}
