import { defineConfig } from 'vitest/config';

// The packages as users get them: packed, installed outside the repository, type-checked and run
// on each supported Node line (npx fetches Node 22, 24 and 26 the first time), and the client
// generators users run, installed apart and run on Node 24 (test/consumer/generators), and the
// release workflow as a contract author runs it (test/workflow: releases and a fourth operation in a copy of the
// repository, each rebuilding generated/), and the legal-choices matrix over each variant of the independent
// implementation alone (test/matrix; `npm test` runs the variant that takes every other answer at once). Slower than
// the rest, so `npm test` leaves them out and `npm run test:packages` (and CI) runs them.
export default defineConfig({
  test: {
    include: ['test/consumer/**/*.test.ts', 'test/workflow/**/*.test.ts', 'test/matrix/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
