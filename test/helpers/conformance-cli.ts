// Runs messaging-conformance as a user does: its own process, the bundled bin (bins-global.ts).
import { execFile } from 'node:child_process';
import { inject } from 'vitest';
import { projectRoot } from '../../src/paths.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout then stderr. */
  out: string;
  ms: number;
}

/** `env` is added to this process's environment; a variable set to undefined is left out. */
export function conformanceCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const start = performance.now();
  const merged = Object.fromEntries(
    Object.entries({ ...process.env, ...env }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [inject('conformanceBin'), ...args],
      { cwd: projectRoot, env: merged, maxBuffer: 64 * 1024 * 1024 },
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
