// The sandbox's starting state: a JSON file (fixtures.json by default, or --fixtures <file>),
// checked against the schema below before the sandbox starts. Its format is in README.md.
import { readFileSync } from 'node:fs';
import { customValidator, documentRef } from '../schema/index.ts';
import type { ChannelType } from '../client/types.ts';

export interface FixtureStage {
  uuid: string;
  channel: ChannelType;
  subject: string;
  subjectId: number;
  /** false: the sender signature is not activated; delivery fails with error-subject-unknown. */
  subjectActive?: boolean;
  /** Texts this stage may send ({{n}} matches any text); another text fails with not-template-match. */
  templates?: string[];
}

export interface Fixtures {
  apiKeys: Array<{ key: string; balance: number }>;
  integratorTokens: string[];
  cascades: Array<{ id: number; stages: FixtureStage[] }>;
  threads: Array<{ id: number; state: 'open' | 'closed'; failOnClose?: boolean }>;
  parameters: Array<{ name: string; type: 'STRING' | 'ENUM' | 'DATE'; values?: string[] }>;
  tags: string[];
  /** External identifiers (EXT_USER_ID) of existing subscribers. */
  subscribers: string[];
  usedRequestIds: string[];
  /** Per channel, the templates scheduled content must match (matched-template-not-found otherwise). */
  templates: Partial<Record<ChannelType, string[]>>;
  delivery: {
    phonePattern: string;
    unreachableMediaHostSuffixes: string[];
    maxTextLength: Partial<Record<ChannelType, number>>;
  };
}

const channel = { $ref: documentRef('#/components/schemas/ChannelType') };
const strings = { type: 'array', items: { type: 'string', minLength: 1 } };

const fixturesSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKeys', 'integratorTokens', 'cascades', 'threads', 'parameters', 'tags', 'subscribers', 'usedRequestIds', 'templates', 'delivery'],
  properties: {
    apiKeys: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['key', 'balance'], properties: { key: { type: 'string', minLength: 1 }, balance: { type: 'number' } } },
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
              properties: { subject: { type: 'string' }, subjectId: { type: 'integer' }, subjectActive: { type: 'boolean' }, templates: strings },
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
        properties: { id: { $ref: documentRef('#/components/schemas/ThreadId') }, state: { enum: ['open', 'closed'] }, failOnClose: { type: 'boolean' } },
      },
    },
    parameters: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'type'],
        properties: { name: { type: 'string', minLength: 1 }, type: { enum: ['STRING', 'ENUM', 'DATE'] }, values: strings },
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
        maxTextLength: { type: 'object', propertyNames: channel, additionalProperties: { type: 'integer', minimum: 1 } },
      },
    },
  },
};

const validateFixtures = customValidator(fixturesSchema);

export const defaultFixturesPath = new URL('./fixtures.json', import.meta.url);

/** Reads and checks a fixtures file; the error names the file and every bad field. */
export function loadFixtures(path: string | URL = defaultFixturesPath): Fixtures {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`fixtures ${String(path)}: ${(error as Error).message}`);
  }
  const result = validateFixtures(value);
  if (!result.valid) throw new Error(`fixtures ${String(path)} are not valid:\n  ${result.errors.join('\n  ')}`);
  return value as Fixtures;
}
