// The contract changes, the repository stays green: a contract author's changes, in a temporary copy
// of the repository, each released as the gate says and followed by the README's `npm test`.
// - An optional request field, released as a minor: npm test passes.
// - A new error code, then a new optional callback field, each released as a minor: npm test passes.
// - A client type changed incompatibly and released as a patch: refused, nothing changed.
// - A described limit lowered, released as a major: npm test fails in test/contract-facts.test.ts alone, naming the
//   fact and how to record a deliberate departure; the departure recorded as that failure says (its text taken from the
//   failure itself) and released: npm test passes. The way back to green, walked end to end.
// `npm run diff` right after each edit of openapi/ (no build in between) reports the change.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePointer } from '../../src/core/document.ts';
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
/**
 * Writes `line` into the source file of the schema node at `pointer` (one component per file, openapi/README.md), as
 * the node's first key: where a reader of the pointer puts it.
 */
async function recordAt(pointer: string, line: string) {
  const at = /^#\/components\/schemas\/([^/]+)\/(.+)$/.exec(pointer);
  expect(at, `a schema's node: ${pointer}`).not.toBeNull();
  const file = `openapi/components/schemas/${at![1]}.yaml`;
  await edit(file, (text) => {
    const lines = text.split('\n');
    let row = -1;
    let indent = '';
    for (const key of at![2]!.split('/')) {
      row = lines.findIndex((l, i) => i > row && l === `${indent}${key}:`);
      expect(row, `${file}: no ${key}: under ${pointer}`).toBeGreaterThanOrEqual(0);
      indent += '  ';
    }
    lines.splice(row + 1, 0, `${indent}${line}`);
    return lines.join('\n');
  });
}
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

  it('a limit lowered: the gate refuses a minor and names who it breaks; as a major, npm test fails in test/contract-facts.test.ts alone; the departure recorded as that failure says and released, npm test passes', async () => {
    const lowered = limits.comment - 100;
    await edit('openapi/components/schemas/CloseThreadsRequest.yaml', (text) =>
      text.replace(`maxLength: ${limits.comment}`, `maxLength: ${lowered}`),
    );
    const diff = await npm('diff');
    expect(diff.code, diff.out).toBe(1);
    expect(diff.out).toContain(
      `breaking     request body of closeThreads: \`comment\`: maxLength ${limits.comment} -> ${lowered}`,
    );
    expect(diff.out).toContain('breaks callers: the witness example');
    expect((await npm('release', '--', 'minor')).code).toBe(2);
    const released = await npm('release', '--', 'major');
    expect(released.code, released.out).toBe(0);
    const changelog = await readFile(join(repo, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toContain(
      `- **breaking**: request body of closeThreads: \`comment\`: maxLength ${limits.comment} -> ${lowered}; breaks callers`,
    );
    const red = await npmTest();
    expect(red.code).toBe(1);
    expect([...red.failed], red.out.slice(-3000)).toEqual(['test/contract-facts.test.ts']);
    expect(red.out).toContain('npm test failed: vitest run (exit 1)');

    // The failure names the fact, the document's value, the node, and the text to record there: followed as written,
    // with the placeholder of `why` filled in and nothing else changed.
    const advice =
      /comment length: the description says §4\.1 and §8: "at most (\d+) characters", that is maxLength (\d+); the document has (\d+) at (#\/\S+)\. Put the described value back, or record a deliberate departure at that node: (x-departures: \{.*\}) \(openapi\/README\.md, "Departures from the description"\)\./.exec(
        red.out,
      );
    expect(advice, red.out.slice(-3000)).not.toBeNull();
    // The described value is the description's words, whatever the document held before (a departure recorded).
    const [, words, described, has, pointer, record] = advice!;
    expect([Number(described), Number(has)]).toEqual([Number(words), lowered]);
    const why = `the service refuses a comment over ${lowered} characters (seen in production, ticket 4711)`;
    const filled = record!.replace('"<what the service does, and how it is known>"', JSON.stringify(why));
    expect(filled, record).not.toBe(record);
    await recordAt(pointer!, filled);
    // A recorded departure changes no request or answer: the gate takes it as a patch.
    const patch = await npm('release', '--', 'patch');
    expect(patch.code, patch.out).toBe(0);
    const bundled = JSON.parse(await readFile(join(repo, 'generated/openapi.json'), 'utf8'));
    expect(resolvePointer(pointer!, bundled)).toMatchObject({
      maxLength: lowered,
      'x-departures': { maxLength: { described: Number(described), why } },
    });

    // Everything npm test runs, the test of the fact check itself included, in the copy as a maintainer runs it.
    const green = await npmTest();
    expect([...green.failed], green.out.slice(-3000)).toEqual([]);
    expect(green.code, green.out.slice(-3000)).toBe(0);
    expect(green.out).toMatch(/✓ test\/contract-facts\.test\.ts/);
  }, 900_000);
});
