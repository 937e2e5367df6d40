// The description's rules that need state or more than one call, each error code by its own
// request, and concurrency.
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError, createMessagingClient } from '../../src/client/index.ts';
import { limits } from '../helpers/contract.ts';
import { credentials, post, useSandbox } from '../helpers/sandbox.ts';

const sandbox = useSandbox();
beforeEach(() => sandbox.state.reset());

const close = (body: unknown) => post(sandbox.url, '/api/v1/threads/close', body);
const schedule = (body: unknown, headers?: Record<string, string>) =>
  post(sandbox.url, '/api/cascade/schedule', body, headers);
const subscribe = (body: unknown) => post(sandbox.url, '/api/subscribers/create', body);
const state = async () =>
  (await fetch(`${sandbox.url}/_sandbox/state`)).json() as Promise<{
    threads: Array<{ id: number; state: string; comment?: string }>;
  }>;
let n = 0;
const freshId = () => `3c6e0b8a-9c0b-4b1e-8f3a-${String(++n).padStart(12, '0')}`.replace(/^3c6e0b8a/, 'aaaaaaaa');
const sms = (extra: object = {}) => ({
  requestId: freshId(),
  cascadeId: 1003,
  subscriberFilter: { address: '79001234567', type: 'PHONE' },
  content: { smsContent: { contentType: 'TEXT', text: 'Hello' } },
  ...extra,
});

describe('close threads', () => {
  it('reports each identifier in exactly one list and keeps closed threads closed', async () => {
    const first = await close({ threadIds: [101, 201, 301, 424242], comment: 'first' });
    expect(first.body).toEqual({
      resolved_threads: [101],
      not_existing_threads: [424242],
      already_resolved_threads: [201],
      not_resolved_due_to_system_error: [301],
    });
    const second = await close({ threadIds: [101, 301], comment: 'second' });
    expect(second.body).toEqual({
      resolved_threads: [],
      not_existing_threads: [],
      already_resolved_threads: [101],
      not_resolved_due_to_system_error: [301],
    });
    const threads = (await state()).threads;
    expect(threads.find((t) => t.id === 101)).toMatchObject({ state: 'closed', comment: 'first' });
    expect(threads.find((t) => t.id === 301)).toMatchObject({ state: 'open' });
  });

  it('stores the comment only on the threads the call closed', async () => {
    await close({ threadIds: [102, 201], comment: 'weekly clean-up' });
    const threads = (await state()).threads;
    expect(threads.find((t) => t.id === 102)?.comment).toBe('weekly clean-up');
    expect(threads.find((t) => t.id === 201)?.comment).toBeUndefined();
  });

  it('reports a repeated identifier once, by its state before the call', async () => {
    const res = await close({ threadIds: [103, 103, 999, 999] });
    expect(res.body).toEqual({
      resolved_threads: [103],
      not_existing_threads: [999],
      already_resolved_threads: [],
      not_resolved_due_to_system_error: [],
    });
  });

  it('rejects a comment over the limit with comment-is-too-long and closes nothing', async () => {
    const res = await close({ threadIds: [104], comment: 'x'.repeat(limits.comment + 1) });
    expect(res.status).toBe(400);
    expect(res.body.title).toBe('comment-is-too-long');
    expect((await state()).threads.find((t) => t.id === 104)?.state).toBe('open');
    expect((await close({ threadIds: [104], comment: 'x'.repeat(limits.comment) })).body.resolved_threads).toEqual([
      104,
    ]);
  });

  it('100 concurrent closes of one thread give exactly one resolved_threads', async () => {
    const results = await Promise.all(Array.from({ length: 100 }, () => close({ threadIds: [105] })));
    expect(results.filter((r) => r.body.resolved_threads.includes(105))).toHaveLength(1);
    expect(results.filter((r) => r.body.already_resolved_threads.includes(105))).toHaveLength(99);
  });

  it('needs the integrator token', async () => {
    const res = await close({ threadIds: [101] });
    expect(res.status).toBe(200);
    const wrong = await post(
      sandbox.url,
      '/api/v1/threads/close',
      { threadIds: [101] },
      { authorization: 'Bearer nope' },
    );
    expect(wrong).toMatchObject({ status: 401, body: { title: 'auth-error', status: 401 } });
    const apiKeyOnly = await fetch(`${sandbox.url}/api/v1/threads/close`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': credentials.apiKey },
      body: '{"threadIds":[1]}',
    });
    expect(apiKeyOnly.status).toBe(401);
  });
});

