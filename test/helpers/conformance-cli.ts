// Runs messaging-conformance as a user does: its own process, the bundled bin (bins-global.ts);
// or, where no process-level behaviour is under test, in this process: no start-up and no Dredd
// loading per call.
import { execFile } from 'node:child_process';
import { inject } from 'vitest';
import { conformanceMain } from '../../src/conformance/cli/main.ts';
import { projectRoot } from '../../src/paths.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout then stderr. */
  out: string;
  ms: number;
}

/** This process's environment with `env` added; a variable set to undefined is left out. */
function environment(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries({ ...process.env, ...env }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

export function conformanceCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const start = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [inject('conformanceBin'), ...args],
      { cwd: projectRoot, env: environment(env), maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? ((error as { code?: number }).code ?? 1) : 0,
          stdout,
          stderr,
          out: `${stdout}${stderr}`,
          ms: performance.now() - start,
        }),
    );
  });
}

/** The same run as conformanceCli, in this process: the command's function with its output collected. */
export async function conformanceInProcess(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<CliRun> {
  const start = performance.now();
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await conformanceMain(args, {
    stdout: (text) => stdout.push(text),
    stderr: (text) => stderr.push(text),
    env: environment(env),
  });
  const [out, err] = [stdout.join(''), stderr.join('')];
  return { code, stdout: out, stderr: err, out: `${out}${err}`, ms: performance.now() - start };
}
