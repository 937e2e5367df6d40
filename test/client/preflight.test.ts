import { afterEach, describe, expect, it } from 'vitest';
import { createValidatingClient, RequestValidationError, validateRequest } from '../../src/client/preflight.ts';
import { limits } from '../helpers/contract.ts';
import { json, startStub, type Stub } from '../helpers/stub.ts';

let stub: Stub | undefined;
afterEach(async () => {
  await stub?.close();
});

const url = (text: string) => ({ buttonType: 'URL' as const, text, url: `https://e.org/${text}` });
const cascade = (whatsappContent: object) => ({
  requestId: '5b1c7a8e-3f2d-4c6b-9a0e-1d2f3a4b5c6d',
  cascadeId: 1004,
  subscriberFilter: { address: '79001234567', type: 'PHONE' },
  content: { whatsappContent: { contentType: 'TEXT', text: 'hi', ...whatsappContent } },
});

describe('preflight', () => {
  it('names each field that breaks the contract, with limits read from the document', () => {
    const errors = validateRequest('closeThreads', { threadIds: ['1'], comment: 'x'.repeat(limits.comment + 1) });
    expect(errors).toHaveLength(2);
    expect(errors[0]).toBe('threadIds[0]: got "1"; expected it to be of type integer');
    expect(errors[1]).toMatch(
      new RegExp(`^comment: got "x+ …; expected it to have at most ${limits.comment} characters$`),
    );
  });

  it("checks a request as the client's method takes it: scheduleCascade needs no requestId, the client fills one in", () => {
    const { requestId: _, ...withoutId } = cascade({});
    expect(validateRequest('scheduleCascade', withoutId)).toEqual([]);
    expect(validateRequest('scheduleCascade', { ...withoutId, requestId: '' })).toEqual([
      'requestId: got ""; expected it to have at least 1 character',
    ]);
    expect(validateRequest('scheduleCascade', null)).toEqual(['(body): got null; expected it to be of type object']);
  });

  it('counts buttons across keyboard rows', () => {
    const twoRows = cascade({ keyboard: { rows: [{ buttons: [url('a'), url('b')] }, { buttons: [url('c')] }] } });
    const errors = validateRequest('scheduleCascade', twoRows);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^content\.whatsappContent\.keyboard \(all rows\): got .*; expected it to contain at most 2 item\(s\) with buttonType = "URL"$/,
    );
    expect(
      validateRequest(
        'scheduleCascade',
        cascade({ keyboard: { rows: [{ buttons: [url('a')] }, { buttons: [url('b')] }] } }),
      ),
    ).toEqual([]);
  });

  it('rejects before sending and sends a valid request', async () => {
    stub = await startStub((req, res) => json(res, 200, { requestId: JSON.parse(req.body).requestId }));
    const client = createValidatingClient({ baseUrl: stub.url, apiKey: 'k', integratorToken: 't' });
    const error = await client
      .scheduleCascade({ cascadeId: 1003, subscriberFilter: { address: '7', type: 'PHONE' }, content: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).errors).toEqual([
      'content: got {}; expected it to have at least 1 property',
    ]);
    expect(stub.requests).toHaveLength(0);
    await expect(
      client.scheduleCascade({
        cascadeId: 1003,
        subscriberFilter: { address: '7', type: 'PHONE' },
        content: { smsContent: { contentType: 'TEXT', text: 'hi' } },
      }),
    ).resolves.toMatchObject({ acceptedOnEarlierAttempt: false });
    expect(stub.requests).toHaveLength(1);
  });
});
