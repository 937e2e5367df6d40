// generated/ is committed and never edited by hand: it must equal a fresh build of openapi/.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentDocument } from '../src/diff/releases.ts';
import { projectRoot } from '../src/paths.ts';

describe('generated/ has no drift', () => {
  it('generated/openapi.json equals a fresh bundle of openapi/', () => {
    // The gate's own reading of the sources (src/diff/releases.ts): bundled now, byte for byte against generated/.
    expect(currentDocument(projectRoot).stale, 'generated/openapi.json is stale: run "npm run build"').toBe(false);
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
