import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The files that take longest start first, so that neither worker is left with one at the end.
 * Vitest does this itself from the durations of the last run, but a fresh clone (CI) has none.
 */
const slowest = [
  'conformance/legal-choices',
  'conformance/suite',
  'conformance/cli',
  'conformance/verdicts',
  'conformance/mutations-sandbox',
  'conformance/rate-limit',
  'diff/gate',
  'conformance/mutations-independent',
  'conformance/independent',
  'conformance/readme',
  'conformance/callbacks-sandbox',
  'conformance/callbacks-independent',
  'conformance/seeds',
  'sandbox/hostile',
  'words',
  'trace',
  // 5 to 10 s each; without them here, a fresh clone would order them by file size among the quick ones.
  'diff/direction',
  'generated',
  'docs-samples',
  'diff/classify',
  'generators/document',
  'stop-under-npm',
];
const rank = (file: TestSpecification) => {
  const at = slowest.findIndex((name) => file.moduleId.endsWith(`test/${name}.test.ts`));
  return at < 0 ? slowest.length : at;
};

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Browser tests (vitest.e2e.config.ts), the packed packages and the release workflow
    // (vitest.packages.config.ts) run apart.
    exclude: ['test/e2e/**', 'test/consumer/**', 'test/workflow/**', 'test/matrix/**', 'node_modules/**'],
    // Four workers on two cores: several files mostly wait (on a callback's retry, a stalled server, a child
    // process), and the other workers keep the cores busy meanwhile.
    maxWorkers: 4,
    // Files of a worker share its modules: the document, the compiled validators and Dredd load
    // once per worker, not once per file (a quarter of the run's CPU). No test relies on a fresh
    // module; the ones about a fresh process start one.
    isolate: false,
    sequence: { sequencer: SlowestFirst },
    globalSetup: ['test/helpers/prism-global.ts', 'test/helpers/bins-global.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
