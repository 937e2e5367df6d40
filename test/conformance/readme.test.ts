// The conformance README's examples of output are what the CLI prints: each `text` block, with
// `...` standing for any text and the sandbox's port written 4020, matches the CLI's lines in order
// (indentation aside).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.ts';
import { conformanceInProcess } from '../helpers/conformance-cli.ts';
import { startMutatingProxy } from '../helpers/mutating-proxy.ts';
import { credentials, useSandbox } from '../helpers/sandbox.ts';

const sandbox = useSandbox();
const blocks = [
  ...readFileSync(join(projectRoot, 'src/conformance/README.md'), 'utf8').matchAll(/```text\n([\s\S]*?)\n\s*```/g),
].map((m) => m[1]!.split('\n').map((line) => line.trim()));
const block = (first: RegExp) => blocks.find((b) => first.test(b[0]!))!;

/** Each line of the block matches an output line, in order; `...` is any text. */
function expectPrinted(output: string, lines: string[]): void {
  const printed = output
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:4020')
    .split('\n')
    .map((line) => line.trim());
  let at = 0;
  for (const line of lines) {
    const pattern = new RegExp(
      `^${line
        .split('...')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    const found = printed.findIndex((p, i) => i >= at && pattern.test(p));
    expect(
      found,
      `README line not printed (in order): ${line}\n--- printed:\n${printed.join('\n')}`,
    ).toBeGreaterThanOrEqual(0);
    at = found + 1;
  }
}

const cli = (args: string[], env: Record<string, string>) => conformanceInProcess(args, env).then((r) => r.out);
const env = {
  MESSAGING_API_KEY: credentials.apiKey,
  MESSAGING_API_KEY_NO_BALANCE: credentials.apiKeyNoBalance!,
  MESSAGING_INTEGRATOR_TOKEN: credentials.integratorToken,
};

describe('the conformance README shows what the CLI prints', () => {
  it('credentials the server rejects', async () => {
    expectPrinted(
      await cli(['--server', sandbox.url], { ...env, MESSAGING_API_KEY: 'a-wrong-key' }),
      block(/the server rejected the credentials/),
    );
  }, 30_000);

  it('a failure and the others of its cause', async () => {
    const proxy = await startMutatingProxy(sandbox.url, (x) =>
      x.path === '/api/cascade/schedule' && x.status === 500
        ? { status: 503, body: { title: 'unavailable', status: 503 } }
        : undefined,
    );
    try {
      expectPrinted(
        await cli(['--server', proxy.url, '--only', 'boundaries'], env),
        block(/^FAIL \[status\] answered 503/),
      );
    } finally {
      await proxy.close();
    }
  }, 30_000);

  it('a server that does not answer as the service (a base path left out)', async () => {
    expectPrinted(await cli(['--server', `${sandbox.url}/api`], env), block(/does not answer as the service/));
  }, 30_000);

  it('a check that needs a reset', async () => {
    expectPrinted(await cli(['--server', sandbox.url, '--only', 'examples'], env), block(/needs a reset/));
  }, 30_000);

  it('the coverage scorecard of a default run, breadth included', async () => {
    expectPrinted(await cli(['--server', sandbox.url], env), block(/^passed\/run of documented\s+statuses/));
  }, 60_000);
});
