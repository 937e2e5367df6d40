// generated/ is committed and never edited by hand: it must equal a fresh build of openapi/.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/paths.ts';

const run = promisify(execFile);
const bin = (name: string) => join(projectRoot, 'node_modules', '.bin', name);
const env = { ...process.env, REDOCLY_TELEMETRY: 'off' };

describe('generated/ has no drift', () => {
  let dir: string | undefined;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('generated/openapi.json equals a fresh bundle of openapi/', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mc-bundle-'));
    const fresh = join(dir, 'openapi.json');
    await run(bin('redocly'), ['bundle', 'openapi/openapi.yaml', '-o', fresh], { cwd: projectRoot, env });
    const [expected, actual] = await Promise.all([
      readFile(fresh, 'utf8'),
      readFile(join(projectRoot, 'generated/openapi.json'), 'utf8'),
    ]);
    expect(actual === expected, 'generated/openapi.json is stale: run "npm run build"').toBe(true);
  });

  it('generated/schema.d.ts equals a fresh openapi-typescript run (open sets as Known | (string & {}))', async () => {
    const { schemaTypes, schemaTypesPath } = await import('../src/build/types.ts');
    const [expected, actual] = await Promise.all([schemaTypes(), readFile(schemaTypesPath, 'utf8')]);
    expect(actual === expected, 'generated/schema.d.ts is stale: run "npm run build"').toBe(true);
  });
});

describe('generated run-time data has no drift', () => {
  it("generated/dredd-transactions.json equals Dredd's compilation of the bundled document", async () => {
    const { dreddTransactions } = await import('../src/build/dredd-transactions.ts');
    const { dreddTransactionsPath } = await import('../src/paths.ts');
    const [expected, actual] = await Promise.all([
      dreddTransactions(),
      readFile(dreddTransactionsPath, 'utf8').catch(() => '(missing)'),
    ]);
    expect(actual === expected, 'generated/dredd-transactions.json is stale: run "npm run build:generated"').toBe(true);
  });

  it('generated/client-meta.json, error-codes.json and validators/ equal what the document gives', async () => {
    const { generatedFiles } = await import('../src/build/generate.ts');
    for (const [name, expected] of Object.entries(generatedFiles())) {
      const actual = await readFile(join(projectRoot, 'generated', name), 'utf8').catch(() => '(missing)');
      expect(actual === expected, `generated/${name} is stale: run "npm run build:generated"`).toBe(true);
    }
  });
});
