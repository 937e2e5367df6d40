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
 * Resolves on Ctrl-C or SIGTERM. Under npm (`npx`, `npm run`) also when npm ends: npm ends on SIGTERM without passing
 * it on, and the process would go on behind it, adopted by init (so `cmd & ... kill $!` in a CI script left it
 * running). The parent process changing is the sign.
 */
export function signalled(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
    if (process.env.npm_command === undefined && process.env.npm_lifecycle_event === undefined) return;
    setInterval(() => process.ppid !== startedBy && resolve(), 250).unref();
  });
}

/** Runs `stop` once `signalled` resolves, then exits 0. */
export function stopOnSignal(stop: () => Promise<void>): void {
  void signalled()
    .then(stop)
    .then(() => process.exit(0));
}

/** Where a command writes and the environment it reads: the process's in a bin, a test's own when run in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
}

export const asksForHelp = (args: string[]) => args.includes('--help') || args.includes('-h');

/**
 * Writes an error as the command-line tools report one and returns the exit code: a usage error its message and a
 * hint that --help prints the usage (2), a CannotRunError the message alone (2), anything else the message (1); passed
 * through `clean` (which hides secrets), never a stack trace.
 */
export function reportError(
  name: string,
  usage: string,
  error: unknown,
  stderr: (text: string) => void,
  clean: (message: string) => string = (m) => m,
): number {
  if (error instanceof UsageError || error instanceof CannotRunError) {
    // One line that says what is wrong; the usage is one --help away, not fifty lines above the cause.
    const hint = error instanceof UsageError && usage ? ' (--help prints the usage)' : '';
    stderr(`${name}: ${clean(error.message)}${hint}\n`);
    return 2;
  }
  stderr(`${name}: ${clean(String((error as Error)?.message ?? error))}\n`);
  return 1;
}

/** The process's streams and environment, as a command run by a bin sees them. */
const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
};

/**
 * A command on any streams (a bin's, a test's in-process): `--help` prints usage (0); an error is reported as
 * reportError says, and its code returned.
 */
export const command =
  (name: string, usage: string, main: (args: string[], io: CliIo) => number | Promise<number>) =>
  async (args: string[], io: CliIo): Promise<number> => {
    if (asksForHelp(args)) {
      io.stdout(usage);
      return 0;
    }
    try {
      return await main(args, io);
    } catch (error) {
      return reportError(name, usage, error, io.stderr);
    }
  };

/**
 * Runs a command's main on the process: `--help` prints usage (exit 0); a number it returns is the exit code; an error,
 * an unhandled rejection or exception included, ends the process as reportError says.
 */
export function runCli(
  name: string,
  usage: string,
  main: (args: string[], io: CliIo) => Promise<unknown>,
  clean: (message: string) => string = (m) => m,
): void {
  const args = process.argv.slice(2);
  if (asksForHelp(args)) {
    process.stdout.write(usage);
    process.exitCode = 0;
    return;
  }
  const fail = (error: unknown) => process.exit(reportError(name, usage, error, (t) => process.stderr.write(t), clean));
  process.on('unhandledRejection', fail);
  process.on('uncaughtException', fail);
  main(args, processIo).then((code) => {
    if (typeof code === 'number') process.exitCode = code;
  }, fail);
}
