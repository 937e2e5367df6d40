// The conformance bin, which tests start many times, bundled once for the whole run (vitest
// globalSetup): under tsx each start costs half a second of CPU transforming the sources. It is the
// package build's bundle (src/build/bundle.ts), as users run it, in a folder of node_modules, so its
// imports resolve from the repository.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { bundleCode, packageSource } from '../../src/build/bundle.ts';
import { projectRoot } from '../../src/paths.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    conformanceBin: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = join(projectRoot, 'node_modules/.cache/messaging-contract-tests', `bins-${process.pid}`);
  await bundleCode(packageSource(join(projectRoot, 'src/conformance')), join(dir, 'conformance'), ['cli']);
  project.provide('conformanceBin', join(dir, 'conformance/cli.js'));
  return () => rmSync(dir, { recursive: true, force: true });
}
