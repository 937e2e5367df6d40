// The three packages as a user gets them: packed tarballs (their prepack builds dist/), installed
// into a project outside this repository. Used by test/consumer/ and the size benchmark.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { projectRoot } from '../../src/paths.ts';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export type PackageName = 'client' | 'sandbox' | 'conformance';

/** Packs the three workspaces into `dest` (`npm pack --workspaces`), returning each tarball's path. */
export async function packPackages(dest: string): Promise<Record<PackageName, string>> {
  await mkdir(dest, { recursive: true });
  const { stdout } = await run(npm, ['pack', '--workspaces', '--json', '--pack-destination', dest], {
    cwd: projectRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  // npm prints the build output of prepack before its JSON report.
  const report = JSON.parse(stdout.slice(stdout.lastIndexOf('\n[') + 1)) as Array<{ name: string; filename: string }>;
  const tarballs = Object.fromEntries(
    report.map((r) => [r.name.replace('@messaging-contract/', ''), join(dest, r.filename)]),
  );
  for (const name of ['client', 'sandbox', 'conformance'] as const)
    if (!tarballs[name]) throw new Error(`npm pack wrote no tarball for ${name}: ${stdout.slice(-500)}`);
  return tarballs as Record<PackageName, string>;
}

/** An empty ESM project in `dir` with `specs` (tarball paths or registry names) installed. */
export async function installProject(dir: string, specs: string[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  await run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...specs], {
    cwd: dir,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The minified esbuild bundle, as an app would build it in `dir`, of each import statement of `imports`. */
export async function bundleEntries(dir: string, imports: Record<string, string>): Promise<Record<string, Uint8Array>> {
  const bundles: Record<string, Uint8Array> = {};
  for (const [label, statement] of Object.entries(imports)) {
    const result = await build({
      stdin: { contents: `${statement.replace(/^import/, 'export')};`, resolveDir: dir, loader: 'js' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'node',
      write: false,
      logLevel: 'silent',
    });
    bundles[label] = result.outputFiles[0]!.contents;
  }
  return bundles;
}

/** The entries whose size the benchmark prints and the consumer test bounds. */
export const entryImports = {
  '@messaging-contract/client (createMessagingClient)':
    "import { createMessagingClient } from '@messaging-contract/client'",
  '@messaging-contract/client/webhooks (parseStatusCallback)':
    "import { parseStatusCallback } from '@messaging-contract/client/webhooks'",
  '@messaging-contract/client/preflight (createValidatingClient)':
    "import { createValidatingClient } from '@messaging-contract/client/preflight'",
};

/**
 * The most each entry's minified bundle may weigh, in bytes: test/consumer holds them, the bench prints them beside its
 * figures. The client entry holds openapi-fetch (6.6 kB) and the client with its transport hygiene (response cap, shape
 * check, no redirects), its methods and credentials made from the document's operations and security schemes, int64
 * ids read and written exactly (2.5 kB), and errors that print in a few lines and as JSON: no room for ajv or the
 * document. ./preflight carries the precompiled validators of every request.
 */
export const entryBudgets: Record<keyof typeof entryImports, number> = {
  '@messaging-contract/client (createMessagingClient)': 19_500,
  '@messaging-contract/client/webhooks (parseStatusCallback)': 30_000,
  '@messaging-contract/client/preflight (createValidatingClient)': 125_000,
};
