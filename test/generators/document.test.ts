// What generators need of the document, checked without running them (test/consumer/generators
// runs them on Node 24): no component takes a name a generator makes, every anyOf member has a
// type, and Spectral fails the lint on a warning.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.ts';
import { staticProblems, type Doc } from './check.ts';

const run = promisify(execFile);
let dir: string;
let doc: Doc;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mc-generators-doc-'));
  doc = JSON.parse(await readFile(join(projectRoot, 'generated/openapi.json'), 'utf8'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the document as generators read it', () => {
  it('no component takes a name a generator makes, and no anyOf member lacks a type', () => {
    expect(staticProblems(doc)).toEqual([]);
  });

  it('a component named after an operation, and an untyped anyOf member, are reported', () => {
    const broken = structuredClone(doc);
    broken.components.schemas.CloseThreadsResult = broken.components.schemas.ThreadsCloseResult;
    broken.components.schemas.ChannelType.anyOf[1] = { minLength: 1 };
    expect(staticProblems(broken)).toEqual([
      'component CloseThreadsResult has a name a generator makes for an operation: do not start a component name with an operationId',
      '#/components/schemas/ChannelType/anyOf/1 has no type: generators read it as unknown',
    ]);
  });

  it('Spectral fails the lint on a warning', async () => {
    const broken = structuredClone(doc);
    broken.components.schemas.NothingUsesThis = { type: 'string' };
    const file = join(dir, 'spectral-broken.json');
    await writeFile(file, JSON.stringify(broken));
    const result = await run(
      join(projectRoot, 'node_modules/.bin/spectral'),
      ['lint', file, '--ruleset', join(projectRoot, '.spectral.yaml'), '--fail-severity', 'warn'],
      { cwd: dir },
    ).then(
      () => ({ code: 0, out: '' }),
      (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
    );
    expect(result.code).toBe(1);
    expect(result.out).toContain('oas3-unused-component');
  }, 60_000);
});
