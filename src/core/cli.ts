// What the command-line tools share: strict option parsing, and usage errors that end in exit 2
// with a message instead of a stack trace.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isHttpUrl } from './http-url.ts';

export class UsageError extends Error {}

/**
 * A run that cannot go on (a server that does not answer, credentials it rejects): exit 2 with the message, no usage
 * text.
 */
export class CannotRunError extends Error {}

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function port(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535)
    throw new UsageError(`--port must be an integer from 0 to 65535, got "${value}"`);
  return n;
}

export function httpUrl(flag: string, value: string): string {
  if (!isHttpUrl(value)) throw new UsageError(`${flag} must be an http(s) URL, got "${value}"`);
  return value;
}

export const serverOptions = { host: { type: 'string', default: '127.0.0.1' }, port: { type: 'string' } } as const;

/**
 * The parent at start, read when this module loads: a parent gone before a server is up (npm killed while Prism starts)
 * still counts.
 */
const startedBy = process.ppid;

/**
 * Runs `stop` on Ctrl-C or SIGTERM, then exits 0. Under npm (`npx`, `npm run`) it also stops when
 * npm does: npm ends on SIGTERM without passing it on, and the server would go on behind it,
 * adopted by init (so `cmd & ... kill $!` in a CI script left it running). The parent process
 * changing is the sign.
 */
export function stopOnSignal(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = () => {
    if (stopping) return;
    stopping = true;
    void stop().then(() => process.exit(0));
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  if (process.env.npm_command === undefined && process.env.npm_lifecycle_event === undefined) return;
  setInterval(() => process.ppid !== startedBy && handler(), 250).unref();
}

/**
 * Runs a command's main: `--help` prints usage (exit 0); a usage error prints it with the message
 * (exit 2), a CannotRunError the message alone (exit 2); anything else, an unhandled rejection or exception included,
 * prints the message (exit
 * 1), passed through `clean` (which hides secrets), never a stack trace.
 */
export function runCli(
  name: string,
  usage: string,
  main: (args: string[]) => Promise<void>,
  clean: (message: string) => string = (m) => m,
): void {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(usage);
    process.exitCode = 0;
    return;
  }
  const fail = (error: unknown) => {
    if (error instanceof UsageError || error instanceof CannotRunError) {
      process.stderr.write(`${name}: ${clean(error.message)}\n${error instanceof UsageError ? `\n${usage}` : ''}`);
      process.exit(2);
    }
    process.stderr.write(`${name}: ${clean(String((error as Error)?.message ?? error))}\n`);
    process.exit(1);
  };
  process.on('unhandledRejection', fail);
  process.on('uncaughtException', fail);
  main(args).catch(fail);
}
