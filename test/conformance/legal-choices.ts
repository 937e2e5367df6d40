// Any correct implementation passes: where the description allows several answers (the document's open points), the
// independent implementation takes each other answer behind a switch (test/independent/variants.ts), and the default
// profile must pass every variant: twice with no reset, the second run with the callbacks stage, and the callbacks
// stage alone on a fresh service. Strict may fail a variant, on checks of this contract's decisions only, and must
// fail it on one the implementation as written passes (the switch is seen). `npm test` runs the variant that takes
// every other answer at once (legal-choices.test.ts); `npm run test:packages` runs each variant alone
// (test/matrix/variants.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Variant } from '../independent/variants.ts';
import { callbacksStage } from '../../src/conformance/stages/callbacks.ts';
import { runSuite, stages, type SuiteOptions } from '../../src/conformance/suite/suite.ts';
import type { CallbackOptions } from '../../src/conformance/suite/context.ts';
import { summary } from '../../src/conformance/report.ts';
import { openPoints } from '../../src/core/open-points.ts';
import { freePort } from '../../src/util/wait.ts';
import { startIndependent, type Choices } from '../independent/server.ts';
import { independentVars } from '../independent/vars.ts';
import { variants } from '../independent/variants.ts';

const { apiKey, apiKeyNoBalance, integratorToken, values } = independentVars;

/** A run of the suite against an independent implementation that takes `choices`, posting its callbacks to the suite. */
async function withVariant<T>(
  choices: Choices,
  run: (options: SuiteOptions, callbacks: CallbackOptions) => Promise<T>,
) {
  const port = await freePort();
  const service = await startIndependent({ choices, callbackUrl: `http://127.0.0.1:${port}/`, retryDelaysMs: [300] });
  try {
    const options = {
      server: service.url,
      credentials: { apiKey, apiKeyNoBalance, integratorToken },
      values,
      seed: 1,
      mock: false,
      log: () => {},
    };
    return await run(options, { host: '127.0.0.1', port });
  } finally {
    await service.close();
  }
}
const strictRun = (options: SuiteOptions, callbacks: CallbackOptions) =>
  runSuite({ ...options, profile: 'strict', callbacks }, [...stages, callbacksStage]);

/** The matrix over `selected` variants, with the check that every open point's other answers have a variant. */
export function legalChoices(selected: Variant[]): void {
  describe('every legal implementation passes the default profile', () => {
    /** The checks strict fails for the implementation as written. */
    let baseFailures: Set<string>;
    beforeAll(async () => {
      const report = await withVariant({}, strictRun);
      baseFailures = new Set(report.results.filter((r) => !r.ok).map((r) => r.name));
    }, 30_000);
    it('each answer an open point allows besides the decision is taken by a variant, and each variant takes listed answers', () => {
      const untaken = [...openPoints().values()].flatMap((p) =>
        p.answers
          .filter((a) => a !== p.decision && !variants.some((v) => v.takes[p.id] === a))
          .map((a) => `${p.id}: ${a} (${p.pointer})`),
      );
      expect(untaken, 'open-point answers no variant of test/independent takes').toEqual([]);
      for (const v of variants)
        for (const [id, answer] of Object.entries(v.takes)) {
          const point = openPoints().get(id);
          expect(point?.answers, `${v.name}: ${id}`).toContain(answer);
          expect(answer, `${v.name}: ${id} is the decision`).not.toBe(point?.decision);
        }
    });

    it.each(selected)(
      '$name',
      async ({ choices }) =>
        withVariant(choices, async (options, callbacks) => {
          // A fresh service: its first messages are the callbacks stage's.
          const alone = await runSuite({ ...options, callbacks }, [callbacksStage]);
          expect(alone.ok, `callbacks alone\n${summary(alone)}`).toBe(true);
          const first = await runSuite({ ...options, seed: 2 });
          expect(first.ok, `run 1\n${summary(first)}`).toBe(true);
          const second = await runSuite({ ...options, seed: 3, callbacks }, [...stages, callbacksStage]);
          expect(second.ok, `run 2, with --callbacks\n${summary(second)}`).toBe(true);
          expect(second.results.some((r) => r.stage === 'callbacks')).toBe(true);
          // Strict holds the contract's decisions: it fails the variant on them only, and on one the implementation as
          // written passes (the switch is seen by the suite, so the passes above are the open points' doing).
          const failed = (await strictRun(options, callbacks)).results.filter((r) => !r.ok);
          expect(failed.filter((r) => r.kind !== 'decision').map((r) => `${r.name}: ${r.actual}`)).toEqual([]);
          const seen = Object.keys(choices).length ? failed.filter((r) => !baseFailures.has(r.name)) : failed;
          expect(seen.length, 'strict fails a check the implementation as written passes').toBeGreaterThan(0);
        }),
      60_000,
    );
  });
}
