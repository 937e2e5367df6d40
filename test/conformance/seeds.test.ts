// Breadth without false failures: the generated requests of ten seeds, against the sandbox and
// against the independent implementation, each a service that keeps running (no reset), pass.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summary } from '../../src/conformance/report.ts';
import { generatedStage } from '../../src/conformance/stages/generated.ts';
import { runSuite, suiteContext } from '../../src/conformance/suite/suite.ts';
import { startIndependent } from '../independent/server.ts';
import { independentVars } from '../independent/vars.ts';
import { credentials, listenSandbox } from '../helpers/sandbox.ts';

const { values, ...independentCredentials } = independentVars;
const services: Array<{
  name: string;
  url: string;
  close(): Promise<void>;
  credentials: typeof credentials;
  values: Record<string, unknown>;
}> = [];
beforeAll(async () => {
  const sandbox = await listenSandbox();
  const independent = await startIndependent();
  services.push({ name: 'the sandbox', url: sandbox.url, close: () => sandbox.close(), credentials, values: {} });
  services.push({
    name: 'the independent implementation',
    url: independent.url,
    close: () => independent.close(),
    credentials: independentCredentials,
    values,
  });
});
afterAll(async () => {
  for (const s of services) await s.close();
});

describe('ten seeds of generated requests, no false failure', () => {
  it.each(Array.from({ length: 10 }, (_, i) => i + 1))(
    'seed %i',
    async (seed) => {
      for (const service of services) {
        const report = await runSuite(
          suiteContext({
            server: service.url,
            credentials: service.credentials,
            values: service.values,
            seed,
            mock: false,
            log: () => {},
          }),
          [generatedStage],
        );
        expect(report.ok, `${service.name}: ${summary(report)}`).toBe(true);
      }
    },
    30_000,
  );
});
