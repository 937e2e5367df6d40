// What messaging-conformance's commands share: the options they read alike, the reports they write, the bin's state.
import { accessSync, constants } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../core/cli.ts';
import type { SuiteReport, TrafficJudgement } from '../ground/model.ts';

/** parseArgs's options, each kind for the flags named: a string, a boolean (false when not given), a repeated string. */
const kind =
  <T>(option: T) =>
  <const F extends string[]>(...flags: F) =>
    Object.fromEntries(flags.map((f) => [f, option])) as Record<F[number], T>;
export const strings = kind({ type: 'string' } as const);
export const booleans = kind({ type: 'boolean', default: false } as const);
export const repeated = kind({ type: 'string', multiple: true } as const);

/** `f()`, its error a usage error: parseArgs's, a stage named wrong, a bad --vars file (loadVars throws only VarsError). */
export function asUsageError<T>(f: () => T): T {
  try {
    return f();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** A flag that takes one of `choices`; undefined when not given. */
export function oneOf<const T extends string>(flag: string, choices: T[], value: string | undefined): T | undefined {
  if (value === undefined || choices.includes(value as T)) return value as T | undefined;
  throw new UsageError(`--${flag} must be ${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}, got "${value}"`);
}

/** --profile: described or strict; undefined when not given (described applies). */
export const profileOption = (value: string | undefined) => oneOf('profile', ['described', 'strict'], value);

/** A number that `pattern` matches (and above `above`), `what` saying so in the error; undefined when not given. */
export function numberOption(flag: string, value: string | undefined, pattern: RegExp, what: string, above?: number) {
  if (value === undefined) return undefined;
  if (!pattern.test(value) || (above !== undefined && Number(value) <= above))
    throw new UsageError(`--${flag} must be ${what}, got "${value}"`);
  return Number(value);
}

/** Seconds given on the command line, in milliseconds; undefined when not given (the suite's default applies). */
export function seconds(flag: string, value: string | undefined): number | undefined {
  const s = numberOption(flag, value, /^\d+(\.\d+)?$/, 'a number of seconds above 0', 0);
  return s === undefined ? undefined : s * 1000;
}

/** Each credential: its option, its flag, and the environment variable that may hold it. */
export const credentialOptions = [
  ['apiKey', 'api-key', 'MESSAGING_API_KEY'],
  ['apiKeyNoBalance', 'api-key-no-balance', 'MESSAGING_API_KEY_NO_BALANCE'],
  ['integratorToken', 'integrator-token', 'MESSAGING_INTEGRATOR_TOKEN'],
] as const;

/** One call's state, which the bin's guards read too: whether it reported (till then no quiet exit 0), its redactor. */
export const newRunState = () => ({ finished: false, redact: (text: string) => text });
export type RunState = ReturnType<typeof newRunState>;

/** A file a command will write: its folder is checked now, before any work, so a wrong path is found at once. */
export function writable(flag: string, path: string): string {
  try {
    accessSync(dirname(resolve(path)), constants.W_OK);
  } catch {
    throw new UsageError(`--${flag} ${path}: its folder does not exist or cannot be written`);
  }
  return path;
}

export type Say = (line: string) => void;
/** Writes the report's files; `judge`, for recorded traffic, counts each cause's failures past the ones kept. */
export type WriteReport = (report: SuiteReport, say?: Say, judge?: TrafficJudgement) => void;
