// The conformance suite against the local sandbox, as users run it: the built messaging-conformance
// bin in a fresh process (Node's start and Dredd's loading included), over the runs; each stage's
// time in one process, after its first run; and the deadline path: a run against a server whose
// API never answers must end, not passed, within its deadline plus 5 s, the process included.
import { execFile, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandbox } from '../src/sandbox/server.ts';
import { loadFixtures } from '../src/sandbox/fixtures.ts';
import { runSuite } from '../src/conformance/suite/suite.ts';
import { root } from './load.ts';
import { runs, type Figure } from './stats.ts';
import { startIndependent } from '../test/independent/server.ts';
import { independentVars } from '../test/independent/vars.ts';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const fixtures = loadFixtures();
const credentials = {
  apiKey: fixtures.apiKeys.find((k) => k.balance > 0)!.key,
  apiKeyNoBalance: fixtures.apiKeys.find((k) => k.balance <= 0)!.key,
  integratorToken: fixtures.integratorTokens[0]!,
};
const credentialArgs = [
  '--api-key',
  credentials.apiKey,
  '--api-key-no-balance',
  credentials.apiKeyNoBalance,
  '--integrator-token',
  credentials.integratorToken,
];
const keys = [...credentialArgs, '--profile', 'strict'];

/** The bin, built from the sources now, so the figures are of the code users run. */
function buildConformance(): string {
  execFileSync('npm', ['run', 'build', '-w', 'src/conformance'], { cwd: root, stdio: 'ignore' });
  return 'src/conformance/dist/cli.js';
}

/** Seconds from starting the bin to its exit, and its exit code. */
function timeBin(bin: string, args: string[]): Promise<{ seconds: number; code: number }> {
  const start = performance.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: root, maxBuffer: 64 * 1024 * 1024 }, (error) =>
      resolve({
        seconds: (performance.now() - start) / 1000,
        code: error ? ((error as { code?: number }).code ?? 1) : 0,
      }),
    );
  });
}

/**
 * Stage times of repeated runs in one process, the first left out (it loads Dredd), and the checks per second of each
 * run.
 */
async function stagesInOneProcess(
  server: string,
): Promise<{ times: Array<Record<string, number>>; checksPerSecond: number[] }> {
  const times: Array<Record<string, number>> = [];
  const checksPerSecond: number[] = [];
  for (let run = 0; run <= runs; run++) {
    const report = await runSuite({
      server,
      credentials,
      values: {},
      seed: run + 1,
      mock: false,
      profile: 'strict',
      log: () => {},
    });
    if (!report.ok) throw new Error('the suite failed against the sandbox');
    if (run === 0) continue;
    times.push(Object.fromEntries(Object.entries(report.stageMs).map(([stage, ms]) => [stage, ms / 1000])));
    checksPerSecond.push(report.results.length / (Object.values(report.stageMs).reduce((a, b) => a + b, 0) / 1000));
  }
  return { times, checksPerSecond };
}

export async function conformanceBenchmark(): Promise<Figure[]> {
  const bin = buildConformance();
  const sandbox = createSandbox({ fixtures });
  const server = await sandbox.listen(0, '127.0.0.1');
  // Everything but the API answers, so the run reaches Dredd, whose first request then waits.
  const stalling = createServer((req, res) => (req.url?.startsWith('/api/') ? req.resume() : res.writeHead(404).end()));
  // A service that shares no code with the sandbox, run as a persistent staging: no reset, the default profile.
  const independent = await startIndependent();
  const vars = join(tmpdir(), `mc-bench-independent-${process.pid}.json`);
  writeFileSync(vars, JSON.stringify(independentVars));
  await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
  try {
    const cli: Array<{ seconds: number; code: number }> = [];
    const described: Array<{ seconds: number; code: number }> = [];
    const deadline: Array<{ seconds: number; code: number }> = [];
    const other: Array<{ seconds: number; code: number }> = [];
    for (let run = 0; run < runs; run++) {
      described.push(await timeBin(bin, ['--server', server, ...credentialArgs, '--seed', String(run + 1)]));
      cli.push(await timeBin(bin, ['--server', server, ...keys]));
      other.push(await timeBin(bin, ['--server', independent.url, '--vars', vars]));
      deadline.push(
        await timeBin(bin, [
          '--server',
          `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`,
          ...keys,
          '--deadline',
          '5',
          '--timeout',
          '60',
        ]),
      );
    }
    if ([...cli, ...described].some((r) => r.code !== 0))
      throw new Error('the conformance bin failed against the sandbox');
    if (other.some((r) => r.code !== 0))
      throw new Error('the conformance bin failed against the independent implementation');
    const { times: stages, checksPerSecond } = await stagesInOneProcess(server);
    return [
      {
        label:
          'messaging-conformance bin against the sandbox, default run (described profile, a new seed each run), start to exit',
        values: described.map((r) => r.seconds),
        unit: 's',
        goal: { atMost: 5 },
      },
      {
        label: 'messaging-conformance bin against the sandbox, --profile strict, start to exit',
        values: cli.map((r) => r.seconds),
        unit: 's',
      },
      { label: 'checks per second (strict, in one process)', values: checksPerSecond, unit: '/s' },
      {
        label: 'the bin against the independent implementation, no reset, default profile (every run passed)',
        values: other.map((r) => r.seconds),
        unit: 's',
      },
      ...Object.keys(stages[0]!).map((stage) => ({
        label: `  stage ${stage} (in one process, after its first run)`,
        values: stages.map((r) => r[stage]!),
        unit: 's',
      })),
      {
        label: 'the bin against a server whose API never answers, deadline 5 s',
        values: deadline.map((r) => r.seconds),
        unit: 's',
      },
      {
        label: '  every such run exited 2 within the deadline + 5 s',
        values: String(deadline.every((r) => r.code === 2 && r.seconds <= 10)),
      },
    ];
  } finally {
    await independent.close();
    await sandbox.close();
    stalling.closeAllConnections();
    stalling.close();
  }
}
