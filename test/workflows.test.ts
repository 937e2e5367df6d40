// The GitHub Actions workflows (the conformance check in CI, the docs site) are valid workflows,
// checked against the workflow schema by action-validator; the CI templates put the Markdown summary on the job's page.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
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

  it('the CI templates write the Markdown summary: GitHub appends it to the job page even when the run fails, GitLab keeps it beside its JUnit report', async () => {
    const ci = join(projectRoot, 'src/conformance/ci');
    const github = await readFile(join(ci, 'github-actions.yml'), 'utf8');
    const file = /^ +CONFORMANCE_MARKDOWN: (\S+)$/m.exec(github)?.[1];
    expect(file).toBeDefined();
    const steps = github.split(/^ {6}- /m);
    const summary = steps.filter((step) => step.includes('>> "$GITHUB_STEP_SUMMARY"'));
    expect(summary).toHaveLength(1);
    expect(summary[0]).toMatch(/^ {8}if: always\(\)$/m);
    expect(summary[0]).toContain(`cat ${file} >> "$GITHUB_STEP_SUMMARY"`);
    // After the step that runs the suite, which the summary's step must outlive.
    expect(steps.findIndex((step) => step.includes('bash ci/conformance.sh'))).toBeLessThan(steps.indexOf(summary[0]!));
    const gitlab = await readFile(join(ci, 'gitlab-ci.yml'), 'utf8');
    const markdown = /^ +CONFORMANCE_MARKDOWN: (\S+)$/m.exec(gitlab)?.[1];
    expect(gitlab).toMatch(new RegExp(`^ {4}paths:\\n(?: {6}- \\S+\\n)*? {6}- ${markdown}$`, 'm'));
    expect(gitlab).toMatch(/^ {4}reports:\n {6}junit: conformance-junit.xml$/m);
    expect(gitlab).toMatch(/^ {4}when: always$/m);
    // The script writes it when asked: the variable becomes the reporter's output.
    const script = await readFile(join(ci, 'conformance.sh'), 'utf8');
    expect(script).toContain('args+=(--reporter markdown --output "$markdown")');
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
