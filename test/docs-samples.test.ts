// Every code sample of the docs page runs against the sandbox: curl in a shell, the typed client
// under tsx (its import pointed at the sources), fetch under plain Node. Each must get a success
// answer valid against the document, so no sample can rot.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { documentOperations } from '../src/core/examples.ts';
import { validator } from '../src/core/validators/all.ts';
import { codeSamples, sampleEnv, sampleExample } from '../src/docs/samples.ts';
import { projectRoot } from '../src/paths.ts';
import { credentials, useSandbox } from './helpers/sandbox.ts';

const run = promisify(execFile);
const sandbox = useSandbox();
const dir = mkdtempSync(join(tmpdir(), 'mc-samples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = () => ({
  ...process.env,
  [sampleEnv.baseUrl]: sandbox.url,
  [sampleEnv.apiKey]: credentials.apiKey,
  [sampleEnv.integratorToken]: credentials.integratorToken,
});
const cases = documentOperations().flatMap((op) =>
  codeSamples(op).map((sample) => [`${op.operationId} ${sample.label}`, op, sample] as const),
);

describe("the docs page's code samples run against the sandbox", () => {
  it('each operation has curl, the client and fetch', () => {
    expect(cases.map(([label]) => label.split(' ').slice(1).join(' '))).toEqual(
      documentOperations().flatMap(() => ['curl', '@messaging-contract/client', 'fetch']),
    );
  });

  it.each(cases)(
    '%s',
    async (_label, op, sample) => {
      sandbox.reset(); // each sample starts from the fixtures (a subscriber is created once)
      const valid = validator(sampleExample(op).responseSchemaPointer);
      if (sample.label === 'curl') {
        const { stdout } = await run('bash', ['-c', `set -euo pipefail\n${sample.source}`], { env: env() });
        const body = JSON.parse(stdout);
        expect(body.title, stdout).toBeUndefined();
        expect(valid(body).errors).toEqual([]);
      } else if (sample.label === 'fetch') {
        const file = join(dir, `${op.operationId}-fetch.mjs`);
        writeFileSync(file, sample.source);
        const { stdout } = await run(process.execPath, [file], { env: env() });
        expect(stdout).toMatch(/^200 /);
      } else {
        const file = join(dir, `${op.operationId}-client.mts`);
        writeFileSync(
          file,
          sample.source.replace(
            "'@messaging-contract/client'",
            JSON.stringify(join(projectRoot, 'src/client/index.ts')),
          ),
        );
        const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { env: env(), cwd: projectRoot });
        expect(stdout.length).toBeGreaterThan(0);
        if (op.operationId === 'scheduleCascade') expect(stdout).toMatch(/requestId: '[0-9a-f-]{36}'/);
        if (op.operationId === 'closeThreads') expect(stdout).toContain('resolved_threads: [ 101 ]');
      }
    },
    30_000,
  );
});
