// The house-style rules of redocly.yaml must be able to fail: lint a copy of the document that
// breaks each one and expect each rule's message.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { projectRoot } from '../src/paths.ts';

const run = promisify(execFile);
let dir: string | undefined;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('each house rule fails on a document that breaks it', async () => {
  dir = await mkdtemp(join(tmpdir(), 'mc-lint-'));
  const doc = JSON.parse(await readFile(join(projectRoot, 'generated/openapi.json'), 'utf8'));
  const op = doc.paths['/api/cascade/schedule'].post;
  op.operationId = 'Schedule_Cascade';
  delete op.description;
  delete op.tags;
  delete op.responses['404'];
  op.responses['400'].content['application/json'].schema = { type: 'object' };
  delete op.responses['200'].content['application/json'].examples;
  await writeFile(join(dir, 'openapi.json'), JSON.stringify(doc));
  await copyFile(join(projectRoot, 'redocly.yaml'), join(dir, 'redocly.yaml'));
  const result = await run(
    join(projectRoot, 'node_modules/.bin/redocly'),
    ['lint', 'openapi.json', '--format', 'stylish'],
    {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
    },
  ).then(
    () => ({ failed: false, output: '' }),
    (error: { stdout: string; stderr: string }) => ({ failed: true, output: error.stdout + error.stderr }),
  );
  expect(result.failed).toBe(true);
  for (const rule of [
    'rule/operation-id-camel-case',
    'rule/operation-has-description',
    'rule/operation-has-tags',
    'rule/error-responses-documented',
    'rule/error-body-is-problem',
    'rule/response-has-named-examples',
  ]) {
    expect(result.output, rule).toContain(rule);
  }
});
