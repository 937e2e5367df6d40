// The client against a local node:http stub: headers, results, errors, timeouts and retry rules.
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  MissingCredentialError,
  NetworkError,
  TimeoutError,
  createMessagingClient,
  isKnownErrorCode,
  type MessagingClientOptions,
} from '../../src/client/index.ts';
import knownCodes from '../../generated/error-codes.json' with { type: 'json' };
import { errorCodeAliases } from '../../src/core/meta.ts';
import { json, problem, startStub, type Handler, type Stub } from '../helpers/stub.ts';

const emptyResult = {
  resolved_threads: [],
  not_existing_threads: [],
  already_resolved_threads: [],
  not_resolved_due_to_system_error: [],
};
const schedule = {
  cascadeId: 1003,
  subscriberFilter: { address: '79001234567', type: 'PHONE' as const },
  content: { smsContent: { contentType: 'TEXT' as const, text: 'Hi' } },
};
const subscriber = { addresses: [{ address: 'crm-1', type: 'EXT_USER_ID' as const }] };

let stub: Stub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

/** A stub and a client on it; sleeps are recorded instead of waited. */
async function setup(handler: Handler, options: Partial<MessagingClientOptions> = {}) {
  stub = await startStub(handler);
  const sleeps: number[] = [];
  const client = createMessagingClient({
    baseUrl: stub.url,
    apiKey: 'key-1',
    integratorToken: 'token-1',
    timeoutMs: 2_000,
    retry: {
      retries: 2,
      baseDelayMs: 100,
      maxDelayMs: 1_000,
      jitter: false,
      sleep: async (ms) => void sleeps.push(ms),
    },
    ...options,
  });
  return { client, requests: stub.requests, sleeps };
}

describe('requests', () => {
  it('sends x-api-key for subscribers and cascades, a bearer token for threads, JSON bodies', async () => {
    const { client, requests } = await setup((req, res) =>
      req.url.includes('threads')
        ? json(res, 200, emptyResult)
        : req.url.includes('cascade')
          ? json(res, 200, { requestId: JSON.parse(req.body).requestId })
          : json(res, 200, {}),
    );
    await client.closeThreads({ threadIds: [1] });
    await client.createSubscriber(subscriber);
    await client.scheduleCascade(schedule);
    expect(requests.map((r) => [r.method, r.url])).toEqual([
      ['POST', '/api/v1/threads/close'],
      ['POST', '/api/subscribers/create'],
      ['POST', '/api/cascade/schedule'],
    ]);
    expect(requests[0]!.headers.authorization).toBe('Bearer token-1');
    expect(requests[0]!.headers['x-api-key']).toBeUndefined();
    expect(requests[1]!.headers['x-api-key']).toBe('key-1');
    expect(requests[2]!.headers['x-api-key']).toBe('key-1');
    expect(requests[2]!.headers.authorization).toBeUndefined();
    expect(requests.every((r) => r.headers['content-type'] === 'application/json')).toBe(true);
    expect(JSON.parse(requests[0]!.body)).toEqual({ threadIds: [1] });
  });

  it('rejects before sending when the operation needs a credential it was not given', async () => {
    const { client, requests } = await setup((_req, res) => json(res, 200, emptyResult), {
      integratorToken: undefined,
      apiKey: undefined,
    });
    await expect(client.closeThreads({ threadIds: [1] })).rejects.toBeInstanceOf(MissingCredentialError);
    await expect(client.scheduleCascade(schedule)).rejects.toThrow(/needs the "apiKey" option/);
    await expect(client.raw.POST('/api/subscribers/create', { body: subscriber })).rejects.toBeInstanceOf(
      MissingCredentialError,
    );
    expect(requests).toHaveLength(0);
  });

  it('fills a fresh requestId when none is given and keeps a given one', async () => {
    const { client, requests } = await setup((req, res) =>
      json(res, 200, { requestId: JSON.parse(req.body).requestId }),
    );
    const first = await client.scheduleCascade(schedule);
    const second = await client.scheduleCascade(schedule);
    expect(first.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second.requestId).not.toBe(first.requestId);
    const given = await client.scheduleCascade({ ...schedule, requestId: '5b1c7a8e-3f2d-4c6b-9a0e-1d2f3a4b5c6d' });
    expect(given).toEqual({ requestId: '5b1c7a8e-3f2d-4c6b-9a0e-1d2f3a4b5c6d', acceptedOnEarlierAttempt: false });
    expect(JSON.parse(requests[2]!.body).requestId).toBe('5b1c7a8e-3f2d-4c6b-9a0e-1d2f3a4b5c6d');
  });

  it('rejects a baseUrl that is not an http(s) URL', () => {
    expect(() => createMessagingClient({ baseUrl: 'app.edna.io' })).toThrow(
      /baseUrl must be an http\(s\) URL, got "app.edna.io"/,
    );
  });
});

