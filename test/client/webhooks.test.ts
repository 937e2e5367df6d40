import { describe, expect, it } from 'vitest';
import { parseStatusCallback, StatusCallbackError } from '../../src/client/webhooks.ts';

const base = {
  requestId: '3c6e0b8a-9c0b-4b1e-8f3a-000000000001',
  messageId: 700123456,
  cascadeId: 1001,
  status: 'DELIVERED',
  statusAt: '2030-01-15T09:30:04Z',
};

describe('parseStatusCallback', () => {
  it.each([
    ['DELIVERED', { ...base }],
    ['READ, from a string body', JSON.stringify({ ...base, status: 'READ', requestId: null })],
    [
      'UNDELIVERED with a code',
      { ...base, status: 'UNDELIVERED', error: 'error-address-format', comment: 'bad number' },
    ],
    ['from a Buffer', Buffer.from(JSON.stringify({ ...base, status: 'SENT' }))],
    ['an unknown status and code', { ...base, status: 'PAUSED', error: 'brand-new-code' }],
    ['extra fields', { ...base, paymentData: { amount: 1 }, somethingNew: true }],
    [
      'ids that are UUID-like but not UUIDs, a numeric-string cascadeId, a time without a zone',
      { ...base, requestId: 'req-42', cascadeStageUUID: 'stage-7', cascadeId: '1001', statusAt: '2030-01-15T09:30:04' },
    ],
  ])('accepts %s', (_name, body) => {
    const parsed = parseStatusCallback(body);
    expect(parsed.messageId).toBe(700123456);
  });

  it.each([
    [
      'messageId as a string',
      { ...base, messageId: '700123456' },
      'messageId: got "700123456"; expected it to be of type integer',
    ],
    ['no status', { ...base, status: undefined }, 'status: missing'],
    ['statusAt empty', { ...base, statusAt: '' }, 'statusAt: got ""; expected it to have at least 1 character'],
    ['UNDELIVERED without a code', { ...base, status: 'UNDELIVERED' }, 'error: missing'],
    ['UNDELIVERED with a null code', { ...base, status: 'UNDELIVERED', error: null }, 'error: got null'],
    ['requestId empty', { ...base, requestId: '' }, 'requestId: got ""'],
    ['cascadeId not a number', { ...base, cascadeId: 'abc' }, 'cascadeId: got "abc"'],
    ['a number as status', { ...base, status: 5 }, 'status: got 5'],
    ['an array', [base], '(body): got'],
    ['invalid JSON', '{"messageId": ', '(body): not valid JSON'],
  ])('rejects %s, naming the field', (_name, body, message) => {
    let error: unknown;
    try {
      parseStatusCallback(body);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StatusCallbackError);
    expect((error as StatusCallbackError).message).toContain(message);
  });
});
