#!/usr/bin/env -S node --import tsx
// messaging-contract <command>: the project's one entry point for people and CI.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { serveDocs } from './docs/server.ts';
import { startPrism } from './mock/prism.ts';

const usage = `usage: messaging-contract <command> [options]

commands:
  serve  [--host 127.0.0.1] [--port 8080]   serve the docs page and /openapi.json
  mock   [--host 127.0.0.1] [--port 4010]   run the Prism mock on generated/openapi.json
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
      options: { host: { type: 'string', default: '127.0.0.1' }, port: { type: 'string' } },
      strict: true,
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function serve(args: string[]): Promise<void> {
  const { host, port: rawPort } = options(args);
  const server = createServer((req, res) => {
    serveDocs(req, res).then((handled) => {
      if (handled) return;
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ title: 'not-found', status: 404, detail: `No page at ${req.url}.` }));
    }, () => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port(rawPort, 8080), host, resolve);
  });
  const address = server.address();
  const url = `http://${host}:${typeof address === 'object' && address ? address.port : rawPort}`;
  console.log(`docs: ${url}/  document: ${url}/openapi.json`);
}

async function mock(args: string[]): Promise<void> {
  const { host, port: rawPort } = options(args);
  const prism = await startPrism({ host, port: port(rawPort, 4010), stdio: 'inherit', args: [] });
  console.log(`Prism mock: ${prism.url} (select an example with "Prefer: code=<status>, example=<name>")`);
  const stop = () => void prism.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

const commands: Record<string, (args: string[]) => Promise<void>> = { serve, mock };

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
