// The contract facts: each fact of the service's interface description (openapi/sources/service-interface.md),
// stated once here as a table, checked against the bundled document. This is the one test that pins the
// description's values: every other test reads them from the document, so a change of a described fact fails here
// alone, naming the fact, the description's words and where to record a deliberate departure (`x-departures`, see
// openapi/README.md), and passes once the departure is recorded. The test of that check judges copies of the frozen
// document (test/fixtures), never the live one, so a departure recorded in the live document cannot turn it red.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { normalizeErrorCode } from '../src/core/error-codes.ts';
import { openapi, resolvePointer } from '../src/core/document.ts';
import { schemaValidator, validator } from '../src/core/validators/all.ts';
import { examplePairs } from '../src/core/examples.ts';
import { projectRoot } from '../src/paths.ts';

type Obj = Record<string, any>;
const doc = openapi as Obj;
const schema = (name: string) => doc.components.schemas[name] as Obj;
const op = (path: string, method = 'post') => doc.paths[path]?.[method] as Obj | undefined;

const operations = [
  { path: '/api/v1/threads/close', id: 'closeThreads', security: { integratorToken: [] } },
  { path: '/api/subscribers/create', id: 'createSubscriber', security: { apiKey: [] } },
  { path: '/api/cascade/schedule', id: 'scheduleCascade', security: { apiKey: [] } },
];

const errorCodes: Array<[code: string, status: number, operationId: string]> = [
  ['requestId-is-not-unique', 400, 'scheduleCascade'],
  ['content-not-specified', 400, 'scheduleCascade'],
  ['contentType-not-specified', 400, 'scheduleCascade'],
  ['text-not-specified', 400, 'scheduleCascade'],
  ['caption-not-specified', 400, 'scheduleCascade'],
  ['action-not-specified', 400, 'scheduleCascade'],
  ['attachmentName-not-specified', 400, 'scheduleCascade'],
  ['attachmentName-is-too-long', 400, 'scheduleCascade'],
  ['latitude-not-specified', 400, 'scheduleCascade'],
  ['longitude-not-specified', 400, 'scheduleCascade'],
  ['cascade-not-found', 400, 'scheduleCascade'],
  ['request-doesn’t-contain-content-for-all-cascade-stages', 400, 'scheduleCascade'],
  ['matched-template-not-found', 400, 'scheduleCascade'],
  ['cascade-scheduling-request-is-not-valid', 400, 'scheduleCascade'],
  ['cascade-scheduling-request-not-valid', 400, 'scheduleCascade'],
  ['template-parameter-is-not-valid', 400, 'scheduleCascade'],
  ['out-of-balance', 400, 'scheduleCascade'],
  ['button-validation-error', 400, 'scheduleCascade'],
  ['mm-api-options-invalid-combination', 400, 'scheduleCascade'],
  ...operations.flatMap(
    ({ id }) =>
      [
        ['auth-error', 401, id],
        ['not-found', 404, id],
        ['method-not-allowed', 405, id],
        ['system-error', 500, id],
      ] as Array<[string, number, string]>,
  ),
];

const enums: Array<[schemaName: string, pointer: string, values: string[]]> = [
  [
    'AddressType',
    '',
    [
      'INSTAGRAM_ID',
      'FACEBOOK_ID',
      'DEVICE_APP_ID',
      'PHONE',
      'EMAIL',
      'UTM',
      'COOKIE_ID',
      'TELEGRAM_ID',
      'GOOGLE_ID',
      'APPLE_ID',
      'YANDEX_ID',
      'EXT_USER_ID',
    ],
  ],
  ['ParameterValue', '/properties/valueType', ['STRING', 'ENUM', 'DATE']],
  ['KnownChannelType', '', ['VIBER', 'WHATSAPP', 'SMS']],
  ['KnownButtonType', '', ['URL', 'PHONE', 'QUICK_REPLY']],
  ['KnownSmsContentType', '', ['TEXT']],
  ['KnownViberContentType', '', ['TEXT', 'IMAGE']],
  ['KnownWhatsAppContentType', '', ['TEXT', 'IMAGE', 'DOCUMENT', 'VIDEO', 'AUDIO']],
  [
    'KnownDeliveryErrorCode',
    '',
    [
      'not-template-match',
      'too-long-message',
      'media-request-failed',
      'error-subject-unknown',
      'error-address-format',
      'duplicated',
    ],
  ],
];

