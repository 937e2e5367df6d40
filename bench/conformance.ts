// Wall time of the whole conformance suite against the local sandbox, and of each stage, over the
// runs (a fresh sandbox each); and the deadline path: a run against a server that stalls every API
// request must end, not passed, within its deadline plus 5 s.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandbox } from '../src/sandbox/server.ts';
import { loadFixtures } from '../src/sandbox/fixtures.ts';
import { runSuite } from '../src/conformance/suite.ts';
import { runs, type Figure } from './stats.ts';

const fixtures = loadFixtures();
const credentials = {
  apiKey: fixtures.apiKeys.find((k) => k.balance > 0)!.key,
  apiKeyNoBalance: fixtures.apiKeys.find((k) => k.balance <= 0)!.key,
  integratorToken: fixtures.integratorTokens[0]!,
};

async function suiteAgainstSandbox(): Promise<{ seconds: number; stageSeconds: Record<string, number>; checks: number }> {
  const sandbox = createSandbox({ fixtures });
  const server = await sandbox.listen(0, '127.0.0.1');
  try {
    const start = performance.now();
    const report = await runSuite({ server, credentials, values: {}, seed: 1, mock: false, profile: 'strict', log: () => {} });
    const seconds = (performance.now() - start) / 1000;
    if (!report.ok) throw new Error('the suite failed against the sandbox');
    return { seconds, stageSeconds: Object.fromEntries(Object.entries(report.stageMs).map(([stage, ms]) => [stage, ms / 1000])), checks: report.results.length };
  } finally {
    await sandbox.close();
  }
}

/** A full run (all stages, Dredd included) against a server that answers `/` and stalls the rest. */
async function deadlinePath(deadlineMs: number): Promise<{ seconds: number; endedInTime: boolean }> {
  const stalling = createServer((req, res) => (req.url === '/' ? res.end('ok') : req.resume()));
  await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
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
    return { seconds: ms / 1000, endedInTime: ms <= deadlineMs + 5_000 && !report.ok };
  } finally {
    stalling.closeAllConnections();
    stalling.close();
  }
}

export async function conformanceBenchmark(): Promise<Figure[]> {
  const suite: Array<Awaited<ReturnType<typeof suiteAgainstSandbox>>> = [];
  for (let run = 0; run < runs; run++) suite.push(await suiteAgainstSandbox());
  const deadline: Array<Awaited<ReturnType<typeof deadlinePath>>> = [];
  for (let run = 0; run < runs; run++) deadline.push(await deadlinePath(5_000));
  return [
    { label: 'whole suite against the sandbox', values: suite.map((r) => r.seconds), unit: 's', goal: { atMost: 1.5 } },
    ...Object.keys(suite[0]!.stageSeconds).map((stage) => ({ label: `  stage ${stage}`, values: suite.map((r) => r.stageSeconds[stage]!), unit: 's' })),
    { label: 'checks run', values: suite[0]!.checks, digits: 0 },
    { label: 'a run against a stalling server, deadline 5 s', values: deadline.map((r) => r.seconds), unit: 's' },
    { label: '  every run ended within the deadline + 5 s, not passed', values: String(deadline.every((r) => r.endedInTime)) },
  ];
}
