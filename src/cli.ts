#!/usr/bin/env -S node --import tsx
// messaging-contract <command>: the project's one entry point for people and CI.
import { parseArgs } from 'node:util';
import { startPrism } from './mock/prism.ts';
import { loadFixtures } from './sandbox/fixtures.ts';
import { createSandbox } from './sandbox/server.ts';

const usage = `usage: messaging-contract <command> [options]

commands:
  sandbox [--host 127.0.0.1] [--port 4020] [--fixtures <file>] [--callback-url <url>]
          the stateful reference implementation, with the docs page at / and /openapi.json
  mock    [--host 127.0.0.1] [--port 4010]   the Prism mock on generated/openapi.json
`;

class UsageError extends Error {}

function port(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new UsageError(`--port must be an integer from 0 to 65535, got "${value}"`);
  }
  return n;
}

function options(args: string[]) {
  try {
    return parseArgs({
      args,
      options: {
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string' },
        fixtures: { type: 'string' },
        'callback-url': { type: 'string' },
      },
      strict: true,
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function sandbox(args: string[]): Promise<void> {
  const { host, port: rawPort, fixtures, 'callback-url': callbackUrl } = options(args);
  if (callbackUrl !== undefined && !/^https?:\/\/[^/]/.test(callbackUrl)) {
    throw new UsageError(`--callback-url must be an http(s) URL, got "${callbackUrl}"`);
  }
  const sandbox = createSandbox({ fixtures: fixtures === undefined ? undefined : loadFixtures(fixtures), callbackUrl });
  const url = await sandbox.listen(port(rawPort, 4020), host);
  console.log(`sandbox: ${url}/api/...  docs: ${url}/  document: ${url}/openapi.json  control: ${url}/_sandbox/state`);
  if (callbackUrl) console.log(`status callbacks go to ${callbackUrl}`);
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function mock(args: string[]): Promise<void> {
  const { host, port: rawPort } = options(args);
  const prism = await startPrism({ host, port: port(rawPort, 4010), stdio: 'inherit', args: [] });
  console.log(`Prism mock: ${prism.url} (select an example with "Prefer: code=<status>, example=<name>")`);
  const stop = () => void prism.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

const commands: Record<string, (args: string[]) => Promise<void>> = { sandbox, mock };

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    process.stdout.write(usage);
    if (name === undefined) process.exitCode = 2;
    return;
  }
  const command = commands[name];
  if (!command) throw new UsageError(`unknown command "${name}"`);
  await command(rest);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`messaging-contract: ${error.message}\n\n${usage}`);
    process.exit(2);
  }
  process.stderr.write(`messaging-contract: ${(error as Error).message}\n`);
  process.exit(1);
});
