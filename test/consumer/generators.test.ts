// Users generate clients from the bundled document: each popular generator must produce every
// property of every schema, with no duplicate names and nothing read as `unknown`. The generators
// need Node 22.18+ (orval 8, hey-api 0.96+), so they are installed apart from the repository's
// tools (test/generators/project, with its own lock) and run on Node 24 from the npm registry.
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.ts';
import {
  generate,
  generators,
  typeProblems,
  type Doc,
  type GeneratorName,
  type Toolchain,
} from '../generators/check.ts';

const run = promisify(execFile);
const spec = join(projectRoot, 'generated/openapi.json');
const names = Object.keys(generators) as GeneratorName[];
let toolchain: Toolchain;
let install: string;
let doc: Doc;
let outputs: Record<string, { code: number | null; output: string }>;
const outDir = (name: string) => join(toolchain.project, 'out', name.replace(/\W+/g, '-'));

beforeAll(async () => {
  const node = (
    await run('npx', ['-y', '-p', 'node@24', 'node', '-p', 'process.execPath'], { timeout: 150_000 })
  ).stdout.trim();
  const project = await mkdtemp(join(tmpdir(), 'mc-generators-'));
  toolchain = { node, project };
  for (const file of ['package.json', 'package-lock.json'])
    await copyFile(join(projectRoot, 'test/generators/project', file), join(project, file));
  // npm itself runs on the Node first in PATH: Node 24, the line the generators declare.
  const env = {
    ...process.env,
    PATH: `${dirname(node)}${delimiter}${process.env.PATH}`,
    npm_config_update_notifier: 'false',
  };
  const installed = await run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: project, env, timeout: 240_000 });
  install = installed.stdout + installed.stderr;
  doc = JSON.parse(await readFile(spec, 'utf8'));
  outputs = Object.fromEntries(
    await Promise.all(names.map(async (name) => [name, await generate(toolchain, name, spec, outDir(name))] as const)),
  );
});

afterAll(async () => {
  if (toolchain?.project) await rm(toolchain.project, { recursive: true, force: true });
});

describe('generators on generated/openapi.json (Node 24)', () => {
  it('install on the Node line they declare, with no engine warning', () => {
    expect(install).not.toContain('EBADENGINE');
  });

  it.each(names)('%s generates without an error or a warning', (name) => {
    const { code, output } = outputs[name]!;
    expect(code, output).toBe(0);
    expect(output.split('\n').filter((l) => /\b(warn|warning|error)\b/i.test(l))).toEqual([]);
  });

  it.each(names)(
    '%s: the output compiles and carries every property of every schema',
    (name) => {
      expect(typeProblems(name, outDir(name), doc)).toEqual([]);
    },
    60_000,
  );

  it('hey-api reading the buttons as unknown (allOf beside type: array) is reported', async () => {
    const broken = structuredClone(doc);
    const buttons = broken.components.schemas.KeyboardButtons;
    const { if: condition, then, else: otherwise } = buttons;
    delete buttons.if;
    delete buttons.then;
    delete buttons.else;
    buttons.allOf = [{ if: condition, then, else: otherwise }];
    const file = join(toolchain.project, 'broken.json');
    await writeFile(file, JSON.stringify(broken));
    const out = outDir('broken-hey-api');
    expect((await generate(toolchain, 'hey-api', file, out)).code).toBe(0);
    expect(typeProblems('hey-api', out, broken)).toContain('KeyboardButtons is unknown (the schema says array)');
  }, 60_000);
});
