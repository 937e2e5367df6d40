// The client against servers that misbehave: redirects to another origin, success bodies of the
// wrong shape, endless bodies; parseStatusCallback against hostile input; codes named like
// Object.prototype's members.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createMessagingClient, ResponseTooLargeError } from '../../src/client/index.ts';
import { parseStatusCallback, StatusCallbackError } from '../../src/client/webhooks.ts';
import { json, problem, startStub, type Stub } from '../helpers/stub.ts';

const schedule = {
  cascadeId: 1003,
  subscriberFilter: { address: '79001234567', type: 'PHONE' as const },
  content: { smsContent: { contentType: 'TEXT' as const, text: 'Hi' } },
};
const stubs: Stub[] = [];
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((s) => s.close()));
});
const stub = async (...args: Parameters<typeof startStub>) => {
  const s = await startStub(...args);
  stubs.push(s);
  return s;
};

describe('redirects', () => {
  it.each([301, 302, 307, 308])(
    'a %i to another origin is not followed: the key and the body stay home',
    async (status) => {
      const elsewhere = await stub((_req, res) => json(res, 200, { requestId: 'x' }));
      const home = await stub((_req, res) => res.writeHead(status, { location: `${elsewhere.url}/collect` }).end());
      const client = createMessagingClient({ baseUrl: home.url, apiKey: 'secret-key', retry: false });
      const error = await client.scheduleCascade(schedule).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(status);
      expect((error as Error).message).toContain(`redirect to "${elsewhere.url}/collect" not followed`);
      expect(elsewhere.requests).toEqual([]);
      // raw calls do not follow either: the 3xx is the answer.
      const { response } = await client.raw.POST('/api/cascade/schedule', { body: { ...schedule, requestId: 'r-1' } });
      expect(response.status).toBe(status);
      expect(elsewhere.requests).toEqual([]);
    },
  );
});

describe('success bodies of the wrong shape', () => {
  it.each([
    ['a 200 without requestId', {}, '200 with requestId missing; the contract requires it (string)'],
    ['requestId of the wrong type', { requestId: 42 }, '200 with requestId number; the contract requires it (string)'],
    ['an array', [], '200 with requestId missing'],
    ['null', null, '200 with requestId missing'],
  ])('%s is an ApiError naming the field', async (_name, body, message) => {
    const server = await stub((_req, res) => json(res, 200, body));
    const client = createMessagingClient({ baseUrl: server.url, apiKey: 'k', retry: false });
    const error = await client.scheduleCascade(schedule).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).toContain(message);
  });

  it('closeThreads checks all four lists', async () => {
    const server = await stub((_req, res) =>
      json(res, 200, { resolved_threads: [1], not_existing_threads: [], already_resolved_threads: [] }),
    );
    const client = createMessagingClient({ baseUrl: server.url, integratorToken: 't', retry: false });
    await expect(client.closeThreads({ threadIds: [1] })).rejects.toThrow(
      '200 with not_resolved_due_to_system_error missing; the contract requires it (array)',
    );
  });
});

describe('response size', () => {
  /** A server that sends `chunk` forever (until the client goes away); counts what it wrote. */
  async function endless(headers: Record<string, string> = {}) {
    let written = 0;
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      res.write('{"requestId": "');
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      written: () => written,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }

  it('an endless body stops at maxResponseBytes with ResponseTooLargeError', async () => {
    const server = await endless();
    try {
      const client = createMessagingClient({
        baseUrl: server.url,
        apiKey: 'k',
        retry: false,
        maxResponseBytes: 1_000_000,
      });
      const error = await client.scheduleCascade(schedule).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect((error as Error).message).toContain('response body exceeds maxResponseBytes (1000000)');
    } finally {
      await server.close();
    }
  });

  it('a declared length over the cap is refused before the body is read', async () => {
    const big = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '20000000' });
      res.write('{');
    });
    const client = createMessagingClient({ baseUrl: big.url, apiKey: 'k', retry: false });
    const error = await client.scheduleCascade(schedule).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toContain('response body of 20000000 bytes exceeds maxResponseBytes (10000000)');
  });
});

describe('codes named like members of Object.prototype', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    '%s is kept as the string it is',
    async (title) => {
      const server = await stub((_req, res) => problem(res, 400, title));
      const client = createMessagingClient({ baseUrl: server.url, apiKey: 'k', retry: false });
      const error = (await client.scheduleCascade(schedule).catch((e: unknown) => e)) as ApiError;
      expect(error.code).toBe(title);
      expect(typeof error.code).toBe('string');
    },
  );
});

describe('parseStatusCallback against hostile input', () => {
  const callback = { messageId: 1, status: 'DELIVERED', statusAt: '2030-01-15T09:30:04Z' };

  it('refuses a body over its cap without parsing it', () => {
    const big = JSON.stringify({ ...callback, comment: 'x'.repeat(2 * 1024 * 1024) });
    expect(() => parseStatusCallback(big)).toThrow(StatusCallbackError);
    expect(() => parseStatusCallback(Buffer.from(big))).toThrow(/bytes; expected at most 1048576/);
    expect(parseStatusCallback(big, { maxBytes: 4 * 1024 * 1024 }).status).toBe('DELIVERED');
  });

  it('turns a throwing Proxy or getter into StatusCallbackError', () => {
    const trap = new Proxy(
      {},
      {
        get: () => {
          throw new Error('boom');
        },
        ownKeys: () => {
          throw new Error('boom');
        },
      },
    );
    expect(() => parseStatusCallback(trap)).toThrow(StatusCallbackError);
    const getter = Object.defineProperty({ ...callback }, 'status', {
      enumerable: true,
      get: () => {
        throw new Error('nope');
      },
    });
    expect(() => parseStatusCallback(getter)).toThrow(/could not be read \(nope\)/);
  });
});

describe('bodies JSON cannot hold', () => {
  it.each([
    [
      'a cycle',
      (() => {
        const body: Record<string, unknown> = { threadIds: [1] };
        body.self = body;
        return body;
      })(),
      /^closeThreads: the body cannot be written as JSON, nothing was sent: .*circular/i,
    ],
    // (a bigint is written as its digits: test/client/int64.test.ts)
    [
      'a number past 2^53 - 1, which may be rounded already',
      { threadIds: [1, 2 ** 53] },
      /^closeThreads: threadIds\[1\] is 9007199254740992, a number past 2\^53 - 1, which may already be rounded; nothing was sent/,
    ],
  ])('%s is a TypeError before anything is sent, not a network failure retried', async (_name, body, message) => {
    const server = await stub((_req, res) => json(res, 200, {}));
    const client = createMessagingClient({ baseUrl: server.url, integratorToken: 't' });
    const error = await client.closeThreads(body as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(message);
    expect(server.requests).toEqual([]);
  });
});