/** A fact of the description: its name, the description's words, and where the document keeps it. */
interface Fact {
  fact: string;
  words: string;
  pointer: string;
  keyword: string;
  value: unknown;
}

const limits: Fact[] = [
  [
    'comment length',
    '§4.1 and §8: "at most 300 characters"',
    '#/components/schemas/CloseThreadsRequest/properties/comment',
    'maxLength',
    300,
  ],
  [
    'attachmentName length',
    '§7.2 and §8: "at most 70 characters"',
    '#/components/schemas/WhatsAppAttachment/properties/name',
    'maxLength',
    70,
  ],
  [
    'listPicker item title',
    '§7.2 and §8: "at most 24 characters each, spaces included"',
    '#/components/schemas/ListPicker/properties/sections/items/properties/items/items/properties/title',
    'maxLength',
    24,
  ],
  [
    'listPicker item subtitle',
    '§7.2 and §8: "at most 24 characters each, spaces included"',
    '#/components/schemas/ListPicker/properties/sections/items/properties/items/items/properties/subtitle',
    'maxLength',
    24,
  ],
  [
    'buttons per template',
    '§8: buttons per WhatsApp template "at most 10"',
    '#/components/schemas/KeyboardButtons',
    'maxItems',
    10,
  ],
  [
    'URL buttons per template',
    '§8: URL buttons per template "at most 2"',
    '#/components/schemas/KeyboardButtons/then',
    'maxContains',
    2,
  ],
  [
    'PHONE buttons per template (with URL buttons)',
    '§8: PHONE buttons per template "at most 1"',
    '#/components/schemas/KeyboardButtons/then/then',
    'maxContains',
    1,
  ],
  [
    'PHONE buttons per template (without)',
    '§8: PHONE buttons per template "at most 1"',
    '#/components/schemas/KeyboardButtons/else/then',
    'maxContains',
    1,
  ],
  [
    'quick-reply payload length',
    '§8: quick-reply `payload` length "at most 128 characters"',
    '#/components/schemas/KeyboardButton/properties/payload',
    'maxLength',
    128,
  ],
  [
    'duplicate window (seconds)',
    '§7.3 and §8: "an identical message within 5 minutes is reported as `duplicated`"',
    '#/components/schemas/KnownDeliveryErrorCode',
    'x-duplicate-window-seconds',
    300,
  ],
].map(([fact, words, pointer, keyword, value]) => ({ fact, words, pointer, keyword, value }) as Fact);

/**
 * Where the document holds `fact` as the description states it, nothing. Otherwise the failure names the fact, the
 * description's words, what the document has, and where a deliberate departure is recorded: `x-departures` at the same
 * node, keyed by the keyword, with the described value and why (openapi/README.md). A departure recorded where the
 * document keeps the described value is stale and fails too.
 */
function factFailure(f: Fact, root: unknown = doc): string | undefined {
  const node = resolvePointer(f.pointer, root) as Obj | undefined;
  const actual = node?.[f.keyword];
  const departure = node?.['x-departures']?.[f.keyword] as Obj | undefined;
  const recorded =
    departure !== undefined &&
    isDeepStrictEqual(departure.described, f.value) &&
    typeof departure.why === 'string' &&
    departure.why.trim() !== '';
  if (isDeepStrictEqual(actual, f.value))
    return departure === undefined
      ? undefined
      : `${f.fact}: x-departures.${f.keyword} at ${f.pointer} is stale: the document keeps the described value ${JSON.stringify(f.value)}; remove it`;
  if (recorded) return undefined;
  return [
    `${f.fact}: the description says ${f.words}, that is ${f.keyword} ${JSON.stringify(f.value)};`,
    `the document has ${actual === undefined ? 'none' : JSON.stringify(actual)} at ${f.pointer}.`,
    `Put the described value back, or record a deliberate departure at that node:`,
    `x-departures: { ${f.keyword}: { described: ${JSON.stringify(f.value)}, why: "<what the service does, and how it is known>" } } (openapi/README.md, "Departures from the description").`,
  ].join(' ');
}

