import { connect } from 'node:net';

/**
 * Resolves once something accepts TCP connections on host:port; rejects after `timeoutMs`, or when `signal` aborts
 * (the server it waits for is gone: polling on would hold the process open until the deadline).
 */
export async function waitForPort(host: string, port: number, timeoutMs = 20_000, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host, port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${host}:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A free TCP port on 127.0.0.1 for a server that starts a moment later, below the ephemeral range of every common OS
 * (Linux from 32768, macOS and Windows from 49152): a server listening on port 0 in between (a test's, a proxy's) is
 * never given it, as it could be given one the OS chose. Random, so two callers rarely meet; the OS's choice is the
 * fallback.
 */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const tryPort = (port: number) =>
    new Promise<number | undefined>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(undefined));
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : undefined));
      });
    });
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await tryPort(20_000 + Math.floor(Math.random() * 12_000));
    if (port !== undefined) return port;
  }
  const chosen = await tryPort(0);
  if (chosen === undefined) throw new Error('no free port on 127.0.0.1');
  return chosen;
}
