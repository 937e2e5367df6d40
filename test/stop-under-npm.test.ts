// `npm run sandbox`, `npm run mock` (and `npx messaging-sandbox`, the same code) stop when npm is
// sent SIGTERM: npm ends without passing the signal on, and the server used to go on behind it,
// adopted by init, which bit `cmd & ... kill $!` in CI scripts.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { describe, it } from 'vitest';
import { projectRoot } from '../src/paths.ts';
import { freePort, waitForPort } from '../src/util/wait.ts';

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe.concurrent('servers started through npm stop when npm is sent SIGTERM', () => {
  it.for(['sandbox', 'mock'])('npm run %s', { timeout: 60_000 }, async (script, { expect }) => {
    const port = await freePort();
    // A process group of its own, so that whatever happens the test can end all of it.
    const npm = spawn('npm', ['run', '--silent', script, '--', '--port', String(port)], {
      cwd: projectRoot,
      detached: true,
      stdio: 'ignore',
    });
    try {
      await waitForPort('127.0.0.1', port, 30_000);
      npm.kill('SIGTERM');
      const deadline = Date.now() + 5_000;
      while ((await listening(port)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await listening(port), `${script} still listens 5 s after npm got SIGTERM`).toBe(false);
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // the group has ended
      }
    }
  });
});
