// Bad input never crashes the sandbox, never corrupts its state, and always gets a problem body.
import { connect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { limits } from '../helpers/contract.ts';
import { credentials, post, useSandbox } from '../helpers/sandbox.ts';

const sandbox = useSandbox({ bodyLimitBytes: 1_000_000, headersTimeoutMs: 300, requestTimeoutMs: 600 });

const raw = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(sandbox.url + path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': credentials.apiKey,
      authorization: `Bearer ${credentials.integratorToken}`,
      ...headers,
    },
    body,
  });

async function expectProblem(res: Response, status: number, title: string): Promise<string> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json');
  const body = await res.json();
  expect(body).toMatchObject({ title, status });
  return body.detail;
}

describe('robustness', () => {
  it('answers a body over the limit with 413 and keeps serving', async () => {
    const detail = await expectProblem(
      await raw('/api/v1/threads/close', `{"threadIds":[${'1,'.repeat(600_000)}1]}`),
      413,
      'payload-too-large',
    );
    expect(detail).toContain('1000000 bytes');
    expect((await post(sandbox.url, '/api/v1/threads/close', { threadIds: [999] })).status).toBe(200);
  });

  it.each([
    ['malformed JSON', '{"threadIds": [1,', {}, 'not valid JSON'],
    ['an empty body', '', {}, 'not valid JSON'],
    ['a wrong content type', '{"threadIds":[1]}', { 'content-type': 'text/plain' }, 'Content-Type is "text/plain"'],
    ['JSON of the wrong shape', '[1,2,3]', {}, '(body): got [1,2,3]; expected it to be of type object'],
    ['a string id', '{"threadIds":["101"]}', {}, 'threadIds[0]: got "101"; expected it to be of type integer'],
    ['a null list', '{"threadIds":null}', {}, 'threadIds: got null'],
    ['a number too big for int64', '{"threadIds":[1e400]}', {}, 'threadIds[0]'],
  ])('%s is the documented system-error naming what is wrong', async (_what, body, headers, detail) => {
    expect(await expectProblem(await raw('/api/v1/threads/close', body, headers), 500, 'system-error')).toContain(
      detail,
    );
  });

  it('deeply nested JSON does not crash it', async () => {
    const deep = `{"requestId":"aaaaaaaa-0000-4000-8000-000000000001","cascadeId":1003,"subscriberFilter":{"address":"7","type":"PHONE"},"content":{"smsContent":{"contentType":"TEXT","text":"x","extra":${'['.repeat(50_000)}${']'.repeat(50_000)}}}}`;
    expect(await expectProblem(await raw('/api/cascade/schedule', deep), 500, 'system-error')).toContain(
      'deeper than 64 levels',
    );
    await sandbox.delivery.idle();
    const deeper = '['.repeat(400_000) + ']'.repeat(400_000);
    await expectProblem(await raw('/api/subscribers/create', deeper), 500, 'system-error');
  });

  it('a large valid body within the limit is handled', async () => {
    const ids = Array.from({ length: 50_000 }, (_, i) => 1_000_000 + i);
    const res = await post(sandbox.url, '/api/v1/threads/close', { threadIds: ids });
    expect(res.body.not_existing_threads).toHaveLength(50_000);
  });

  it('bad input does not change state', async () => {
    sandbox.state.reset();
    const before = JSON.stringify([...sandbox.state.threads.values()]);
    for (const body of [
      `{"threadIds":[101],"comment":${JSON.stringify('x'.repeat(limits.comment + 1))}}`,
      '{"threadIds":[101,"x"]}',
      '{"threadIds":[101]',
      '{"threadIds":{"0":101}}',
    ]) {
      await raw('/api/v1/threads/close', body);
    }
    expect(JSON.stringify([...sandbox.state.threads.values()])).toBe(before);
    const usedBefore = sandbox.state.usedRequestIds;
    await raw(
      '/api/cascade/schedule',
      '{"requestId":"aaaaaaaa-0000-4000-8000-00000000000f","cascadeId":1003,"subscriberFilter":{"address":"7","type":"PHONE"},"content":{"smsContent":{"contentType":"TEXT","text":""}}}',
    );
    expect(sandbox.state.usedRequestIds).toBe(usedBefore);
  });

  it('a failure inside a handler is a system-error and never logs credentials', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const original = sandbox.state.matchesTemplate;
    sandbox.state.matchesTemplate = () => {
      throw new Error('simulated fault');
    };
    try {
      const res = await post(sandbox.url, '/api/cascade/schedule', {
        requestId: 'aaaaaaaa-0000-4000-8000-0000000000aa',
        cascadeId: 1003,
        subscriberFilter: { address: '79001234567', type: 'PHONE' },
        content: { smsContent: { contentType: 'TEXT', text: 'x' } },
      });
      expect(res).toMatchObject({ status: 500, body: { title: 'system-error' } });
      const logged = write.mock.calls.map((c) => String(c[0])).join('');
      expect(logged).toContain('simulated fault');
      expect(logged).not.toContain(credentials.apiKey);
      expect(logged).not.toContain(credentials.integratorToken);
    } finally {
      sandbox.state.matchesTemplate = original;
      write.mockRestore();
    }
    expect((await post(sandbox.url, '/api/v1/threads/close', { threadIds: [1] })).status).toBe(200);
  });

  it('drops a client that never finishes its headers', async () => {
    const closed = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(sandbox.url).port), '127.0.0.1', () =>
        socket.write('POST /api/v1/threads/close HTTP/1.1\r\nHost: x\r\n'),
      );
      let data = '';
      socket.on('data', (d) => (data += d));
      socket.on('close', () => resolve(data));
      socket.on('error', () => resolve(data));
    });
    expect(closed).toMatch(/^HTTP\/1\.1 408|^$/);
  });

  it('compares credentials by value, not by prefix or case', async () => {
    // (Surrounding whitespace is not part of a header value in HTTP, so it is not tried.)
    for (const key of [
      credentials.apiKey.slice(0, -1),
      credentials.apiKey.toUpperCase(),
      `${credentials.apiKey}x`,
      '',
    ]) {
      const res = await post(sandbox.url, '/api/cascade/schedule', {}, { 'x-api-key': key });
      expect(res.status, JSON.stringify(key)).toBe(401);
    }
  });
});
