// One Prism mock for the whole run (vitest globalSetup): Prism is stateless, and each start costs
// a second and a half of CPU. Files reach it through usePrismMock().
import type { TestProject } from 'vitest/node';
import { startPrism } from '../../src/mock/prism.ts';
import { freePort } from '../../src/util/wait.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    prismUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const prism = await startPrism({ port: await freePort() });
  project.provide('prismUrl', prism.url);
  return () => prism.stop();
}