describe('create subscriber', () => {
  const sub = (extra: object = {}) => ({ addresses: [{ address: `crm-${++n}`, type: 'EXT_USER_ID' }], ...extra });

  it.each([
    ['no EXT_USER_ID address', { addresses: [{ address: '79001234567', type: 'PHONE' }] }, 'ext-user-id-not-specified'],
    [
      'two EXT_USER_ID addresses',
      {
        addresses: [
          { address: 'a', type: 'EXT_USER_ID' },
          { address: 'b', type: 'EXT_USER_ID' },
        ],
      },
      'ext-user-id-not-specified',
    ],
    ['no addresses', {}, 'ext-user-id-not-specified'],
    [
      'an unknown parameter',
      sub({ parameterValues: [{ name: 'shoeSize', valueType: 'STRING', value: '42' }] }),
      'parameter-not-found',
    ],
    [
      'a DATE not YYYY-MM-DD',
      sub({ parameterValues: [{ name: 'birthday', valueType: 'DATE', value: '1990-13-40' }] }),
      'parameter-value-is-not-valid',
    ],
    [
      'an ENUM value outside the list',
      sub({ parameterValues: [{ name: 'loyaltyLevel', valueType: 'ENUM', value: 'DIAMOND' }] }),
      'parameter-value-is-not-valid',
    ],
    [
      'a valueType that is not the parameter type',
      sub({ parameterValues: [{ name: 'birthday', valueType: 'STRING', value: 'x' }] }),
      'parameter-value-is-not-valid',
    ],
    ['a tag not created', sub({ tagValues: [{ name: 'no-such-tag' }] }), 'tag-not-found'],
    [
      'an existing external identifier',
      { addresses: [{ address: 'crm-000001', type: 'EXT_USER_ID' }] },
      'subscriber-already-exists',
    ],
  ])('%s: 400 %s', async (_what, body, code) => {
    const res = await subscribe(body);
    expect(res).toMatchObject({ status: 400, body: { title: code, status: 400 } });
    expect(res.body.detail).toBeTypeOf('string');
  });

  it('creates once, then reports the external identifier as taken', async () => {
    const body = sub({
      blacklisted: true,
      parameterValues: [{ name: 'birthday', valueType: 'DATE', value: '1990-05-17' }],
      tagValues: [{ name: 'vip' }],
    });
    expect((await subscribe(body)).status).toBe(200);
    expect((await subscribe(body)).body.title).toBe('subscriber-already-exists');
  });

  it('wrong types are the catch-all system-error, naming the field', async () => {
    const res = await subscribe({ ...sub(), blacklisted: 'yes' });
    expect(res).toMatchObject({ status: 500, body: { title: 'system-error' } });
    expect(res.body.detail).toContain('blacklisted: got "yes"; expected it to be of type boolean');
  });
});

