// Child of bench/hostile.ts: the sandbox's rules and state take N distinct schedules (no HTTP,
// so a million fit in the bench's time), then print the resident memory and the heap in use after
// a full GC.
import { loadFixtures } from '../../src/sandbox/fixtures.ts';
import { scheduleCascade } from '../../src/sandbox/operations/schedule-cascade.ts';
import { createSandbox } from '../../src/sandbox/server.ts';

const count = Number(process.argv[2]);
const fixtures = loadFixtures();
const apiKey = fixtures.apiKeys.find((k) => k.balance > 0)!.key;
// A clock whose timers never fire: deliveries are not simulated, the requestIds are what grows.
const sandbox = createSandbox({ fixtures, clock: { now: () => 0, setTimeout: () => {} } });
let accepted = 0;
for (let i = 0; i < count; i++) {
  const body = {
    requestId: `bench-${i}`,
    cascadeId: 1003,
    subscriberFilter: { address: '79001234567', type: 'PHONE' },
    content: { smsContent: { contentType: 'TEXT', text: `Message ${i}` } },
  };
  if (
    scheduleCascade(sandbox.state, body, { exact: body, credentials: { apiKey }, accept: () => {}, now: i }).status ===
    200
  )
    accepted++;
}
// Freed pages go back to the OS a moment after a full GC: read at once, RSS was 130 or 220 MiB by chance.
globalThis.gc?.();
await new Promise((resolve) => setTimeout(resolve, 200));
globalThis.gc?.();
const { rss, heapUsed } = process.memoryUsage();
console.log(
  JSON.stringify({
    accepted,
    rssMiB: Math.round(rss / 2 ** 20),
    heapMiB: Math.round(heapUsed / 2 ** 20),
    requestIds: sandbox.state.usedRequestIds,
  }),
);
