// Adding an operation is found out by `tsc`, not at run time: a fourth operation added to a copy of
// the document (a path file and its reference, as CONTRIBUTING.md's "Adding an operation" says), the
// generated files rebuilt in the copy, and `tsc` names every table of the code that needs an entry.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.ts';

const run = promisify(execFile);
const copy = mkdtempSync(join(tmpdir(), 'fourth-operation-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/** Where `tsc` must ask for the new operation: file, and the table it names. */
const tables = [
  ['src/sandbox/operations/index.ts', 'handlers'],
  ['src/client/client.ts', 'Bodies'],
  ['src/client/client.ts', 'Results'],
  ['src/client/client.ts', 'operationRules'],
] as const;
// Not here: the conformance suite and the core, which read what they need of an operation from the
// document's keys (x-violation-codes, x-taken-once, x-echoes, x-business-answers, ...: src/conformance/document/policy.ts,
// src/core/schema-violations.ts). The new operation, a copy of close threads, carries them.

describe('a fourth operation in the document', () => {
  it('makes tsc name every table that needs an entry for it, and nothing else', async () => {
    for (const part of ['openapi', 'src', 'redocly.yaml', 'package.json'])
      cpSync(join(projectRoot, part), join(copy, part), { recursive: true, filter: (p) => !p.includes('/dist') });
    cpSync(join(projectRoot, 'generated'), join(copy, 'generated'), { recursive: true });
    symlinkSync(join(projectRoot, 'node_modules'), join(copy, 'node_modules'));
    // The new operation: close threads' path file under another path and operationId.
    const closeThreads = readFileSync(join(copy, 'openapi/paths/api_v1_threads_close.yaml'), 'utf8');
    writeFileSync(
      join(copy, 'openapi/paths/api_v1_threads_reopen.yaml'),
      closeThreads.replace('operationId: closeThreads', 'operationId: reopenThreads'),
    );
    const root = readFileSync(join(copy, 'openapi/openapi.yaml'), 'utf8');
    writeFileSync(
      join(copy, 'openapi/openapi.yaml'),
      root.replace('paths:\n', 'paths:\n  /api/v1/threads/reopen:\n    $ref: paths/api_v1_threads_reopen.yaml\n'),
    );
    // Only src/ is compiled: the tables live there.
    writeFileSync(
      join(copy, 'tsconfig.json'),
      JSON.stringify({ extends: join(projectRoot, 'tsconfig.json'), include: ['src'], exclude: ['**/dist'] }),
    );
    const bin = (name: string) => join(projectRoot, 'node_modules/.bin', name);
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off' };
    await run(bin('redocly'), ['bundle', 'openapi/openapi.yaml', '-o', 'generated/openapi.json'], { cwd: copy, env });
    await run(process.execPath, ['--import', 'tsx', 'src/build/generate.ts'], { cwd: copy, env });
    await run(process.execPath, ['--import', 'tsx', 'src/build/types.ts'], { cwd: copy, env });
    expect(JSON.parse(readFileSync(join(copy, 'generated/client-meta.json'), 'utf8')).operations).toHaveProperty(
      'reopenThreads',
    );

    const tsc = await run(
      process.execPath,
      [join(projectRoot, 'node_modules/typescript7/bin/tsc'), '--noEmit', '-p', 'tsconfig.json'],
      { cwd: copy },
    ).then(
      () => '',
      (e: { stdout: string }) => e.stdout,
    );
    if (process.env.SHOW_TSC) console.log(tsc);
    // One entry per error, its indented lines (what a type lacks) included.
    const errors = tsc.split(/\n(?=\S)/).filter((entry) => /error TS/.test(entry));
    for (const [file, table] of tables) {
      // The line that declares the table, and tsc's error there naming the operation.
      const line =
        readFileSync(join(copy, file), 'utf8')
          .split('\n')
          .findIndex((l) => new RegExp(`^(export )?(const|type) ${table}\\b`).test(l)) + 1;
      expect(line, `${file} declares ${table}`).toBeGreaterThan(0);
      expect(
        errors.find((e) => e.startsWith(`${file}(${line},`)) ?? `no error at line ${line}`,
        `${file}: ${table}`,
      ).toMatch(/Property 'reopenThreads' is missing/);
    }
    // Nothing but the tables: each error is in one of their files and is about the new operation.
    const files = new Set<string>(tables.map(([file]) => file));
    expect(
      errors.filter((line) => !files.has(line.split('(')[0]!)),
      tsc,
    ).toEqual([]);
  }, 120_000);
});
