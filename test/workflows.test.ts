// The GitHub Actions workflows (the conformance check in CI, the docs site) are valid workflows,
// checked against the workflow schema by action-validator.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/paths.ts';

const run = promisify(execFile);
const validate = (file: string) =>
  run(join(projectRoot, 'node_modules/.bin/action-validator'), [file], { cwd: projectRoot }).then(
    () => ({ code: 0, out: '' }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );
const workflows = join(projectRoot, '.github/workflows');

describe('.github/workflows', async () => {
  const files = (await readdir(workflows)).filter((f) => f.endsWith('.yml'));
  let dir: string | undefined;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('holds the conformance and docs workflows', () => {
    expect(files.sort()).toEqual(['conformance.yml', 'docs.yml']);
  });

  it.each(files)('%s is a valid workflow', async (file) => {
    const result = await validate(join(workflows, file));
    expect(result.code, result.out).toBe(0);
  });

  it("the CI template for a service team's own service (src/conformance/ci) is a valid workflow", async () => {
    const result = await validate(join(projectRoot, 'src/conformance/ci/github-actions.yml'));
    expect(result.code, result.out).toBe(0);
  });

  it('the validator rejects a broken workflow', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mc-workflow-'));
    const broken = join(dir, 'broken.yml');
    await writeFile(broken, 'name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    stepz: []\n');
    const result = await validate(broken);
    expect(result.code).toBe(1);
    expect(result.out).toContain("Additional property 'stepz' is not allowed");
  });
});
