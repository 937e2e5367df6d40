// The sandbox's starting state: a JSON file (fixtures.json by default, or --fixtures <file>),
// checked against the schema below before the sandbox starts. Its format is in README.md.
import { readJsonFile } from '../core/json-file.ts';
import { findValue, parseJson, pathText } from '../core/json-int64.ts';
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

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What identifies an entry of a fixtures list: a key, an id or a name; a plain value is its own key. */
const entryKey = (entry: Json): string =>
  JSON.stringify(
    entry !== null && typeof entry === 'object' && !Array.isArray(entry)
      ? (['key', 'id', 'name']
          .map((k) => (Object.hasOwn(entry, k) ? entry[k] : undefined))
          .find((v) => v !== undefined) ?? entry)
      : entry,
  );

/**
 * `over` laid on `base`: an object gains the keys `over` has (each merged the same way); a list gets the entries of
 * `over` first (so an error names the file's own positions), then the base's that `over` does not replace by key, id
 * or name; anything else is `over`'s. Linear in both; keys are own properties, set as data (never a prototype).
 */
function laidOver(base: Json | undefined, over: Json): Json {
  if (Array.isArray(over)) {
    if (!Array.isArray(base)) return over;
    const taken = new Set(over.map(entryKey));
    return [...over, ...base.filter((entry) => !taken.has(entryKey(entry)))];
  }
  if (over === null || typeof over !== 'object') return over;
  if (base === null || typeof base !== 'object' || Array.isArray(base)) return over;
  const keys = [...new Set([...Object.keys(base), ...Object.keys(over)])];
  return Object.fromEntries(
    keys.map((k) => [
      k,
      Object.hasOwn(over, k) ? laidOver(Object.hasOwn(base, k) ? base[k] : undefined, over[k]!) : base[k]!,
    ]),
  );
}

/**
 * The default fixtures (fixtures.json, bundled in), or a fixtures file laid over them, checked: a file adds to the
 * defaults (an entry with the key, id or name of a default one replaces it) and a section it leaves out keeps the
 * default's. `"defaults": false` in the file starts from nothing: the file is then the whole fixtures.
 */
export function loadFixtures(path?: string | URL): Fixtures {
  if (path === undefined) return checkFixtures(structuredClone(defaultFixtures), 'default fixtures');
  const source = `fixtures ${String(path)}`;
  // Read digit for digit: an integer past 2^53 - 1 is refused, never kept rounded (the sandbox's ids are numbers).
  const value = readJsonFile(path, source, undefined, parseJson) as Json;
  const big = findValue(value, (v) => typeof v === 'bigint');
  if (big)
    throw new Error(
      `${source} are not valid:\n  ${pathText(big)}: an integer past 2^53 - 1, which the sandbox cannot hold exactly (its ids stay within 9007199254740991)`,
    );
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`${source} are not valid:\n  (root): expected an object of fixture sections`);
  const { defaults, ...own } = value;
  if (defaults !== undefined && defaults !== false)
    throw new Error(
      `${source} are not valid:\n  defaults: expected false (start from nothing) or no such key, got ${JSON.stringify(defaults)}`,
    );
  return checkFixtures(defaults === false ? own : laidOver(structuredClone(defaultFixtures) as Json, own), source);
}

/** The default fixtures' credentials, for a help text. */
export const defaultCredentials = {
  apiKeys: defaultFixtures.apiKeys.map(({ key, balance }) => ({ key, balance })),
  integratorTokens: [...defaultFixtures.integratorTokens],
};