describe('schedule cascade', () => {
  it('accepts a requestId once', async () => {
    const body = sms();
    expect((await schedule(body)).body).toEqual({ requestId: body.requestId });
    expect((await schedule(body)).body.title).toBe('requestId-is-not-unique');
  });

  it('takes any non-empty requestId: the description says "UUID-like"', async () => {
    const body = sms({ requestId: `abc-${++n}` });
    expect(await schedule(body)).toMatchObject({ status: 200, body: { requestId: body.requestId } });
    expect((await schedule(body)).body.title).toBe('requestId-is-not-unique');
    expect((await schedule(sms({ requestId: '' }))).status).toBe(500);
  });

  it('content for a channel that is no stage of the cascade is a violation naming the channel, a known channel or not', async () => {
    const res = await schedule(
      sms({
        content: {
          smsContent: { contentType: 'TEXT', text: 'Hello' },
          telegramContent: { contentType: 'TEXT', text: 'Hello' },
        },
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.title).toBe('cascade-scheduling-request-not-valid');
    expect(res.body.detail).toBe(
      'Cascade scheduling request is not valid. Violations: Cascade has no stage for the content channel [cascadeTemplateId:1,003;contentChannelType:TELEGRAM]',
    );
    expect(sandbox.state.usedRequestIds).toBe(sandbox.state.fixtures.usedRequestIds.length);
  });

  it('a content type the contract does not know is accepted by the schema and has no template: matched-template-not-found', async () => {
    const res = await schedule(sms({ content: { smsContent: { contentType: 'RICH_CARD', text: 'Hello' } } }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      title: 'matched-template-not-found',
      detail: 'content.smsContent.contentType is RICH_CARD; the account has no SMS template of that type.',
    });
    expect((await schedule(sms({ content: { smsContent: { contentType: '', text: 'Hello' } } }))).body.title).toBe(
      'contentType-not-specified',
    );
  });

  it('a rejected request does not use up its requestId', async () => {
    const body = sms({ cascadeId: 9999 });
    expect((await schedule(body)).body.title).toBe('cascade-not-found');
    expect((await schedule({ ...body, cascadeId: 1003 })).status).toBe(200);
  });

  it('50 concurrent schedules with one requestId give exactly one acceptance', async () => {
    const body = sms();
    const results = await Promise.all(Array.from({ length: 50 }, () => schedule(body)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.body.title === 'requestId-is-not-unique')).toHaveLength(49);
  });

  it('reports both violation kinds together, in the service format, readable by the client', async () => {
    const client = createMessagingClient({ baseUrl: sandbox.url, apiKey: credentials.apiKey, retry: false });
    const error = (await client
      .scheduleCascade({
        cascadeId: 1002,
        subscriberFilter: { address: '79001234567', type: 'PHONE' },
        content: { smsContent: { contentType: 'TEXT', text: 'Hello' } },
      })
      .then(() =>
        client.scheduleCascade({
          cascadeId: 1001,
          subscriberFilter: { address: '79001234567', type: 'PHONE' },
          content: { whatsappContent: { contentType: 'TEXT', text: 'Your order 1 is on its way.' } },
        }),
      )
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    // The first call already fails: only content is missing (no foreign channel).
    expect(error.code).toBe('request-doesn’t-contain-content-for-all-cascade-stages');
    expect(error.violations).toMatchObject([
      {
        kind: 'no-content-for-stage',
        cascadeTemplateId: 1002,
        stageId: '6f1d2c3b-0a4e-4b5f-8c7d-1e2f3a4b5c11',
        channel: 'WHATSAPP',
      },
      {
        kind: 'no-content-for-stage',
        cascadeTemplateId: 1002,
        stageId: '6f1d2c3b-0a4e-4b5f-8c7d-1e2f3a4b5c12',
        channel: 'VIBER',
      },
    ]);
    const both = (await client
      .scheduleCascade({
        cascadeId: 1001,
        subscriberFilter: { address: '79001234567', type: 'PHONE' },
        content: { whatsappContent: { contentType: 'TEXT', text: 'Your order 1 is on its way.' } },
      })
      .catch((e: unknown) => e)) as ApiError;
    expect(both.code).toBe('cascade-scheduling-request-is-not-valid');
    expect(both.violations).toMatchObject([
      { kind: 'no-stage-for-content', cascadeTemplateId: 1001, channel: 'WHATSAPP' },
      {
        kind: 'no-content-for-stage',
        cascadeTemplateId: 1001,
        stageId: '6f1d2c3b-0a4e-4b5f-8c7d-1e2f3a4b5c01',
        channel: 'VIBER',
      },
      {
        kind: 'no-content-for-stage',
        cascadeTemplateId: 1001,
        stageId: '6f1d2c3b-0a4e-4b5f-8c7d-1e2f3a4b5c02',
        channel: 'SMS',
      },
    ]);
  });

  const wa = (content: object) =>
    sms({
      cascadeId: 1004,
      content: { whatsappContent: { contentType: 'TEXT', text: 'Your order 7 is on its way.', ...content } },
    });
  const button = (buttonType: string, extra: object = {}) => ({ buttonType, text: 'b', ...extra });
  it.each([
    ['content missing', sms({ content: undefined }), 'content-not-specified'],
    ['content empty', sms({ content: {} }), 'content-not-specified'],
    ['media without an attachment', wa({ contentType: 'IMAGE' }), 'content-not-specified'],
    ['no contentType', sms({ content: { smsContent: { text: 'x' } } }), 'contentType-not-specified'],
    ['an empty text', sms({ content: { smsContent: { contentType: 'TEXT', text: '' } } }), 'text-not-specified'],
    ['no text', sms({ content: { smsContent: { contentType: 'TEXT' } } }), 'text-not-specified'],
    [
      'an empty caption',
      sms({
        cascadeId: 1001,
        content: {
          viberContent: { contentType: 'TEXT', text: 'x', caption: '', action: 'https://e.org' },
          smsContent: { contentType: 'TEXT', text: 'x' },
        },
      }),
      'caption-not-specified',
    ],
    [
      'a button action with no caption',
      sms({
        cascadeId: 1001,
        content: {
          viberContent: { contentType: 'TEXT', text: 'x', action: 'https://e.org' },
          smsContent: { contentType: 'TEXT', text: 'x' },
        },
      }),
      'caption-not-specified',
    ],
    [
      'a caption with no action',
      sms({
        cascadeId: 1001,
        content: {
          viberContent: { contentType: 'TEXT', text: 'x', caption: 'Go' },
          smsContent: { contentType: 'TEXT', text: 'x' },
        },
      }),
      'action-not-specified',
    ],
    [
      'a document with no name',
      wa({ contentType: 'DOCUMENT', attachment: { url: 'https://e.org/a.pdf' } }),
      'attachmentName-not-specified',
    ],
    [
      'a document name one character over the limit',
      wa({
        contentType: 'DOCUMENT',
        attachment: { url: 'https://e.org/a.pdf', name: 'n'.repeat(limits.attachmentName + 1) },
      }),
      'attachmentName-is-too-long',
    ],
    ['a longitude alone', wa({ location: { longitude: 1 } }), 'latitude-not-specified'],
    ['a latitude alone', wa({ location: { latitude: 1 } }), 'longitude-not-specified'],
    [
      'a list title one character over the limit',
      wa({ listPicker: { sections: [{ items: [{ title: 't'.repeat(limits.listTitle + 1) }] }] } }),
      'template-parameter-is-not-valid',
    ],
    [
      'a list subtitle one character over the limit',
      wa({ listPicker: { sections: [{ items: [{ title: 't', subtitle: 's'.repeat(limits.listSubtitle + 1) }] }] } }),
      'template-parameter-is-not-valid',
    ],
    [
      'one button over the limit',
      wa({
        keyboard: { rows: [{ buttons: Array.from({ length: limits.buttons + 1 }, () => button('QUICK_REPLY')) }] },
      }),
      'button-validation-error',
    ],
    [
      'one button over the limit, over two rows',
      wa({
        keyboard: {
          rows: [
            { buttons: Array.from({ length: Math.ceil((limits.buttons + 1) / 2) }, () => button('QUICK_REPLY')) },
            { buttons: Array.from({ length: Math.floor((limits.buttons + 1) / 2) }, () => button('QUICK_REPLY')) },
          ],
        },
      }),
      'button-validation-error',
    ],
    [
      'one URL button over the limit',
      wa({ keyboard: { rows: [{ buttons: Array.from({ length: limits.urlButtons + 1 }, () => button('URL')) }] } }),
      'button-validation-error',
    ],
    [
      'one PHONE button over the limit, over two rows',
      wa({
        keyboard: {
          rows: [
            { buttons: [button('PHONE')] },
            { buttons: Array.from({ length: limits.phoneButtons }, () => button('PHONE')) },
          ],
        },
      }),
      'button-validation-error',
    ],
    [
      'a payload one character over the limit',
      wa({
        keyboard: { rows: [{ buttons: [button('QUICK_REPLY', { payload: 'p'.repeat(limits.payload + 1) })] }] },
      }),
      'button-validation-error',
    ],
    [
      'messageActivitySharing without the Marketing Messages API',
      wa({ messageActivitySharing: true, useMarketingMessagesApi: false }),
      'mm-api-options-invalid-combination',
    ],
    ['an unknown cascade', sms({ cascadeId: 9999 }), 'cascade-not-found'],
    [
      'content for a channel that is no stage',
      sms({
        content: { smsContent: { contentType: 'TEXT', text: 'x' }, viberContent: { contentType: 'TEXT', text: 'x' } },
      }),
      'cascade-scheduling-request-not-valid',
    ],
    [
      'content missing for a stage',
      sms({ cascadeId: 1001, content: { smsContent: { contentType: 'TEXT', text: 'x' } } }),
      'request-doesn’t-contain-content-for-all-cascade-stages',
    ],
    ['WhatsApp text matching no template', wa({ text: 'Buy now!' }), 'matched-template-not-found'],
    [
      'a contentType no template exists for',
      sms({ content: { smsContent: { contentType: 'IMAGE', text: 'x' } } }),
      'matched-template-not-found',
    ],
  ])('%s: 400 %s', async (_what, body, code) => {
    const res = await schedule(body);
    expect(res).toMatchObject({ status: 400, body: { title: code, status: 400 } });
  });

  it('the limits themselves pass: list titles and subtitles, buttons (URL and PHONE at theirs), payload, document name', async () => {
    const ok = await Promise.all([
      schedule(
        wa({
          listPicker: {
            sections: [{ items: [{ title: 't'.repeat(limits.listTitle), subtitle: 's'.repeat(limits.listSubtitle) }] }],
          },
        }),
      ),
      schedule(
        wa({
          keyboard: {
            rows: [
              {
                buttons: [
                  ...Array.from({ length: limits.urlButtons }, () => button('URL')),
                  ...Array.from({ length: limits.phoneButtons }, () => button('PHONE')),
                  ...Array.from({ length: limits.buttons - limits.urlButtons - limits.phoneButtons }, () =>
                    button('QUICK_REPLY', { payload: 'p'.repeat(limits.payload) }),
                  ),
                ],
              },
            ],
          },
        }),
      ),
      schedule(
        wa({
          contentType: 'DOCUMENT',
          attachment: { url: 'https://e.org/a.pdf', name: 'n'.repeat(limits.attachmentName) },
        }),
      ),
    ]);
    expect(ok.map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it('out-of-balance for an account without balance, auth-error for a wrong key', async () => {
    expect((await schedule(sms(), { 'x-api-key': credentials.apiKeyNoBalance! })).body.title).toBe('out-of-balance');
    expect((await schedule(sms(), { 'x-api-key': 'wrong' })).body).toMatchObject({ title: 'auth-error', status: 401 });
    const none = await fetch(`${sandbox.url}/api/cascade/schedule`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sms()),
    });
    expect(none.status).toBe(401);
  });

  it('a malformed request (wrong types, wrong placement) is system-error naming the field', async () => {
    const res = await schedule(sms({ cascadeId: '1003' }));
    expect(res).toMatchObject({ status: 500, body: { title: 'system-error' } });
    expect(res.body.detail).toContain('cascadeId: got "1003"; expected it to be of type integer');
    const placed = await schedule({ ...sms(), content: undefined, smsContent: { contentType: 'TEXT', text: 'x' } });
    expect(placed.body.title).toBe('content-not-specified');
  });
});

describe('any path and method', () => {
  it.each([
    ['GET', '/api/cascade/schedule', 405, 'method-not-allowed'],
    ['PUT', '/api/v1/threads/close', 405, 'method-not-allowed'],
    ['DELETE', '/api/subscribers/create', 405, 'method-not-allowed'],
    ['POST', '/api/v2/threads/close', 404, 'not-found'],
    ['GET', '/api/subscribers', 404, 'not-found'],
    ['POST', '/api/cascade/schedule/extra', 404, 'not-found'],
  ])('%s %s: %i %s', async (method, path, status, title) => {
    const res = await fetch(sandbox.url + path, { method, headers: { 'x-api-key': credentials.apiKey } });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toMatchObject({ title, status });
    if (status === 405) expect(res.headers.get('allow')).toBe('POST');
  });
});
