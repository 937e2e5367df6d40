// Int64 identifiers past 2^53 - 1 (issue 30): sent as bigints and written as their digits, read
// back exactly (a bigint) from answers, error answers and status callbacks, against a stub server
// and against the sandbox; never a different number. Also the shared reader and writer
// (src/core/json-int64.ts) on their own, and the document's int64 fields against the client's types.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createMessagingClient } from '../../src/client/index.ts';
import { validateRequest } from '../../src/client/preflight.ts';
import { parseStatusCallback, StatusCallbackError } from '../../src/client/webhooks.ts';
import { parseJson, toJson } from '../../src/core/json-int64.ts';
import { Digits, serialize } from '../../src/core/digits.ts';
import { bundledDocumentPath } from '../../src/paths.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { growth } from '../helpers/growth.ts';
import { startStub, type Stub } from '../helpers/stub.ts';

const past53 = 2n ** 53n + 1n; // 9007199254740993: a number would hold 9007199254740992
const int64Max = 2n ** 63n - 1n; // 9223372036854775807: a number would hold 9223372036854775808
const below53 = -(2n ** 53n) - 1n; // -9007199254740993
const ids = [past53, int64Max, below53];

let stub: Stub | undefined;
let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await stub?.close();
  await sandbox?.close();
  stub = undefined;
  sandbox = undefined;
});

