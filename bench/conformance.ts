// Wall time of the whole conformance suite against the local sandbox, and of each stage.
import { createSandbox } from '../src/sandbox/server.ts';
import { loadFixtures } from '../src/sandbox/fixtures.ts';
import { runSuite } from '../src/conformance/suite.ts';

export async function conformanceBenchmark(): Promise<Record<string, string | number>> {
  const fixtures = loadFixtures();
  const sandbox = createSandbox({ fixtures });
  const server = await sandbox.listen(0, '127.0.0.1');
  try {
    const start = performance.now();
    const report = await runSuite({
      server,
      credentials: {
        apiKey: fixtures.apiKeys.find((k) => k.balance > 0)!.key,
        apiKeyNoBalance: fixtures.apiKeys.find((k) => k.balance <= 0)!.key,
        integratorToken: fixtures.integratorTokens[0]!,
      },
      values: {},
      seed: 1,
      mock: false,
      profile: 'strict',
      log: () => {},
    });
    const total = performance.now() - start;
    if (!report.ok) throw new Error('the suite failed against the sandbox');
    return {
      'whole suite against the sandbox (s, target < 20)': +(total / 1000).toFixed(2),
      ...Object.fromEntries(Object.entries(report.stageMs).map(([stage, ms]) => [`  stage ${stage} (s)`, +(ms / 1000).toFixed(2)])),
      'checks run': report.results.length,
    };
  } finally {
    await sandbox.close();
  }
}
