// The contract changes, the repository stays green: a contract author's changes, in a temporary copy
// of the repository, each released as the gate says and followed by the README's `npm test`.
// - An optional request field, released as a minor: npm test passes.
// - A new error code, then a new optional callback field, each released as a minor: npm test passes.
// - A client type changed incompatibly and released as a patch: refused, nothing changed.
// - A limit lowered, released as a major: npm test fails in the seed-facts test alone, naming the fact.
// `npm run diff` right after each edit of openapi/ (no build in between) reports the change.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '../helpers/contract.ts';
import { outcome } from '../helpers/outcome.ts';
import { copyEnv, copyRepository } from '../helpers/repository-copy.ts';

const run = promisify(execFile);
let repo: string;

const npm = (...args: string[]) =>
  outcome(run('npm', ['run', '--silent', ...args], { cwd: repo, env: copyEnv(repo), maxBuffer: 64 << 20 }));
/** The README's test command, and the test files that failed in it. */
async function npmTest() {
  const result = await outcome(run('npm', ['test'], { cwd: repo, env: copyEnv(repo), maxBuffer: 256 << 20 }));
  const out = stripVTControlCharacters(result.out); // the colours of a terminal, if any
  const failed = new Set([...out.matchAll(/^ FAIL {1,2}(\S+\.test\.ts)/gm)].map((m) => m[1]));
  return { ...result, out, failed };
}
const edit = async (file: string, change: (text: string) => string) => {
  const text = await readFile(join(repo, file), 'utf8');
  const changed = change(text);
  expect(changed, `${file} was not changed`).not.toBe(text);
  await writeFile(join(repo, file), changed);
};
const version = async () =>
  JSON.parse(await readFile(join(repo, 'generated/openapi.json'), 'utf8')).info.version as string;

beforeAll(async () => {
  repo = await copyRepository('mc-changes-');
}, 60_000);
afterAll(async () => {
  if (repo) await rm(repo, { recursive: true, force: true });
});

describe('the contract changes, the repository stays green', () => {
  it('an optional request field: the gate sees it before any build, a minor release, and npm test passes', async () => {
    await edit('openapi/components/schemas/CloseThreadsRequest.yaml', (text) =>
      text.replace(
        /^properties:\n/m,
        'properties:\n  notifyCustomer:\n    type: boolean\n    description: Whether the customer is told.\n',
      ),
    );
    const diff = await npm('diff');
    expect(diff.code, diff.out).toBe(0);
    expect(diff.out).toContain('-> openapi/ (bundled now)');
    expect(diff.out).toContain('non-breaking request body of closeThreads: property `notifyCustomer` added');
    const released = await npm('release', '--', 'minor');
    expect(released.code, released.out).toBe(0);
    const test = await npmTest();
    expect(test.code, test.out.slice(-3000)).toBe(0);
  }, 600_000);

  it('a new error code and a new optional callback field, each released as the gate says: npm test passes', async () => {
    await edit('openapi/components/schemas/KnownErrorCode.yaml', (text) =>
      text.replace('  - subscriber-already-exists\n', '  - subscriber-already-exists\n  - rate-limited\n'),
    );
    const code = await npm('diff');
    expect(code.code, code.out).toBe(0);
    expect(code.out).toMatch(/non-breaking response \d+ of \w+: `title`: value "rate-limited" added/);
    expect(code.out).toContain('0 breaking');
    expect((await npm('release', '--', 'minor')).code).toBe(0);
    await edit('openapi/components/schemas/StatusCallback.yaml', (text) =>
      text.replace(
        /^properties:\n/m,
        'properties:\n  attempt:\n    type: integer\n    minimum: 1\n    description: Which delivery attempt this result is of.\n',
      ),
    );
    const field = await npm('diff');
    expect(field.code, field.out).toBe(0);
    expect(field.out).toContain('non-breaking callback messageStatus: property `attempt` added');
    expect((await npm('release', '--', 'minor')).code).toBe(0);
    const test = await npmTest();
    expect(test.code, test.out.slice(-3000)).toBe(0);
  }, 600_000);

  it('a client type changed incompatibly and released as a patch is refused, naming the type; nothing changes', async () => {
    const before = await version();
    await edit('src/client/types.ts', (text) =>
      text.replace('export type Int64 = number | bigint;', 'export type Int64 = number | bigint | string;'),
    );
    const kept = await Promise.all(
      ['openapi/openapi.yaml', 'CHANGELOG.md', 'package.json'].map((f) => readFile(join(repo, f), 'utf8')),
    );
    const refused = await npm('release', '--', 'patch');
    // Put back before judging, so that the next step starts from the released types whatever this one finds.
    await edit('src/client/types.ts', (text) => text.replace(' | string;', ';'));
    expect(refused.code, refused.out).toBe(2);
    expect(refused.out).toContain("breaking change(s) of the packages' types need a new major version");
    // The results widened: code that keeps an identifier as `number | bigint` breaks.
    expect(refused.out).toMatch(
      /breaking {5}@messaging-contract\/client: createMessagingClient\n {13}no longer fits where code written for the last release holds it \(.*'string'.* is not assignable to type '(Int64|number \| bigint)'/,
    );
    expect(refused.out).not.toContain('usage:');
    expect(await version()).toBe(before);
    expect(
      await Promise.all(
        ['openapi/openapi.yaml', 'CHANGELOG.md', 'package.json'].map((f) => readFile(join(repo, f), 'utf8')),
      ),
    ).toEqual(kept);
    const [major, minor, patch] = before.split('.').map(Number);
    expect(existsSync(join(repo, `releases/api/${major}.${minor}.${patch! + 1}`))).toBe(false);
  }, 300_000);

  it('a limit lowered: the gate refuses a minor and names who it breaks; as a major, npm test fails in the seed facts alone', async () => {
    await edit('openapi/components/schemas/CloseThreadsRequest.yaml', (text) =>
      text.replace(`maxLength: ${limits.comment}`, `maxLength: ${limits.comment - 100}`),
    );
    const diff = await npm('diff');
    expect(diff.code, diff.out).toBe(1);
    expect(diff.out).toContain(
      `breaking     request body of closeThreads: \`comment\`: maxLength ${limits.comment} -> ${limits.comment - 100}`,
    );
    expect(diff.out).toContain('breaks callers: the witness example');
    expect((await npm('release', '--', 'minor')).code).toBe(2);
    const released = await npm('release', '--', 'major');
    expect(released.code, released.out).toBe(0);
    const changelog = await readFile(join(repo, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toContain(
      `- **breaking**: request body of closeThreads: \`comment\`: maxLength ${limits.comment} -> ${limits.comment - 100}; breaks callers`,
    );
    const test = await npmTest();
    expect(test.code).toBe(1);
    expect([...test.failed], test.out.slice(-3000)).toEqual(['test/contract-facts.test.ts']);
    expect(test.out).toContain('npm test failed: vitest run (exit 1)');
    expect(test.out).toContain(
      `comment length: the description says §4.1 and §8: "at most 300 characters", that is maxLength 300; the document has ${limits.comment - 100}`,
    );
    expect(test.out).toContain('x-departures');
  }, 600_000);
});
