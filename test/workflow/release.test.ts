// `npm run release` as a contract author runs it, in a temporary copy of the repository (the files
// git lists, node_modules linked): a patch, a minor and a major release one after the other, each
// followed by the gate `npm test` runs, and a release the gate refuses, which changes nothing.
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingLines } from '../../src/diff/changelog.ts';
import { namedVersion, versionedFiles } from '../../src/diff/releases.ts';
import { limits } from '../helpers/contract.ts';
import { outcome } from '../helpers/outcome.ts';
import { copyEnv, copyRepository } from '../helpers/repository-copy.ts';

const run = promisify(execFile);
let repo: string;

const npm = (...args: string[]) =>
  outcome(
    run('npm', ['run', '--silent', ...args], {
      cwd: repo,
      env: copyEnv(repo),
      maxBuffer: 16 << 20,
    }),
  );
const read = (file: string) => readFile(join(repo, file), 'utf8');
const json = async (file: string) => JSON.parse(await read(file));
const comment = 'openapi/components/schemas/CloseThreadsRequest.yaml';
const setCommentLimit = async (from: number, to: number) => {
  const text = await read(comment);
  expect(text).toContain(`maxLength: ${from}`);
  await writeFile(join(repo, comment), text.replace(`maxLength: ${from}`, `maxLength: ${to}`));
};

/** What `npm test` holds of a release: the gate passes, and the versions and the changelog agree. */
async function releasedAs(version: string, since: string) {
  const gate = await npm('diff');
  expect(gate.code, gate.out).toBe(0);
  expect(gate.out).toContain(`base releases/openapi-${version}.json (version ${version})`);
  expect(gate.out).toContain('0 changes');
  const doc = await json('generated/openapi.json');
  expect(doc.info.version).toBe(version);
  expect(await json(`releases/openapi-${version}.json`)).toEqual(doc);
  for (const manifest of [
    'package.json',
    'src/client/package.json',
    'src/sandbox/package.json',
    'src/conformance/package.json',
  ])
    expect((await json(manifest)).version, manifest).toBe(version);
  const lock = await json('package-lock.json');
  expect([lock.version, lock.packages[''].version, lock.packages['src/client'].version]).toEqual([
    version,
    version,
    version,
  ]);
  for (const file of versionedFiles) {
    const names = [...(await read(file)).matchAll(namedVersion)].map((m) => m[0].slice(m[1]!.length));
    expect(new Set(names), file).toEqual(new Set([version]));
  }
  const changelog = await read('CHANGELOG.md');
  expect(changelog).toContain(`## ${version}\n\nChanges since ${since}:`);
  expect(missingLines(changelog, doc, repo)).toEqual([]);
  return changelog;
}

beforeAll(async () => {
  repo = await copyRepository('mc-release-');
}, 60_000);
afterAll(async () => {
  if (repo) await rm(repo, { recursive: true, force: true });
});

describe('npm run release', () => {
  it('a patch, a minor and a major release each leave the gate passing; a breaking change without a major is refused', async () => {
    const first = (await json('generated/openapi.json')).info.version as string;
    const [major, minor, patch] = first.split('.').map(Number) as [number, number, number];
    const versions = {
      patch: `${major}.${minor}.${patch + 1}`,
      minor: `${major}.${minor + 1}.0`,
      major: `${major + 1}.0.0`,
    };

    // A patch: no change to the document beyond its version.
    const patched = await npm('release', '--', versions.patch);
    expect(patched.code, patched.out).toBe(0);
    let changelog = await releasedAs(versions.patch, first);
    // A new version alone is no change line.
    expect(changelog).toContain(`## ${versions.patch}\n\nChanges since ${first}:\n\n- none\n`);

    // Words written above the change lines stay when the lines are written again (npm run changelog).
    const words = 'Hand-written words about this patch: they stay.';
    const section = `## ${versions.patch}\n\n`;
    await writeFile(join(repo, 'CHANGELOG.md'), changelog.replace(section, `${section}${words}\n\n`));
    const rewritten = await npm('changelog');
    expect(rewritten.code, rewritten.out).toBe(0);
    changelog = await read('CHANGELOG.md');
    expect(changelog).toContain(`${section}${words}\n\nChanges since ${first}:`);
    expect(missingLines(changelog, await json('generated/openapi.json'), repo)).toEqual([]);

    // A minor: a limit raised, which breaks nobody.
    const [limit, raisedTo, loweredTo] = [limits.comment, limits.comment + 100, limits.comment - 100];
    await setCommentLimit(limit, raisedTo);
    const raised = await npm('release', '--', versions.minor);
    expect(raised.code, raised.out).toBe(0);
    changelog = await releasedAs(versions.minor, versions.patch);
    expect(changelog).toContain(
      `- **non-breaking**: request body of closeThreads: \`comment\`: maxLength ${limit} -> ${raisedTo}`,
    );

    // A breaking change with a minor version: refused, and nothing is changed.
    await setCommentLimit(raisedTo, loweredTo);
    const kept = await Promise.all(['openapi/openapi.yaml', 'generated/openapi.json', 'CHANGELOG.md'].map(read));
    const refused = await npm('release', '--', `${major}.${minor + 2}.0`);
    expect(refused.code, refused.out).toBe(2);
    // A refusal prints its reason, not the usage.
    expect(refused.out).toContain('release: refused, nothing changed:');
    expect(refused.out).not.toContain('usage:');
    expect(refused.out).toContain(
      `breaking     request body of closeThreads: \`comment\`: maxLength ${raisedTo} -> ${loweredTo}`,
    );
    expect(refused.out).toContain(`info.version ${major}.${minor + 2}.0 must become ${major + 1}.0.0 or later`);
    expect(await Promise.all(['openapi/openapi.yaml', 'generated/openapi.json', 'CHANGELOG.md'].map(read))).toEqual(
      kept,
    );
    expect(refused.out).not.toMatch(/\n\s+at .*\.ts:\d+/);

    // The same change as a major release, asked for by name.
    const broke = await npm('release', '--', 'major');
    expect(broke.code, broke.out).toBe(0);
    changelog = await releasedAs(versions.major, versions.minor);
    expect(changelog).toContain(
      `- **breaking**: request body of closeThreads: \`comment\`: maxLength ${raisedTo} -> ${loweredTo}; breaks callers`,
    );
    // Each release keeps its own section, newest first, and the words written above the change lines stay.
    const order = [versions.major, versions.minor, versions.patch, first].map((v) => changelog.indexOf(`\n## ${v}\n`));
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
    expect(changelog).toContain('Corrections, and what the conformance suite needs to hold on any deployment:');
  }, 300_000);

  it('refuses a version that is not newer than the last release, or not a version', async () => {
    const last = (await json('generated/openapi.json')).info.version as string;
    const same = await npm('release', '--', last);
    expect(same.code).toBe(2);
    expect(same.out).toContain(`version: ${last} is not newer than the last release, ${last}`);
    const junk = await npm('release', '--', 'v-next');
    expect(junk.code).toBe(2);
    expect(junk.out).toContain('version: expected MAJOR.MINOR.PATCH, or patch, minor or major, got "v-next"');
  }, 60_000);
});
