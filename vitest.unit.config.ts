import { defineConfig } from 'vitest/config';

/**
 * `npm run test:unit`, the inner loop: the tests that start no process and open no port (the
 * setup file fails any that does), in a few seconds. `npm test` runs them too, with the rest.
 */
export default defineConfig({
  test: {
    include: [
      'test/architecture.test.ts',
      'test/contract-facts.test.ts',
      'test/examples.test.ts',
      'test/examples-strict.test.ts',
      'test/client/types.test.ts',
      'test/client/violations.test.ts',
      'test/client/webhooks.test.ts',
      'test/client/readme.test.ts',
      'test/diff/classify.test.ts',
      'test/diff/versions.test.ts',
      'test/open-points.test.ts',
      'test/quiet.test.ts',
      'test/sandbox-readme.test.ts',
    ],
    setupFiles: ['test/helpers/no-processes-no-ports.ts'],
    maxWorkers: 2,
  },
});
