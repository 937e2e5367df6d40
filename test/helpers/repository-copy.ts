// A temporary copy of the repository as git sees it (tracked files and untracked ones not ignored,
// so a test runs the working tree), with node_modules linked: a contract author's checkout.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../src/paths.ts';

const run = promisify(execFile);

export async function copyRepository(prefix: string): Promise<string> {
  const repo = await mkdtemp(join(tmpdir(), prefix));
  const { stdout } = await run('git', [
    '-C',
    projectRoot,
    'ls-files',
    '-z',
    '--cached',
    '--others',
    '--exclude-standard',
  ]);
  const files = stdout.split('\0').filter(Boolean);
  await Promise.all(
    files.map((file) =>
      cp(join(projectRoot, file), join(repo, file), { recursive: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error; // a file git lists as deleted in the work tree
      }),
    ),
  );
  await symlink(join(projectRoot, 'node_modules'), join(repo, 'node_modules'), 'dir');
  return repo;
}

/** The environment a command in the copy gets: this process's, without what vitest sets for its own workers. */
export function copyEnv(repo: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(VITEST|TEST$|NODE_ENV$|NODE_OPTIONS$)/.test(key)),
  );
  return { ...env, REDOCLY_TELEMETRY: 'off', INIT_CWD: repo };
}