describe('paths, methods and security', () => {
  it.each(operations)('$id is POST $path with its security', ({ path, id, security }) => {
    const o = op(path);
    expect(o?.operationId).toBe(id);
    expect(o?.security).toEqual([security]);
    expect(o?.requestBody?.content?.['application/json']).toBeDefined();
    expect(o?.responses?.['200']?.content?.['application/json']).toBeDefined();
  });

  it('documents exactly the three paths of the description', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(operations.map((o) => o.path).sort());
  });

  it('has both security schemes', () => {
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    expect(doc.components.securitySchemes.integratorToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.integratorToken.description).toContain('INTEGRATOR');
  });
});

describe('error codes', () => {
  it.each(errorCodes)(
    '%s is documented with HTTP %i on %s, with an example (in either spelling of the code)',
    (code, status, operationId) => {
      expect(schema('KnownErrorCode').enum).toContain(code);
      const examples = examplePairs().filter((p) => p.operation.operationId === operationId && p.status === status);
      // An example shows what the sandbox answers; another spelling of the code is an alias of it.
      expect(examples.map((p) => normalizeErrorCode((p.response as Obj).title as string))).toContain(
        normalizeErrorCode(code),
      );
    },
  );

  it('keeps codes an open set: an unknown code is a valid Problem', () => {
    expect(schemaValidator('Problem')({ title: 'a-code-added-next-year', status: 400 }).valid).toBe(true);
    expect(schemaValidator('Problem')({ title: 'auth-error', status: 401, detail: 'x' }).valid).toBe(true);
    expect(schemaValidator('Problem')({ status: 400 }).valid).toBe(false);
    expect(schemaValidator('Problem')({ title: 'auth-error', status: '401' }).valid).toBe(false);
  });

  it('documents 401, 404, 405 and 500 with the Problem body on every operation', () => {
    for (const { path } of operations) {
      for (const status of ['400', '401', '404', '405', '500']) {
        const response = op(path)!.responses[status];
        const resolved = response.$ref ? (resolvePointer(response.$ref) as Obj) : response;
        expect(resolved.content['application/json'].schema.$ref, `${path} ${status}`).toBe(
          '#/components/schemas/Problem',
        );
      }
    }
  });
});

describe('what the description does not state is marked where it is stated', () => {
  // Per operation, the statuses the description lists (schedule cascade: all of 7.2; create
  // subscriber: 200 and 401 auth-error, section 5; close threads: 200). Every other documented
  // status says [contract decision] in its response's description (shared responses come in a
  // described and a `Decided...` form, since Redoc ignores a description beside a $ref);
  // `default` is the description's open set.
  const described: Record<string, string[]> = {
    '/api/v1/threads/close': ['200'],
    '/api/subscribers/create': ['200', '401'],
    '/api/cascade/schedule': ['200', '400', '401', '404', '405', '500'],
  };
  const mark = '[contract decision]';
  const descriptionOf = (response: Obj) =>
    String((response.$ref ? (resolvePointer(response.$ref) as Obj) : response).description ?? '');

  it.each(Object.entries(described))('%s', (path, statuses) => {
    for (const [status, response] of Object.entries<Obj>(op(path)!.responses)) {
      if (status === 'default') continue;
      expect(descriptionOf(response).includes(mark), `${path} ${status}`).toBe(!statuses.includes(status));
    }
  });
});

