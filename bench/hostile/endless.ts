// Child of bench/hostile.ts: the client against a server that sends a body forever; prints the
// resident memory before and after the call (which must stop at maxResponseBytes).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMessagingClient, ResponseTooLargeError } from '../../src/client/index.ts';

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(256 * 1024, 0x20);
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
globalThis.gc?.();
const before = process.memoryUsage().rss;
const client = createMessagingClient({
  baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  apiKey: 'k',
  retry: false,
});
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
const error = await client
  .scheduleCascade({
    cascadeId: 1,
    subscriberFilter: { address: '1', type: 'PHONE' },
    content: { smsContent: { contentType: 'TEXT', text: 'x' } },
  })
  .catch((e: unknown) => e);
clearInterval(sampler);
server.closeAllConnections();
server.close();
console.log(
  JSON.stringify({
    stopped: error instanceof ResponseTooLargeError,
    peakAboveBaselineMiB: Math.round((peak - before) / 2 ** 20),
  }),
);
