// The Prism mock of the run, started once for every file by test/helpers/prism-global.ts.
import { beforeAll, inject } from 'vitest';
import { waitForPort } from '../../src/util/wait.ts';

/** The run's Prism mock; a file that uses it waits, before its tests, until Prism listens. */
export function usePrismMock(): { readonly url: string } {
  beforeAll(async () => {
    const { hostname, port } = new URL(inject('prismUrl'));
    await waitForPort(hostname, Number(port));
  });
  return {
    get url() {
      return inject('prismUrl');
    },
  };
}