describe('enums', () => {
  it.each(enums)('%s%s has exactly the described values', (name, pointer, values) => {
    const node = resolvePointer(`#/components/schemas/${name}${pointer}`) as Obj;
    expect(node.enum).toEqual(values);
  });

  it('lists the sources introduce with "for example", "e.g." or "seen" are open sets; the address types stay closed', () => {
    const open: Array<[string, string, unknown]> = [
      ['ChannelType', '#/components/schemas/ChannelType', 'TELEGRAM'],
      ['KeyboardButton', '#/components/schemas/KeyboardButton', { buttonType: 'COPY_CODE' }],
      ['SmsContent', '#/components/schemas/SmsContent', { contentType: 'RICH_CARD' }],
      ['ViberContent', '#/components/schemas/ViberContent', { contentType: 'VIDEO' }],
      ['WhatsAppContent', '#/components/schemas/WhatsAppContent', { contentType: 'STICKER' }],
      ['DeliveryStatus', '#/components/schemas/DeliveryStatus', 'PAUSED'],
      ['ErrorCode', '#/components/schemas/ErrorCode', 'a-code-added-later'],
    ];
    for (const [name, pointer, value] of open) expect(validator(pointer)(value).errors, name).toEqual([]);
    expect(schemaValidator('AddressType')('FAX').valid).toBe(false);
  });

  it('DATE parameter values use the date format', () => {
    const valid = schemaValidator('ParameterValue');
    expect(valid({ name: 'birthday', valueType: 'DATE', value: '1990-05-17' }).valid).toBe(true);
    expect(valid({ name: 'birthday', valueType: 'DATE', value: '17.05.1990' }).valid).toBe(false);
    expect(valid({ name: 'city', valueType: 'STRING', value: '17.05.1990' }).valid).toBe(true);
  });

  it('thread identifiers are int64 in the request and all four result lists', () => {
    expect(schema('ThreadId')).toMatchObject({ type: 'integer', format: 'int64' });
    expect(schema('CloseThreadsRequest').properties.threadIds.items.$ref).toBe('#/components/schemas/ThreadId');
    expect(schema('ThreadsCloseResult').required).toEqual([
      'resolved_threads',
      'not_existing_threads',
      'already_resolved_threads',
      'not_resolved_due_to_system_error',
    ]);
  });
});