describe('errors', () => {
  it('turns a problem body into an ApiError with code, status and detail', async () => {
    const { client } = await setup((_req, res) => problem(res, 401, 'auth-error', 'The API key is wrong.'));
    const error = await client.createSubscriber(subscriber).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'auth-error',
      title: 'auth-error',
      status: 401,
      detail: 'The API key is wrong.',
      operation: 'createSubscriber',
    });
    expect((error as ApiError).message).toBe('createSubscriber: 401 auth-error: The API key is wrong.');
    expect((error as ApiError).response.status).toBe(401);
  });

  it('keeps an unknown code as it came', async () => {
    const { client } = await setup((_req, res) => problem(res, 400, 'quota-exceeded-next-year'));
    const error = (await client.scheduleCascade(schedule).catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ code: 'quota-exceeded-next-year', status: 400, violations: [] });
    expect(isKnownErrorCode(error.code)).toBe(false);
    expect(isKnownErrorCode('auth-error')).toBe(true);
    expect(isKnownErrorCode('cascade-scheduling-request-not-valid')).toBe(true);
  });

  it.each(['cascade-scheduling-request-is-not-valid', 'cascade-scheduling-request-not-valid'])(
    'error.is takes either spelling of the validation code for an answer titled %s',
    async (title) => {
      const { client } = await setup((_req, res) => problem(res, 400, title, 'Violations: x'));
      const error = (await client.scheduleCascade(schedule).catch((e: unknown) => e)) as ApiError;
      expect(error.is('cascade-scheduling-request-is-not-valid')).toBe(true);
      expect(error.is('cascade-scheduling-request-not-valid')).toBe(true);
      expect(error.is('cascade-not-found')).toBe(false);
      expect(error.is('request-doesn’t-contain-content-for-all-cascade-stages')).toBe(false);
    },
  );

  it('error.is is true for its own code only, and false for every known code on an unknown one', async () => {
    const { client } = await setup((req, res) =>
      req.url.includes('cascade')
        ? problem(res, 400, "request-doesn't-contain-content-for-all-cascade-stages")
        : problem(res, 400, 'quota-exceeded-next-year'),
    );
    const missing = (await client.scheduleCascade(schedule).catch((e: unknown) => e)) as ApiError;
    expect(missing.code).toBe('request-doesn’t-contain-content-for-all-cascade-stages');
    expect(missing.message).toBe(
      `scheduleCascade: 400 request-doesn’t-contain-content-for-all-cascade-stages (the service wrote "request-doesn't-contain-content-for-all-cascade-stages")`,
    );
    expect(missing.is('request-doesn’t-contain-content-for-all-cascade-stages')).toBe(true);
    expect(missing.is("request-doesn't-contain-content-for-all-cascade-stages")).toBe(true);
    expect(missing.is('cascade-scheduling-request-is-not-valid')).toBe(false);
    const unknown = (await client.createSubscriber(subscriber).catch((e: unknown) => e)) as ApiError;
    expect(unknown.code).toBe('quota-exceeded-next-year');
    expect(unknown.message).toBe('createSubscriber: 400 quota-exceeded-next-year');
    const known = [...knownCodes, ...Object.keys(errorCodeAliases)];
    expect(known.length).toBeGreaterThan(20);
    expect(known.filter((code) => unknown.is(code as never))).toEqual([]);
  });

  it.each(['cascade-scheduling-request-is-not-valid', 'cascade-scheduling-request-not-valid'])(
    'reads the spelling %s as the one validation code, with its violations',
    async (title) => {
      const detail =
        'Cascade scheduling request is not valid. Violations: Cascade has no stage for the content channel [cascadeTemplateId:1,001;contentChannelType:WHATSAPP]; Content is missing for the cascade stage [cascadeTemplateId:1,001;stageUUID:6f1d2c3b-0a4e-4b5f-8c7d-1e2f3a4b5c02;channelType:SMS]';
      const { client } = await setup((_req, res) => problem(res, 400, title, detail));
      const error = (await client.scheduleCascade(schedule).catch((e: unknown) => e)) as ApiError;
      expect(error.code).toBe('cascade-scheduling-request-is-not-valid');
      expect(error.title).toBe(title);
      // The message leads with `code`, and gives the service's own spelling where it differs.
      const spelled = title === error.code ? '' : ` (the service wrote "${title}")`;
      expect(error.message).toBe(`scheduleCascade: 400 cascade-scheduling-request-is-not-valid${spelled}: ${detail}`);
      expect(error.violations).toMatchObject([
        { kind: 'no-stage-for-content', cascadeTemplateId: 1001, channel: 'WHATSAPP' },
        {
          kind: 'no-content-for-stage',
          cascadeTemplateId: 1001,
          stageId: '6f1d2c3b-0a4e-4b5f-8c7d-1e2f3a4b5c02',
          channel: 'SMS',
        },
      ]);
    },
  );

  it.each([
    [
      'an HTML page from a proxy',
      502,
      'text/html',
      '<html><body>Bad gateway</body></html>',
      /502 with a body that is not a problem: "<html><body>Bad gateway/,
    ],
    ['an empty body', 500, 'application/json', '', /500 with a body that is not a problem: \(empty\)/],
    [
      'invalid JSON',
      400,
      'application/json',
      '{"title": "auth-',
      /400 with a body that is not a problem: "\{\\"title\\": \\"auth-"/,
    ],
    [
      'JSON that is not a problem',
      400,
      'application/json',
      '{"error": "bad"}',
      /400 with a body that is not a problem/,
    ],
  ])('a non-problem error body (%s) is an ApiError with its status', async (_what, status, type, body, message) => {
    const { client } = await setup(
      (_req, res) => {
        res.writeHead(status, { 'content-type': type });
        res.end(body);
      },
      { retry: false },
    );
    const error = (await client.createSubscriber(subscriber).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(status);
    expect(error.code).toBeNull();
    expect(error.message).toMatch(message);
  });

  it('a success status with a body that is not JSON is an ApiError', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>login</html>');
    });
    await expect(client.closeThreads({ threadIds: [1] })).rejects.toThrow(
      /closeThreads: 200 with a body that is not JSON: "<html>login<\/html>"/,
    );
  });

  it('an empty success body is an error where the contract requires a body, and {} where it leaves it open', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-length': '0' });
      res.end();
    });
    await expect(client.closeThreads({ threadIds: [1] })).rejects.toThrow(/empty body; the contract requires one/);
    await expect(client.createSubscriber(subscriber)).resolves.toEqual({});
  });

  it('a server that never answers gives TimeoutError', async () => {
    const { client } = await setup(() => {}, { timeoutMs: 100, retry: false });
    const error = await client.closeThreads({ threadIds: [1] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toBe('closeThreads: no complete answer within 100 ms');
  });

  it('a body that stalls after the headers gives TimeoutError', async () => {
    const { client } = await setup(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"resolved_threads": [');
      },
      { timeoutMs: 150, retry: false },
    );
    await expect(client.closeThreads({ threadIds: [1] })).rejects.toBeInstanceOf(TimeoutError);
  });

  it('a refused connection gives NetworkError, marked as not sent', async () => {
    // Below the ephemeral range, where no test's server listens (they take port 0), and not one fetch refuses to use:
    // a port found free a moment ago could be a parallel test's server by now.
    const port = 1023;
    const client = createMessagingClient({ baseUrl: `http://127.0.0.1:${port}`, integratorToken: 't', retry: false });
    const error = await client.closeThreads({ threadIds: [1] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ notSent: true, operation: 'closeThreads', code: 'ECONNREFUSED' });
    // fetch's own "fetch failed" says nothing: the message names what failed, and the cause stays.
    expect((error as Error).message).toBe(
      `closeThreads: network failure: fetch failed: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'NetworkError',
      operation: 'closeThreads',
      message: (error as Error).message,
      code: 'ECONNREFUSED',
      notSent: true,
    });
  });

  it('a port fetch refuses to use gives NetworkError, marked as not sent: nothing left the process', async () => {
    const client = createMessagingClient({ baseUrl: 'http://127.0.0.1:6000', integratorToken: 't', retry: false });
    const error = await client.closeThreads({ threadIds: [1] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ notSent: true, operation: 'closeThreads' });
    expect((error as Error).message).toBe('closeThreads: network failure: fetch failed: bad port');
  });

  it('an ApiError prints in a few lines, without the Response, and its JSON is what a log needs', async () => {
    const { client } = await setup((_q, r) =>
      json(r, 400, { title: 'out-of-balance', status: 400, detail: 'The balance is insufficient.' }),
    );
    const error = (await client
      .scheduleCascade({ cascadeId: 1, subscriberFilter: { address: 'a', type: 'PHONE' }, content: {} })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.response.status).toBe(400); // reachable
    const printed = inspect(error);
    expect(printed.split('\n').length).toBeLessThanOrEqual(15);
    expect(printed).not.toMatch(/Response|Headers|undici|\[Symbol/);
    expect(printed).toContain('ApiError: scheduleCascade: 400 out-of-balance: The balance is insufficient.');
    expect(printed).toContain(
      `operation: "scheduleCascade", requestId: "${error.requestId}", status: 400, code: "out-of-balance", detail: "The balance is insufficient."`,
    );
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/); // the one the client filled in and sent
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'ApiError',
      operation: 'scheduleCascade',
      message: 'scheduleCascade: 400 out-of-balance: The balance is insufficient.',
      requestId: error.requestId,
      status: 400,
      code: 'out-of-balance',
      detail: 'The balance is insufficient.',
    });
  });

  it('a call sends its own headers (Prefer for the mock), never in place of the credentials', async () => {
    const { client, requests } = await setup((_q, r) => json(r, 200, emptyResult));
    await client.closeThreads(
      { threadIds: [1] },
      { headers: { prefer: 'code=200, example=resolved', Authorization: 'Bearer stolen', 'X-Trace': 't-1' } },
    );
    expect(requests[0]!.headers).toMatchObject({
      prefer: 'code=200, example=resolved',
      authorization: 'Bearer token-1',
      'x-trace': 't-1',
    });
    await client.createSubscriber(
      { addresses: [{ address: 'a', type: 'EXT_USER_ID' }] },
      { headers: { 'X-API-KEY': 'other' } },
    );
    expect(requests[1]!.headers['x-api-key']).toBe('key-1');
  });

  it('the caller can abort a call', async () => {
    const { client } = await setup(() => {}, { retry: false });
    const controller = new AbortController();
    const call = client.closeThreads({ threadIds: [1] }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('retries', () => {
  const failThen =
    (failures: Array<(res: Parameters<Handler>[1]) => void>, success: Handler): Handler =>
    (req, res, i) =>
      i < failures.length ? failures[i]!(res) : success(req, res, i);

  it('closeThreads retries 5xx with exponential backoff and succeeds', async () => {
    const { client, requests, sleeps } = await setup(
      failThen([(r) => problem(r, 503, 'system-error'), (r) => problem(r, 500, 'system-error')], (_q, r) =>
        json(r, 200, emptyResult),
      ),
    );
    await expect(client.closeThreads({ threadIds: [1] })).resolves.toEqual(emptyResult);
    expect(requests).toHaveLength(3);
    expect(sleeps).toEqual([100, 200]);
  });

  it('stops after the configured retries and rejects with the last error', async () => {
    const { client, requests } = await setup((_q, r) => problem(r, 500, 'system-error'));
    await expect(client.closeThreads({ threadIds: [1] })).rejects.toMatchObject({ code: 'system-error', status: 500 });
    expect(requests).toHaveLength(3);
  });

  it('never retries a 4xx other than 429', async () => {
    const { client, requests } = await setup((_q, r) => problem(r, 400, 'comment-is-too-long'));
    await expect(client.closeThreads({ threadIds: [1], comment: 'x' })).rejects.toMatchObject({
      code: 'comment-is-too-long',
    });
    expect(requests).toHaveLength(1);
  });

  it('retries a timed-out closeThreads', async () => {
    const { client, requests } = await setup((_req, res, i) => (i === 0 ? undefined : json(res, 200, emptyResult)), {
      timeoutMs: 100,
    });
    await expect(client.closeThreads({ threadIds: [1] })).resolves.toEqual(emptyResult);
    expect(requests).toHaveLength(2);
  });

  it('full jitter waits a random share of the step, capped', async () => {
    const sleeps: number[] = [];
    stub = await startStub((_q, r) => problem(r, 503, 'system-error'));
    const client = createMessagingClient({
      baseUrl: stub.url,
      integratorToken: 't',
      retry: {
        retries: 4,
        baseDelayMs: 400,
        maxDelayMs: 1000,
        random: () => 0.5,
        sleep: async (ms) => void sleeps.push(ms),
      },
    });
    await expect(client.closeThreads({ threadIds: [1] })).rejects.toBeInstanceOf(ApiError);
    expect(sleeps).toEqual([200, 400, 500, 500]);
  });

  it('honours Retry-After within the cap and gives up past it', async () => {
    const ok = await setup(
      failThen([(r) => problem(r, 429, 'too-many-requests', undefined, { 'retry-after': '1' })], (_q, r) =>
        json(r, 200, emptyResult),
      ),
    );
    await expect(ok.client.closeThreads({ threadIds: [1] })).resolves.toEqual(emptyResult);
    expect(ok.sleeps).toEqual([1000]);
    await stub!.close();
    const tooLong = await setup((_q, r) => problem(r, 503, 'system-error', undefined, { 'retry-after': '30' }));
    await expect(tooLong.client.closeThreads({ threadIds: [1] })).rejects.toMatchObject({ status: 503 });
    expect(tooLong.requests).toHaveLength(1);
  });

  it('createSubscriber is never retried once the request may have reached the server', async () => {
    const five = await setup((_q, r) => problem(r, 500, 'system-error'));
    await expect(five.client.createSubscriber(subscriber)).rejects.toMatchObject({ status: 500 });
    expect(five.requests).toHaveLength(1);
    await stub!.close();
    const slow = await setup(() => {}, { timeoutMs: 100 });
    await expect(slow.client.createSubscriber(subscriber)).rejects.toBeInstanceOf(TimeoutError);
    expect(slow.requests).toHaveLength(1);
    await stub!.close();
    // A connection dropped after the request was sent: not safe to repeat.
    const dropped = await setup((_q, res) => res.socket?.destroy());
    await expect(dropped.client.createSubscriber(subscriber)).rejects.toMatchObject({
      name: 'NetworkError',
      notSent: false,
    });
    expect(dropped.requests).toHaveLength(1);
  });

  it('createSubscriber is retried when the request was never sent, and on 429', async () => {
    const { client, requests, sleeps } = await setup(
      failThen([(r) => problem(r, 429, 'too-many-requests')], (_q, r) => json(r, 200, {})),
    );
    await expect(client.createSubscriber(subscriber)).resolves.toEqual({});
    expect(requests).toHaveLength(2);
    let calls = 0;
    const refusedOnce: typeof fetch = async (input, init) => {
      if (calls++ === 0) throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
      return fetch(input, init);
    };
    const retried = createMessagingClient({
      baseUrl: stub!.url,
      apiKey: 'k',
      fetch: refusedOnce,
      retry: { jitter: false, sleep: async (ms) => void sleeps.push(ms) },
    });
    await expect(retried.createSubscriber(subscriber)).resolves.toEqual({});
    expect(calls).toBe(2);
  });

  it('scheduleCascade: a retry answered requestId-is-not-unique reports the earlier attempt as accepted', async () => {
    const seen = new Set<string>();
    const { client, requests } = await setup((req, res, i) => {
      const { requestId } = JSON.parse(req.body);
      if (seen.has(requestId)) return problem(res, 400, 'requestId-is-not-unique');
      seen.add(requestId);
      // The first attempt is accepted but its response is lost.
      return i === 0 ? res.socket?.destroy() : json(res, 200, { requestId });
    });
    const result = await client.scheduleCascade(schedule);
    expect(result.acceptedOnEarlierAttempt).toBe(true);
    expect(requests).toHaveLength(2);
    expect(JSON.parse(requests[1]!.body).requestId).toBe(JSON.parse(requests[0]!.body).requestId);
    expect(result.requestId).toBe(JSON.parse(requests[0]!.body).requestId);
  });

  it('scheduleCascade: a duplicate on the first attempt is an ApiError', async () => {
    const { client } = await setup((_q, r) => problem(r, 400, 'requestId-is-not-unique'));
    await expect(
      client.scheduleCascade({ ...schedule, requestId: '00000000-0000-4000-8000-000000000001' }),
    ).rejects.toMatchObject({ code: 'requestId-is-not-unique' });
  });

  it('retry: false sends once', async () => {
    const { client, requests } = await setup((_q, r) => problem(r, 503, 'system-error'), { retry: false });
    await expect(client.closeThreads({ threadIds: [1] })).rejects.toBeInstanceOf(ApiError);
    expect(requests).toHaveLength(1);
  });
});
