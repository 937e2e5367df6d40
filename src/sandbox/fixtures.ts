// The sandbox's starting state: a JSON file (fixtures.json by default, or --fixtures <file>),
// checked against the schema below before the sandbox starts. Its format is in README.md.
import { readJsonFile } from '../core/json-file.ts';
import type { ChannelType } from '../core/types.ts';
import { validator } from '../core/validators/all.ts';
import { fixturesSchemaId } from './fixtures-schema.ts';
import defaultFixtures from './fixtures.json' with { type: 'json' };

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

const validateFixtures = validator(fixturesSchemaId);

/** Checks fixtures; the error names where they came from and every bad field. */
export function checkFixtures(value: unknown, source = 'fixtures'): Fixtures {
  const result = validateFixtures(value);
  if (!result.valid) throw new Error(`${source} are not valid:\n  ${result.errors.join('\n  ')}`);
  return value as Fixtures;
}

/** The default fixtures (fixtures.json, bundled in), or a fixtures file read and checked. */
export function loadFixtures(path?: string | URL): Fixtures {
  if (path === undefined) return checkFixtures(structuredClone(defaultFixtures), 'default fixtures');
  const value = readJsonFile(path, `fixtures ${String(path)}`);
  return checkFixtures(value, `fixtures ${String(path)}`);
}
