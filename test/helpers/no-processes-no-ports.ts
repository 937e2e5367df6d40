// Setup of `npm run test:unit`: a test that starts a process or listens on a port fails at once,
// so the inner loop holds only what needs neither (and stays fast).
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const refuse = (what: string) => () => {
  throw new Error(`test:unit runs no ${what}; this test belongs to npm test only`);
};
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
  (childProcess as unknown as Record<string, unknown>)[name] = refuse(`child process (${name})`);
}
net.Server.prototype.listen = refuse('server (listen)') as never;
// Named imports (`import { execFile } from 'node:child_process'`) see the change too.
syncBuiltinESMExports();
