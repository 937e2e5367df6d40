// Starts Prism on the bundled document: the mock (`npm run mock`, tests, benchmarks) or a
// validating proxy in front of a live server.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { bundledDocumentPath } from '../paths.ts';
import { waitForPort } from '../util/wait.ts';

export interface PrismOptions {
  host?: string;
  port: number;
  /** mock (default): answer from examples; proxy: forward to `upstream` and validate its answers. */
  mode?: 'mock' | 'proxy';
  upstream?: string;
  /** Arguments for Prism in place of the default `-v error` (quiet), e.g. ['-d'] or [] for Prism's own logging. */
  args?: string[];
  /** Where Prism's own output goes; 'inherit' for the CLI. */
  stdio?: 'inherit' | 'ignore';
}

export interface RunningPrism {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

function prismBin(): string {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('@stoplight/prism-cli/package.json');
  const bin = (require(pkgPath) as { bin: { prism: string } }).bin.prism;
  return join(dirname(pkgPath), bin);
}

/** Prism started and listening. */
export async function startPrism(options: PrismOptions): Promise<RunningPrism> {
  const { ready, ...prism } = launchPrism(options);
  await ready;
  return prism;
}

/**
 * Prism started: `ready` resolves once it listens, and rejects if it exits first. For a caller that has other work
 * to do meanwhile (Prism takes a second and a half to start).
 */
export function launchPrism(options: PrismOptions): RunningPrism & { ready: Promise<void> } {
  const host = options.host ?? '127.0.0.1';
  const child = spawn(
    process.execPath,
    [
      prismBin(),
      options.mode ?? 'mock',
      bundledDocumentPath,
      ...(options.mode === 'proxy' ? [options.upstream!] : []),
      '-h',
      host,
      '-p',
      String(options.port),
      ...(options.args ?? ['-v', 'error']),
    ],
    { stdio: options.stdio ?? 'ignore' },
  );
  const gone = new AbortController();
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => {
      gone.abort();
      reject(new Error(`prism exited with code ${code} before listening`));
    }),
  );
  exited.catch(() => {});
  const ready = Promise.race([waitForPort(host, options.port, undefined, gone.signal), exited]);
  ready.catch(() => {});
  return {
    url: `http://${host}:${options.port}`,
    process: child,
    ready,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
