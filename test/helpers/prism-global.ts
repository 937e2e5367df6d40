// One Prism mock for the whole run (vitest globalSetup): Prism is stateless, and each start costs
// a second and a half of CPU. It starts while the tests do: files reach it through usePrismMock(),
// which waits until it listens.
import type { TestProject } from 'vitest/node';
import { launchPrism } from '../../src/mock/prism.ts';
import { freePort } from '../../src/util/wait.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    prismUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const prism = launchPrism({ port: await freePort() });
  project.provide('prismUrl', prism.url);
  return () => prism.stop();
}
