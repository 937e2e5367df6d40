// A Prism mock for one test file: started before its tests, always stopped after.
import { afterAll, beforeAll } from 'vitest';
import { startPrism, type RunningPrism } from '../../src/mock/prism.ts';
import { freePort } from '../../src/util/wait.ts';

export function usePrismMock(): { readonly url: string } {
  let prism: RunningPrism | undefined;
  beforeAll(async () => {
    prism = await startPrism({ port: await freePort() });
  });
  afterAll(async () => {
    await prism?.stop();
  });
  return {
    get url() {
      return prism!.url;
    },
  };
}
