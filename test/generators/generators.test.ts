// Users generate clients from the bundled document: each popular generator must produce every
// property of every schema, with no duplicate names and nothing read as `unknown`.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.ts';
import { generate, generators, staticProblems, typeProblems, type Doc, type GeneratorName } from './check.ts';

const run = promisify(execFile);
const spec = join(projectRoot, 'generated/openapi.json');
const names = Object.keys(generators) as GeneratorName[];
let dir: string;
let doc: Doc;
let outputs: Record<string, { code: number | null; output: string }>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mc-generators-'));
  await symlink(join(projectRoot, 'node_modules'), join(dir, 'node_modules'), 'dir'); // axios, for orval's client
  doc = JSON.parse(await readFile(spec, 'utf8'));
  outputs = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await generate(name, spec, join(dir, name.replace(/\W+/g, '-')))] as const)));
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('generators on generated/openapi.json', () => {
  it.each(names)('%s generates without an error or a warning', (name) => {
    const { code, output } = outputs[name]!;
    expect(code, output).toBe(0);
    expect(output.split('\n').filter((l) => /\b(warn|warning|error)\b/i.test(l))).toEqual([]);
  });

  it.each(names)('%s: the output compiles and carries every property of every schema', (name) => {
    expect(typeProblems(name, join(dir, name.replace(/\W+/g, '-')), doc)).toEqual([]);
  }, 60_000);

  it('no component takes a name a generator makes, and no anyOf member lacks a type', () => {
    expect(staticProblems(doc)).toEqual([]);
  });
});

describe('the checks can fail', () => {
  it('a component named after an operation, and an untyped anyOf member, are reported', () => {
    const broken = structuredClone(doc);
    broken.components.schemas.CloseThreadsResult = broken.components.schemas.ThreadsCloseResult;
    broken.components.schemas.ChannelType.anyOf[1] = { minLength: 1 };
    expect(staticProblems(broken)).toEqual([
      'component CloseThreadsResult has a name a generator makes for an operation: do not start a component name with an operationId',
      '#/components/schemas/ChannelType/anyOf/1 has no type: generators read it as unknown',
    ]);
  });

  it('hey-api reading the buttons as unknown (allOf beside type: array) is reported', async () => {
    const broken = structuredClone(doc);
    const buttons = broken.components.schemas.KeyboardButtons;
    const { if: condition, then, else: otherwise } = buttons;
    delete buttons.if, delete buttons.then, delete buttons.else;
    buttons.allOf = [{ if: condition, then, else: otherwise }];
    const file = join(dir, 'broken.json');
    await writeFile(file, JSON.stringify(broken));
    const out = join(dir, 'broken-hey-api');
    expect((await generate('hey-api', file, out)).code).toBe(0);
    expect(typeProblems('hey-api', out, broken)).toContain('KeyboardButtons is unknown (the schema says array)');
  }, 60_000);

  it('Spectral fails the lint on a warning', async () => {
    const broken = structuredClone(doc);
    broken.components.schemas.NothingUsesThis = { type: 'string' };
    const file = join(dir, 'spectral-broken.json');
    await writeFile(file, JSON.stringify(broken));
    const result = await run(join(projectRoot, 'node_modules/.bin/spectral'), ['lint', file, '--ruleset', join(projectRoot, '.spectral.yaml'), '--fail-severity', 'warn'], { cwd: dir }).then(
      () => ({ code: 0, out: '' }),
      (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
    );
    expect(result.code).toBe(1);
    expect(result.out).toContain('oas3-unused-component');
  }, 60_000);
});
