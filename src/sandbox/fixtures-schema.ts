// The JSON Schema of a sandbox fixtures file, written as data: it is compiled at build time with
// the document's schemas (src/build/generate.ts), and refers to them by the document's id.
import { documentId } from '../core/document.ts';

const documentRef = (pointer: string) => `${documentId}${pointer}`;

/** The id of its precompiled validator. */
export const fixturesSchemaId = 'sandbox-fixtures';

const channel = { $ref: documentRef('#/components/schemas/ChannelType') };
const strings = { type: 'array', items: { type: 'string', minLength: 1 } };

export const fixturesSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'apiKeys',
    'integratorTokens',
    'cascades',
    'threads',
    'parameters',
    'tags',
    'subscribers',
    'usedRequestIds',
    'templates',
    'delivery',
  ],
  properties: {
    apiKeys: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['key', 'balance'],
        properties: { key: { type: 'string', minLength: 1 }, balance: { type: 'number' } },
      },
    },
    integratorTokens: strings,
    cascades: {
      type: 'array',
      items: {
        allOf: [{ $ref: documentRef('#/components/schemas/Cascade') }],
        type: 'object',
        properties: {
          stages: {
            type: 'array',
            items: {
              type: 'object',
              required: ['subject', 'subjectId'],
              properties: {
                subject: { type: 'string' },
                subjectId: { type: 'integer' },
                subjectActive: { type: 'boolean' },
                templates: strings,
              },
            },
          },
        },
      },
    },
    threads: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'state'],
        properties: {
          id: { $ref: documentRef('#/components/schemas/ThreadId') },
          state: { enum: ['open', 'closed'] },
          failOnClose: { type: 'boolean' },
        },
      },
    },
    parameters: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'type'],
        properties: {
          name: { type: 'string', minLength: 1 },
          type: { enum: ['STRING', 'ENUM', 'DATE'] },
          values: strings,
        },
        if: { properties: { type: { const: 'ENUM' } } },
        then: { required: ['values'] },
      },
    },
    tags: strings,
    subscribers: strings,
    usedRequestIds: { type: 'array', items: { $ref: documentRef('#/components/schemas/RequestId') } },
    templates: { type: 'object', propertyNames: channel, additionalProperties: strings },
    delivery: {
      type: 'object',
      additionalProperties: false,
      required: ['phonePattern', 'unreachableMediaHostSuffixes', 'maxTextLength'],
      properties: {
        phonePattern: { type: 'string', format: 'regex' },
        unreachableMediaHostSuffixes: strings,
        maxTextLength: {
          type: 'object',
          propertyNames: channel,
          additionalProperties: { type: 'integer', minimum: 1 },
        },
      },
    },
  },
};