/** A stub that answers every request with `status` and the JSON text `text`, as written. */
async function answering(status: number, text: string) {
  stub = await startStub((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
  const client = createMessagingClient({ baseUrl: stub.url, apiKey: 'k', integratorToken: 't', retry: false });
  return { client, requests: stub.requests };
}

const closeAnswer = (lists: Record<string, string>) =>
  `{"resolved_threads":${lists.resolved ?? '[]'},"not_existing_threads":${lists.notExisting ?? '[]'},` +
  `"already_resolved_threads":${lists.already ?? '[]'},"not_resolved_due_to_system_error":[]}`;

describe('the client against a stub server', () => {
  it('writes bigint thread ids into the JSON text as their digits, and reads them back as bigints', async () => {
    const { client, requests } = await answering(
      200,
      closeAnswer({ resolved: '[101, 9007199254740993]', notExisting: '[9223372036854775807, -9007199254740993]' }),
    );
    const closed = await client.closeThreads({ threadIds: [101, ...ids], comment: 'Done' });
    expect(requests[0]!.body).toBe(
      '{"threadIds":[101,9007199254740993,9223372036854775807,-9007199254740993],"comment":"Done"}',
    );
    expect(closed).toEqual({
      resolved_threads: [101, past53],
      not_existing_threads: [int64Max, below53],
      already_resolved_threads: [],
      not_resolved_due_to_system_error: [],
    });
    // Exactly the digits, and a safe id stays a number.
    expect(closed.resolved_threads.map((id) => typeof id)).toEqual(['number', 'bigint']);
    expect(closed.not_existing_threads.map(String)).toEqual(['9223372036854775807', '-9007199254740993']);
  });

  it('writes a bigint cascadeId as its digits', async () => {
    const { client, requests } = await answering(200, '{"requestId":"r-1"}');
    await client.scheduleCascade({
      cascadeId: int64Max,
      requestId: 'r-1',
      subscriberFilter: { address: '79001234567', type: 'PHONE' },
      content: { smsContent: { contentType: 'TEXT', text: 'Hi' } },
    });
    expect(requests[0]!.body).toContain('"cascadeId":9223372036854775807,');
  });

  it.each([
    ['2^53 + 1', '9007199254740993', past53],
    ['2^63 - 1', '9223372036854775807', int64Max],
    ['-(2^53 + 1)', '-9007199254740993', below53],
    ['-2^63', '-9223372036854775808', -(2n ** 63n)],
    ['2^63, outside int64: kept exact, not rounded', '9223372036854775808', 2n ** 63n],
    ['2^53 + 1 written with an exponent', '9.007199254740993e15', past53],
    ['2^53 + 1 written with a fraction of zeros', '9007199254740993.000', past53],
  ])('reads %s in an answer exactly', async (_name, literal, expected) => {
    const { client } = await answering(200, closeAnswer({ already: `[${literal}]` }));
    const closed = await client.closeThreads({ threadIds: [1] });
    expect(closed.already_resolved_threads).toEqual([expected]);
  });

  it('leaves ids a number holds exactly as numbers, and strings of digits as strings', async () => {
    const { client } = await answering(
      200,
      closeAnswer({ resolved: '[9007199254740991, -9007199254740991, 0]', notExisting: '["9007199254740993"]' }),
    );
    const closed = await client.closeThreads({ threadIds: [1] });
    expect(closed.resolved_threads).toEqual([9007199254740991, -9007199254740991, 0]);
    expect(closed.not_existing_threads).toEqual(['9007199254740993']);
  });

  it('keeps an int64 exact in an error answer (ApiError.body), problem or not', async () => {
    const { client } = await answering(
      400,
      '{"title":"cascade-not-found","status":400,"detail":"no cascade 9223372036854775807","cascadeId":9223372036854775807}',
    );
    const error = (await client.closeThreads({ threadIds: [1] }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('cascade-not-found');
    expect(error.body).toEqual({
      title: 'cascade-not-found',
      status: 400,
      detail: 'no cascade 9223372036854775807',
      cascadeId: int64Max,
    });
    expect(error.response.status).toBe(400);
    expect(error.response.headers.get('content-type')).toBe('application/json');

    const other = await answering(502, '{"upstream":9007199254740993}');
    const notProblem = (await other.client.closeThreads({ threadIds: [1] }).catch((e: unknown) => e)) as ApiError;
    expect(notProblem).toBeInstanceOf(ApiError);
    expect(notProblem.body).toEqual({ upstream: past53 });
    expect(notProblem.message).toContain('9007199254740993');
  });

  it('an error answer that is not JSON keeps its text, as before', async () => {
    const { client } = await answering(500, 'upstream 9007199254740993 down');
    const error = (await client.closeThreads({ threadIds: [1] }).catch((e: unknown) => e)) as ApiError;
    expect(error.body).toBe('upstream 9007199254740993 down');
    expect(error.code).toBeNull();
  });

  it('refuses to send a number past 2^53 - 1 (it may be rounded already), naming the field', async () => {
    const { client, requests } = await answering(200, closeAnswer({}));
    for (const [threadIds, shown] of [
      [[Number('9007199254740993')], 'threadIds[0] is 9007199254740992'], // rounded before the call
      [[1, -(2 ** 60)], 'threadIds[1] is -1152921504606847000'],
      [[1e21], 'threadIds[0] is 1e+21'],
    ] as const) {
      const error = await client.closeThreads({ threadIds: [...threadIds] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toBe(
        `closeThreads: ${shown}, a number past 2^53 - 1, which may already be rounded; nothing was sent. Pass it as a bigint of its exact digits (9007199254740993n)`,
      );
    }
    // A string of 16 digits is no number: sent.
    await client.closeThreads({ threadIds: [1], comment: '9007199254740993 and 1e+21' });
    expect(requests).toHaveLength(1);
  });
});

/** A sandbox of its own (stopped after the test) and a client of it with the integrator token. */
async function sandboxClient() {
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
  return createMessagingClient({ baseUrl: sandbox.url, integratorToken: 'sandbox-integrator-token', retry: false });
}

describe('the client against the sandbox', () => {
  it('sends ids past 2^53 and reads them back exactly in not_existing_threads', async () => {
    const client = await sandboxClient();
    const closed = await client.closeThreads({ threadIds: [101, ...ids, 2n ** 53n + 2n] });
    expect(closed.resolved_threads).toEqual([101]);
    expect(closed.not_existing_threads).toEqual([...ids, 2n ** 53n + 2n]);
    expect(closed.already_resolved_threads).toEqual([]);
  });

  it('an id outside int64 is refused by the sandbox, by its field', async () => {
    const client = await sandboxClient();
    const error = (await client.closeThreads({ threadIds: [2n ** 63n] }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.detail).toContain('threadIds[0] is an integer outside int64');
  });
});

describe('parseStatusCallback', () => {
  const callback = (fields: string) =>
    `{"status":"DELIVERED","statusAt":"2030-01-15T09:30:04Z","requestId":"req-1",${fields}}`;

  it.each([
    ['a string', (t: string) => t],
    ['a Buffer', (t: string) => Buffer.from(t)],
  ])('reads messageId, subjectId and cascadeId past 2^53 exactly from %s', (_name, as) => {
    const parsed = parseStatusCallback(
      as(
        callback(
          '"messageId":9007199254740993,"subjectId":-9007199254740993,"cascadeId":9223372036854775807,"paymentData":{"amount":12345678901234567890}',
        ),
      ),
    );
    expect(parsed.messageId).toBe(past53);
    expect(parsed.subjectId).toBe(below53);
    expect(parsed.cascadeId).toBe(int64Max);
    expect(parsed.paymentData).toEqual({ amount: 12345678901234567890n }); // an open field: exact too
    expect(parseStatusCallback(callback('"messageId":700123456')).messageId).toBe(700123456);
  });

  it('accepts an already parsed value holding bigints', () => {
    const parsed = parseStatusCallback({ ...JSON.parse(callback('"messageId":1')), messageId: int64Max });
    expect(parsed.messageId).toBe(int64Max);
  });

  it.each([
    [
      'messageId 2^63',
      '"messageId":9223372036854775808',
      'messageId: got 9223372036854775808; expected it to be an integer within int64',
    ],
    [
      'messageId -2^63 - 1',
      '"messageId":-9223372036854775809',
      'messageId: got -9223372036854775809; expected it to be an integer within int64',
    ],
    [
      'cascadeId 2^64',
      '"messageId":1,"cascadeId":18446744073709551616',
      'cascadeId: got 18446744073709551616; expected it to be an integer within int64',
    ],
    [
      'a big number where a string belongs',
      '"messageId":1,"statusAt":9007199254740993',
      'statusAt: got 9007199254740993; expected it to be of type string',
    ],
    [
      'a fraction a number rounds to an integer',
      '"messageId":9007199254740993.5',
      'messageId: got 9007199254740994, past 2^53 - 1',
    ],
  ])('refuses %s, naming the field and the exact value', (_name, fields, message) => {
    let error: unknown;
    try {
      parseStatusCallback(callback(fields));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StatusCallbackError);
    expect((error as StatusCallbackError).message).toContain(message);
  });

  it('refuses an already parsed value with a number past 2^53 - 1: it may have been rounded', () => {
    const rounded = JSON.parse(callback('"messageId":9007199254740993'));
    expect(() => parseStatusCallback(rounded)).toThrow(
      'messageId: got 9007199254740992, past 2^53 - 1, where a number may already be rounded; expected it as a bigint of its exact digits',
    );
  });

  it('stays linear on a callback of many big integers and on a cyclic parsed value', () => {
    const many = (n: number) =>
      callback(`"messageId":1,"paymentData":{"ids":[${Array(n).fill('9007199254740993').join(',')}]}`);
    // Four times the integers take about four times the time (quadratic work: sixteen).
    expect(growth(many, parseStatusCallback, 5_000)).toBeLessThan(8);
    expect((parseStatusCallback(many(50_000)).paymentData as { ids: bigint[] }).ids[49_999]).toBe(past53);
    const cyclic: Record<string, unknown> = { ...JSON.parse(callback('"messageId":1')), messageId: past53 };
    cyclic.paymentData = { self: cyclic, again: cyclic };
    expect(parseStatusCallback(cyclic).messageId).toBe(past53);
  });
});

describe('preflight', () => {
  it('takes bigint ids within int64 and names one outside it, or a number that may be rounded', () => {
    expect(validateRequest('closeThreads', { threadIds: ids })).toEqual([]);
    expect(validateRequest('closeThreads', { threadIds: [1, 2n ** 63n] })).toEqual([
      'threadIds[1]: got 9223372036854775808; expected it to be an integer within int64 (-2^63 to 2^63 - 1)',
    ]);
    expect(validateRequest('closeThreads', { threadIds: [2 ** 53] })).toEqual([
      'threadIds[0]: got 9007199254740992, past 2^53 - 1, where a number may already be rounded; expected it as a bigint of its exact digits',
    ]);
    expect(validateRequest('closeThreads', { threadIds: [past53], comment: 5n })).toEqual([
      'comment: got 5; expected it to be of type string',
    ]);
  });
});

describe('the shared reader and writer (src/core/json-int64.ts)', () => {
  /** JSON values with integers of any size as bigints past 2^53 - 1, numbers within it. */
  const exactJson = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null),
      fc.boolean(),
      fc
        .double({ noNaN: true, noDefaultInfinity: true })
        .filter((n) => !Object.is(n, -0) && (!Number.isInteger(n) || Number.isSafeInteger(n))), // JSON has no -0
      fc
        .bigInt({ min: -(2n ** 70n), max: 2n ** 70n })
        .map((b) => (b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b)),
      fc.string(),
      fc.array(tie('value'), { maxLength: 5 }),
      fc.dictionary(fc.string(), tie('value'), { maxKeys: 5 }),
    ),
  })).value;

  it('reads back exactly what it wrote', () => {
    fc.assert(
      fc.property(exactJson, (value) => {
        expect(parseJson(toJson(value))).toEqual(value);
      }),
    );
  });

  it('reads what has no integer past 2^53 - 1 as JSON.parse does, and refuses what JSON.parse refuses', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const big = /\d{16}|\d[eE]/.test(text);
        // Beside a string of 16 digits the text is scanned, not handed to JSON.parse at once.
        const scanned = `[${text},"0000000000000000"]`;
        if (!big) expect(parseJson(scanned)).toEqual(JSON.parse(scanned));
      }),
    );
    for (const bad of [
      '{9007199254740993:1}',
      '[09007199254740993]',
      '[9007199254740993',
      '[-]',
      '"\\"9007199254740993',
    ]) {
      expect(() => JSON.parse(bad)).toThrow(SyntaxError);
      expect(() => parseJson(bad)).toThrow(SyntaxError);
    }
  });

  it('keeps a "__proto__" key an own property, and a string of digits a string', () => {
    const value = parseJson('{"__proto__":9007199254740993,"s":"9007199254740993","n":[9007199254740993]}') as object;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toBe(past53);
    expect(value).toMatchObject({ s: '9007199254740993', n: [past53] });
  });

  it('writes bigints as digits even where an app has given BigInt a toJSON', () => {
    const prototype = BigInt.prototype as unknown as { toJSON?: () => string };
    prototype.toJSON = function (this: bigint) {
      return this.toString();
    };
    try {
      expect(toJson({ threadIds: [past53] })).toBe('{"threadIds":[9007199254740993]}');
    } finally {
      delete prototype.toJSON;
    }
  });

  it("writes the conformance suite's Digits as digits (serialize)", () => {
    expect(serialize({ a: new Digits('9223372036854775808'), b: [new Digits('-1'), 2], s: 'x' })).toBe(
      '{"a":9223372036854775808,"b":[-1,2],"s":"x"}',
    );
  });

  it('is linear on hostile text: long digit runs, escaped quotes, deep nesting', () => {
    const texts: Array<[name: string, make: (n: number) => string, n: number]> = [
      ['a long digit run', (n) => `[${'9'.repeat(n)}]`, 600_000],
      ['an unterminated string of escaped quotes', (n) => `[9007199254740993,"${'\\"'.repeat(n)}`, 150_000],
      ['many numbers with exponents', (n) => `[${'1e1,'.repeat(n)}9007199254740993]`, 25_000],
      ['deep nesting', (n) => `${'['.repeat(n)}9007199254740993${']'.repeat(n)}`, 25_000],
    ];
    const parse = (text: string) => {
      try {
        parseJson(text);
      } catch (error) {
        expect(error).toBeInstanceOf(SyntaxError);
      }
    };
    // Four times the text takes about four times the time (quadratic work: sixteen).
    for (const [name, make, n] of texts) expect(growth(make, parse, n), name).toBeLessThan(8);
  });
});

describe("the document's int64 fields", () => {
  it('are exactly the ones the client types as Int64 (src/client/types.ts)', () => {
    // Where the bundled document says `format: int64`; a new one must be widened in src/client/types.ts.
    const document = JSON.parse(readFileSync(bundledDocumentPath, 'utf8'));
    const found: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (node === null || typeof node !== 'object') return;
      if ((node as { format?: unknown }).format === 'int64') found.push(at);
      for (const [key, child] of Object.entries(node)) walk(child, `${at}/${key}`);
    };
    walk(document, '#');
    expect(found.sort()).toEqual([
      '#/components/schemas/CascadeId',
      '#/components/schemas/StatusCallback/properties/messageId',
      '#/components/schemas/StatusCallback/properties/subjectId',
      '#/components/schemas/ThreadId',
    ]);
  });
});