describe('limits', () => {
  it.each(limits.map((f) => [`${f.fact}: ${f.keyword} ${String(f.value)}`, f] as const))('%s', (_title, f) => {
    const failure = factFailure(f);
    if (failure) throw new Error(failure);
  });

  it('a fact the document departs from fails naming the fact, the words and where to record a departure; a recorded one passes, a stale one fails', () => {
    // Copies of the frozen document (release 1.1.0, test/fixtures), never of the live one: the live document may hold a
    // recorded departure of this very fact, and the check must be judged alike whatever the contract says today.
    const frozen = JSON.parse(readFileSync(join(projectRoot, 'test/fixtures/frozen-openapi.json'), 'utf8')) as Obj;
    const comment = limits.find((f) => f.fact === 'comment length')!;
    const copy = () => {
      const changed = structuredClone(frozen);
      return { changed, node: resolvePointer(comment.pointer, changed) as Obj };
    };
    // The frozen document keeps the described value, with no departure: the check passes on it as it is.
    expect(resolvePointer(comment.pointer, frozen)).toMatchObject({ maxLength: 300 });
    expect(resolvePointer(comment.pointer, frozen)).not.toHaveProperty('x-departures');
    expect(factFailure(comment, frozen)).toBeUndefined();

    const { changed, node } = copy();
    node.maxLength = 200;
    expect(factFailure(comment, changed)).toBe(
      `comment length: the description says §4.1 and §8: "at most 300 characters", that is maxLength 300; the document has 200 at ${comment.pointer}. Put the described value back, or record a deliberate departure at that node: x-departures: { maxLength: { described: 300, why: "<what the service does, and how it is known>" } } (openapi/README.md, "Departures from the description").`,
    );
    // The keyword gone is a departure too.
    const { changed: without, node: bare } = copy();
    delete bare.maxLength;
    expect(factFailure(comment, without)).toMatch(/the document has none at /);

    node['x-departures'] = { maxLength: { described: 300, why: 'the service refuses a comment over 200 characters' } };
    expect(factFailure(comment, changed)).toBeUndefined();
    // A departure is recorded with why, and for the described value.
    node['x-departures'].maxLength.why = ' ';
    expect(factFailure(comment, changed)).toMatch(/^comment length: the description says/);
    node['x-departures'].maxLength = { described: 250, why: 'the service refuses a comment over 200 characters' };
    expect(factFailure(comment, changed)).toMatch(/^comment length: the description says/);
    node['x-departures'].maxLength.described = 300;
    expect(factFailure(comment, changed)).toBeUndefined();
    // Back to the described value, the departure left behind: stale.
    node.maxLength = 300;
    expect(factFailure(comment, changed)).toBe(
      `comment length: x-departures.maxLength at ${comment.pointer} is stale: the document keeps the described value 300; remove it`,
    );
  });

  it('the URL and PHONE button limits count buttons of that type', () => {
    const valid = schemaValidator('KeyboardButtons');
    const url = { buttonType: 'URL', url: 'https://e.org' };
    const phone = { buttonType: 'PHONE', phone: '+1' };
    const reply = { buttonType: 'QUICK_REPLY', payload: 'p' };
    expect(valid([url, url, phone, reply]).valid).toBe(true);
    expect(valid([url, url, url]).valid).toBe(false);
    expect(valid([phone, phone]).valid).toBe(false);
    expect(valid([]).valid).toBe(true);
    expect(valid(Array(11).fill(reply)).valid).toBe(false);
    expect(valid([{ ...reply, payload: 'x'.repeat(129) }]).valid).toBe(false);
  });

  it('messageActivitySharing true with useMarketingMessagesApi false is invalid, other combinations are not', () => {
    const valid = schemaValidator('WhatsAppContent');
    const base = { contentType: 'TEXT', text: 'hi' };
    expect(valid({ ...base, messageActivitySharing: true, useMarketingMessagesApi: false }).valid).toBe(false);
    expect(valid({ ...base, messageActivitySharing: true, useMarketingMessagesApi: true }).valid).toBe(true);
    expect(valid({ ...base, messageActivitySharing: false, useMarketingMessagesApi: false }).valid).toBe(true);
  });
});

describe('delivery status callback', () => {
  const hook = doc.webhooks?.messageStatus?.post as Obj;

  it('is a top-level webhook with the payload schema and a 200 answer', () => {
    expect(hook.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/StatusCallback');
    expect(hook.responses['200']).toBeDefined();
  });

  it('UNDELIVERED is a known status and needs an error code', () => {
    expect(schema('KnownDeliveryStatus').enum).toContain('UNDELIVERED');
    const valid = schemaValidator('StatusCallback');
    const base = { messageId: 1, statusAt: '2030-01-01T00:00:00Z' };
    expect(valid({ ...base, status: 'UNDELIVERED' }).valid).toBe(false);
    expect(valid({ ...base, status: 'UNDELIVERED', error: 'duplicated' }).valid).toBe(true);
  });

  it('accepts statuses and codes it does not know', () => {
    const valid = schemaValidator('StatusCallback');
    expect(valid({ messageId: 1, status: 'PAUSED', statusAt: '2030-01-01T00:00:00Z', error: 'new-code' }).valid).toBe(
      true,
    );
  });
});

describe('versioning', () => {
  it('only the close-threads path carries v1', () => {
    expect(Object.keys(doc.paths).filter((p) => /\/v\d+\//.test(p))).toEqual(['/api/v1/threads/close']);
  });
});
