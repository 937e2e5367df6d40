// Wall time of the whole conformance suite against the local sandbox, and of each stage; and the
// deadline path: a run against a server that stalls every API request must end within its
// deadline plus 5 s.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
      ...(await deadlinePath()),
    };
  } finally {
    await sandbox.close();
  }
}

/** A full run (all stages, Dredd included) against a server that answers `/` and stalls the rest. */
async function deadlinePath(): Promise<Record<string, string | number>> {
  const stalling = createServer((req, res) => (req.url === '/' ? res.end('ok') : req.resume()));
  await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
  const deadlineMs = 5_000;
  try {
    const start = performance.now();
    const report = await runSuite({
      server: `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`,
      credentials: { apiKey: 'bench-key', integratorToken: 'bench-token' },
      values: {},
      seed: 1,
      mock: false,
      profile: 'strict',
      log: () => {},
      deadlineMs,
    });
    const ms = performance.now() - start;
    return {
      'a run against a stalling server, deadline 5 s (s)': +(ms / 1000).toFixed(2),
      '  ended within the deadline + 5 s, not passed': String(ms <= deadlineMs + 5_000 && !report.ok),
    };
  } finally {
    stalling.closeAllConnections();
    stalling.close();
  }
}
