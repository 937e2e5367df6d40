// The commands of `npm start` and `npm test` that ran a third-party banner or warning print none, on
// Node 20 (the tests' own), 22 and 24 (npx fetches each the first time): Redocly CLI's bundle and build-docs
// through src/build/quiet.ts as the npm scripts run them (on Node 20 each printed a deprecation box,
// build-docs a Redoc 3 box on every Node), and Dredd's load in build:generated and the drift test
// (winston's padLevels warning; util._extend on Node 22+). Any box or Node warning fails, known or
// new. A real error still comes through.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.ts';
import { outcome } from '../helpers/outcome.ts';

const run = promisify(execFile);
/** Node of each supported line: the tests' own, and 22 and 24 as npx installs them. */
const lines = [process.execPath, '22', '24'];
const nodeOf = async (line: string) =>
  line.startsWith('/')
    ? line
    : (
        await run('npx', ['-y', '-p', `node@${line}`, 'node', '-p', 'process.execPath'], { timeout: 150_000 })
      ).stdout.trim();
let node = process.execPath;
/** A script's command as package.json runs it: node_modules/.bin on the PATH. */
const quietly = (args: string[]) =>
  outcome(
    run(node, ['--import', 'tsx', 'src/build/quiet.ts', ...args], {
      cwd: projectRoot,
      env: { ...process.env, PATH: `${join(projectRoot, 'node_modules/.bin')}:${process.env.PATH}` },
      maxBuffer: 16 << 20,
    }),
  );
/** Lines of a box frame, or of a warning Node prints ("(node:123) Warning: ...", "[DEP0060] DeprecationWarning"). */
const noise = (out: string) =>
  out.split('\n').filter((line) => /[╔╚║]|\(node:\d+\)|\bDeprecationWarning\b|--trace-warnings/.test(line));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mc-quiet-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.each(lines)('no banner, no warning on Node %s', (line) => {
  beforeAll(async () => {
    node = await nodeOf(line);
  }, 150_000);
  it.concurrent('npm run build:bundle (redocly bundle)', async ({ expect }) => {
    const { code, out } = await quietly(['redocly', 'bundle', 'openapi/openapi.yaml', '-o', join(dir, 'bundle.json')]);
    expect(code, out).toBe(0);
    expect(out).toContain('Created a bundle for openapi/openapi.yaml');
    expect(noise(out)).toEqual([]);
  });

  it.concurrent('the docs build (redocly build-docs)', async ({ expect }) => {
    const { code, out } = await quietly([
      'redocly',
      'build-docs',
      'generated/openapi.json',
      '-o',
      join(dir, 'docs.html'),
      '--inlineBundle',
    ]);
    expect(code, out).toBe(0);
    expect(out).toContain('bundled successfully');
    expect(noise(out)).toEqual([]);
  });

  it.concurrent("Dredd's load (build:generated and the drift test)", async ({ expect }) => {
    const script = `const m = await import('./src/build/dredd-transactions.ts'); process.stdout.write(String((await m.dreddTransactions()).length));`;
    const { stdout, stderr } = await run(node, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: projectRoot,
      maxBuffer: 16 << 20,
    });
    expect(Number(stdout)).toBeGreaterThan(1000);
    expect(stderr).toBe('');
  });
});

it('a real error comes through the filter whole, with its exit code', async () => {
  node = process.execPath;
  await writeFile(join(dir, 'broken.yaml'), 'openapi: 3.1.0\ninfo:\n  title: broken\npaths:\n  /a:\n    get: 12\n');
  const { code, out } = await quietly(['redocly', 'lint', join(dir, 'broken.yaml')]);
  expect(code).toBe(1);
  expect(out).toMatch(/error/i);
  expect(out).toContain('broken.yaml');
  expect(noise(out)).toEqual([]);
});
