import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Browser tests (vitest.e2e.config.ts) and the packed packages (vitest.packages.config.ts) run apart.
    exclude: ['test/e2e/**', 'test/consumer/**', 'node_modules/**'],
    // Two workers on two cores (vitest's default leaves one idle).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
