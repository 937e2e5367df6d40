#!/usr/bin/env -S node --import tsx
// messaging-contract <command>: the project's one entry point for people and CI.
import { writeFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { SuiteContext } from './conformance/context.ts';
import { junit, summary } from './conformance/report.ts';
import { runSuite, selectStages, UnreachableError } from './conformance/suite.ts';
import { loadVars, VarsError } from './conformance/vars.ts';
import { startPrism } from './mock/prism.ts';
import { loadFixtures } from './sandbox/fixtures.ts';
import { createSandbox } from './sandbox/server.ts';

const usage = `usage: messaging-contract <command> [options]

commands:
  sandbox [--host 127.0.0.1] [--port 4020] [--fixtures <file>] [--callback-url <url>]
          the stateful reference implementation, with the docs page at / and /openapi.json
  mock    [--host 127.0.0.1] [--port 4010]
          the Prism mock on generated/openapi.json
  conformance --server <url> [--api-key K] [--api-key-no-balance K] [--integrator-token T]
          [--vars <file>] [--only <stage>]... [--skip <stage>]... [--seed N] [--mock] [--list]
          [--reporter junit --output <file>]
          check a live implementation against the contract; exit 0 only when every check passes
          stages: dredd, examples, stateful, bad-input
`;

class UsageError extends Error {}

function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function port(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, got "${value}"`);
  return n;
}

function httpUrl(flag: string, value: string): string {
  if (!/^https?:\/\/[^/]/.test(value)) throw new UsageError(`${flag} must be an http(s) URL, got "${value}"`);
  return value;
}

const serverOptions = { host: { type: 'string', default: '127.0.0.1' }, port: { type: 'string' } } as const;

function stopOnSignal(stop: () => Promise<void>): void {
  const handler = () => void stop().then(() => process.exit(0));
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}

async function sandbox(args: string[]): Promise<void> {
  const o = parse(args, { ...serverOptions, fixtures: { type: 'string' }, 'callback-url': { type: 'string' } });
  const callbackUrl = o['callback-url'] === undefined ? undefined : httpUrl('--callback-url', o['callback-url']);
  const fixtures = o.fixtures === undefined ? undefined : loadFixtures(o.fixtures);
  const running = createSandbox({ fixtures, callbackUrl });
  const url = await running.listen(port(o.port, 4020), o.host);
  console.log(`sandbox: ${url}/api/...  docs: ${url}/  document: ${url}/openapi.json  control: ${url}/_sandbox/state`);
  if (callbackUrl) console.log(`status callbacks go to ${callbackUrl}`);
  stopOnSignal(running.close);
}

async function mock(args: string[]): Promise<void> {
  const o = parse(args, serverOptions);
  const prism = await startPrism({ host: o.host, port: port(o.port, 4010), stdio: 'inherit', args: [] });
  console.log(`Prism mock: ${prism.url} (select an example with "Prefer: code=<status>, example=<name>")`);
  stopOnSignal(prism.stop);
}

async function conformance(args: string[]): Promise<void> {
  const o = parse(args, {
    server: { type: 'string' },
    'api-key': { type: 'string' },
    'api-key-no-balance': { type: 'string' },
    'integrator-token': { type: 'string' },
    vars: { type: 'string' },
    only: { type: 'string', multiple: true },
    skip: { type: 'string', multiple: true },
    seed: { type: 'string', default: '1' },
    mock: { type: 'boolean', default: false },
    list: { type: 'boolean', default: false },
    reporter: { type: 'string' },
    output: { type: 'string' },
  });
  const split = (v: string[] | undefined) => (v ?? []).flatMap((s) => s.split(',')).filter(Boolean);
  let selected;
  try {
    selected = selectStages(split(o.only), split(o.skip));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (o.list) {
    for (const s of selected) console.log(`${s.name.padEnd(10)} ${s.description}`);
    return;
  }
  if (o.server === undefined) throw new UsageError('conformance needs --server <url>');
  if (o.reporter !== undefined && o.reporter !== 'junit') throw new UsageError(`--reporter must be junit, got "${o.reporter}"`);
  if (o.reporter === 'junit' && o.output === undefined) throw new UsageError('--reporter junit needs --output <file>');
  const seed = Number(o.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, got "${o.seed}"`);
  let vars;
  try {
    vars = o.vars === undefined ? {} : loadVars(o.vars);
  } catch (error) {
    if (error instanceof VarsError) throw new UsageError(error.message);
    throw error;
  }
  const apiKey = o['api-key'] ?? vars.apiKey;
  const integratorToken = o['integrator-token'] ?? vars.integratorToken;
  if (!apiKey || !integratorToken) {
    throw new UsageError('conformance needs credentials: --api-key and --integrator-token (or "apiKey" and "integratorToken" in --vars)');
  }
  const ctx: SuiteContext = {
    server: httpUrl('--server', o.server).replace(/\/+$/, ''),
    credentials: { apiKey, integratorToken, apiKeyNoBalance: o['api-key-no-balance'] ?? vars.apiKeyNoBalance },
    values: vars.values ?? {},
    seed,
    mock: o.mock,
    log: (line) => console.log(line),
  };
  let report;
  try {
    report = await runSuite(ctx, selected);
  } catch (error) {
    if (error instanceof UnreachableError) throw new UsageError(error.message);
    throw error;
  }
  console.log(summary(report));
  if (o.reporter === 'junit') {
    writeFileSync(o.output!, junit(report));
    console.log(`JUnit XML: ${o.output}`);
  }
  process.exitCode = report.ok ? 0 : 1;
}

const commands: Record<string, (args: string[]) => Promise<void>> = { sandbox, mock, conformance };

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
