// What the commands of messaging-conformance share: the options every one of them reads the same way, the reports they
// write, and the state the bin's guards read.
import { accessSync, constants, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../core/cli.ts';
import { json as formatJson, junit as formatJUnit } from '../report.ts';
import type { Profile, SuiteReport as ConformanceReport } from '../ground/model.ts';

/** --profile: described or strict; undefined when not given (described applies). */
export function profileOption(value: string | undefined): Profile | undefined {
  if (value === undefined || value === 'described' || value === 'strict') return value;
  throw new UsageError(`--profile must be described or strict, got "${value}"`);
}

/** Seconds given on the command line, in milliseconds; undefined when not given (the suite's default applies). */
export function seconds(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0)
    throw new UsageError(`--${flag} must be a number of seconds above 0, got "${value}"`);
  return Number(value) * 1000;
}

/** Each credential: its option, its flag, and the environment variable that may hold it. */
export const credentialOptions = [
  ['apiKey', 'api-key', 'MESSAGING_API_KEY'],
  ['apiKeyNoBalance', 'api-key-no-balance', 'MESSAGING_API_KEY_NO_BALANCE'],
  ['integratorToken', 'integrator-token', 'MESSAGING_INTEGRATOR_TOKEN'],
] as const;

/**
 * One call's state, which the bin's process-level guards read too: whether the run has reported (until then the
 * process must not end quietly with exit 0), and how to hide the credentials it was given.
 */
export interface RunState {
  finished: boolean;
  redact: (text: string) => string;
}

export const newRunState = (): RunState => ({ finished: false, redact: (text) => text });

/** A file a command will write: its folder is checked now, before any work, so a wrong path is found at once. */
export function writable(flag: string, path: string): string {
  try {
    accessSync(dirname(resolve(path)), constants.W_OK);
  } catch {
    throw new UsageError(`--${flag} ${path}: its folder does not exist or cannot be written`);
  }
  return path;
}

export type WriteReport = (report: ConformanceReport, say?: (line: string) => void) => void;

/**
 * --reporter junit|json with --output F, checked before the run (a report that cannot be written is found now): what
 * writes the report, credentials hidden, and with `say` says where (not when the run ends with one line).
 */
export function reporter(o: { reporter?: string; output?: string }, run: RunState): WriteReport {
  if (o.reporter === undefined) return () => {};
  if (o.reporter !== 'junit' && o.reporter !== 'json')
    throw new UsageError(`--reporter must be junit or json, got "${o.reporter}"`);
  if (o.output === undefined) throw new UsageError(`--reporter ${o.reporter} needs --output <file>`);
  writable('output', o.output);
  const { reporter: kind, output } = o;
  return (report, say) => {
    writeFileSync(output, run.redact(kind === 'json' ? formatJson(report) : formatJUnit(report)));
    say?.(`${kind === 'json' ? 'JSON report' : 'JUnit XML'}: ${output}`);
  };
}
