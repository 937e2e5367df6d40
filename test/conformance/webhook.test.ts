// messaging-conformance webhook: a receiver built on parseStatusCallback passes; receivers that
// reject what the service may send, crash on bad input or hang, fail with the post that broke them.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseStatusCallback, StatusCallbackError } from '../../src/client/webhooks.ts';
import { checkWebhookReceiver } from '../../src/conformance/stages/webhook.ts';
import { conformanceInProcess } from '../helpers/conformance-cli.ts';

const servers: Array<ReturnType<typeof createServer>> = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

async function receiver(handle: (body: Buffer, req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => handle(Buffer.concat(chunks), req, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/status`;
}

/** The README's receiver: 200 for a callback, 400 naming the fields for anything else. */
const goodReceiver = () =>
  receiver((body, _req, res) => {
    try {
      parseStatusCallback(body);
      res.writeHead(200).end();
    } catch (error) {
      if (!(error instanceof StatusCallbackError)) throw error;
      res.writeHead(400, { 'content-type': 'text/plain' }).end(error.message);
    }
  });

describe('webhook receiver check', () => {
  it('a receiver built on parseStatusCallback passes every post: exit 0', async () => {
    const url = await goodReceiver();
    const { stdout } = await conformanceInProcess(['webhook', '--url', url]);
    expect(stdout).toMatch(/^\d+ passed, 0 failed$/m);
    expect(Number(/^(\d+) passed/m.exec(stdout)![1])).toBeGreaterThanOrEqual(25);
  }, 30_000);

  it('a receiver that rejects statuses it does not know fails those posts', async () => {
    const known = ['DELIVERED', 'UNDELIVERED', 'READ', 'SENT'];
    const url = await receiver((body, _req, res) => {
      let status: unknown;
      try {
        status = JSON.parse(body.toString()).status;
      } catch {
        return void res.writeHead(400).end();
      }
      res.writeHead(known.includes(status as string) ? 200 : 422).end();
    });
    const report = await checkWebhookReceiver({ url, profile: 'strict' });
    expect(report.ok).toBe(false);
    expect(report.results.filter((r) => !r.ok).map((r) => r.name)).toEqual(
      expect.arrayContaining(['a status this contract does not know yet', 'status FAILED']),
    );
    expect(report.results.find((r) => r.name === 'malformed JSON')?.ok).toBe(true);
  });

  it.for([204, 202, 201])(
    "a receiver that answers %i to callbacks fails every one, naming the status and the contract's sentence",
    async (status) => {
      const url = await receiver((_body, _req, res) => res.writeHead(status).end());
      const report = await checkWebhookReceiver({ url });
      const wellFormed = report.results.filter((r) => r.kind === 'described');
      expect(wellFormed.length).toBeGreaterThanOrEqual(25);
      expect(wellFormed.filter((r) => r.ok)).toEqual([]);
      expect(wellFormed[0]!.actual).toBe(
        `${status}: the contract says "The receiver must answer 200; otherwise the service retries with growing delays (3 retries at 4 s, 128 s and 2048 s in the current docs)."`,
      );
    },
  );

  it('a receiver that answers 500 to malformed JSON fails that post under --profile strict (exit 1), and passes the default profile, which says so', async () => {
    const url = await receiver((body, _req, res) => {
      try {
        JSON.parse(body.toString());
        res.writeHead(200).end();
      } catch {
        res.writeHead(500).end('boom');
      }
    });
    const strict = await conformanceInProcess(['webhook', '--url', url, '--profile', 'strict']);
    expect(strict.code).toBe(1);
    expect(strict.out).toContain('FAIL [receiver-survives] a receiver answered a post that is no callback with a 5xx');
    expect(strict.out).toContain('first:    webhook [decision]: malformed JSON');
    expect(strict.out).toMatch(/^profile strict: /m);
    // What is not a callback is this contract's expectation: the default profile does not post it.
    const described = await conformanceInProcess(['webhook', '--url', url]);
    expect(described.code, described.out).toBe(0);
    expect(described.out).not.toContain('malformed JSON');
    expect(described.out).toMatch(/^profile described: the description's facts only/m);
    expect(Number(/^(\d+) passed, 0 failed$/m.exec(described.out)?.[1])).toBeGreaterThanOrEqual(25);
    const bad = await conformanceInProcess(['webhook', '--url', url, '--profile', 'lenient']);
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('--profile must be described or strict, got "lenient"');
  }, 30_000);

  it('a receiver that hangs on an oversized body fails it within the timeout', async () => {
    const url = await receiver((body, _req, res) => {
      if (body.length < 1024 * 1024) res.writeHead(200).end();
    });
    const report = await checkWebhookReceiver({ url, timeoutMs: 500, profile: 'strict' });
    expect(report.results.find((r) => r.name === 'an oversized body (2 MiB)')).toMatchObject({
      ok: false,
      actual: 'no answer within 500 ms',
    });
    expect(report.results.filter((r) => !r.ok)).toHaveLength(1);
  });
});
