// The Prism mock of the run, started once for every file by test/helpers/prism-global.ts.
import { inject } from 'vitest';

export function usePrismMock(): { readonly url: string } {
  return {
    get url() {
      return inject('prismUrl');
    },
  };
}
