// Versions that mean something: info.version is semver, the three packages carry it, and the
// changelog's section for it lists every change since the previous release.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingLines } from '../../src/diff/changelog.ts';
import { compareVersions, namedVersion, releasedVersions, versionedFiles } from '../../src/diff/releases.ts';
import { projectRoot } from '../../src/paths.ts';

const read = (path: string) => readFileSync(join(projectRoot, path), 'utf8');
const doc = JSON.parse(read('generated/openapi.json'));

describe('versions', () => {
  it('info.version is semver, and the three packages and the repository carry it', () => {
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+$/);
    for (const manifest of [
      'package.json',
      'src/client/package.json',
      'src/sandbox/package.json',
      'src/conformance/package.json',
    ]) {
      expect(JSON.parse(read(manifest)).version, manifest).toBe(doc.info.version);
    }
  });

  it('the READMEs and the CI templates name the tarballs and the packages of this version', () => {
    // The files the release keeps at its version, read as the release reads them.
    const named = versionedFiles.flatMap((f) =>
      [...read(f).matchAll(namedVersion)].map((m) => `${f}: ${m[0].slice(m[1]!.length)}`),
    );
    expect(new Set(named.map((n) => n.split(':')[0]))).toEqual(new Set(versionedFiles));
    expect(named.filter((n) => !n.endsWith(`: ${doc.info.version}`))).toEqual([]);
  });

  it('the release of this version, when kept, is this document', () => {
    let released: string | undefined;
    try {
      released = read(`releases/openapi-${doc.info.version}.json`);
    } catch {
      released = undefined; // a version being prepared: not released yet
    }
    // A released version never changes: a changed document is released anew (`npm run release -- <version>`).
    if (released !== undefined)
      expect(
        JSON.parse(released),
        `generated/openapi.json differs from releases/openapi-${doc.info.version}.json: release it as a new version`,
      ).toEqual(doc);
  });

  it("the READMEs' release commands work as written: a bump by name, or a version newer than the last release", () => {
    const last = releasedVersions(projectRoot).at(-1)!;
    const asked = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'openapi/README.md'].flatMap((file) =>
      [...read(file).matchAll(/npm run release -- (\S+?)[`\s]/g)].map((m) => [file, m[1]!] as const),
    );
    expect(asked.length).toBeGreaterThanOrEqual(2);
    for (const [file, version] of asked)
      expect(
        ['patch', 'minor', 'major', '<version>', '<version,'].includes(version) || compareVersions(version, last) > 0,
        `${file}: npm run release -- ${version}`,
      ).toBe(true);
  });

  it('CHANGELOG.md has the section of this version with every change line', () => {
    expect(missingLines(read('CHANGELOG.md'), doc)).toEqual([]);
  });

  it('the drift check fails a section that lacks a change', () => {
    // A repository whose one release is the frozen copy (test/fixtures): the live contract may change.
    const repo = mkdtempSync(join(tmpdir(), 'mc-drift-'));
    try {
      const frozen = JSON.parse(read('test/fixtures/frozen-openapi.json'));
      mkdirSync(join(repo, 'releases'));
      writeFileSync(join(repo, `releases/openapi-${frozen.info.version}.json`), JSON.stringify(frozen));
      const next = structuredClone(frozen);
      next.info.version = '2.0.0';
      next.components.schemas.CloseThreadsRequest.properties.comment.maxLength = 200;
      const changelog = '# Changelog\n\n## 2.0.0\n\nHand-written words, no change lines.\n\n## 1.0.0\n\nFirst.\n';
      const missing = missingLines(changelog, next, repo);
      expect(missing).toEqual([
        '- **breaking**: request body of closeThreads: `comment`: maxLength 300 -> 200; breaks callers',
      ]);
      expect(
        missingLines(changelog.replace('no change lines.', `no change lines.\n${missing.join('\n')}`), next, repo),
      ).toEqual([]);
      expect(missingLines('# Changelog\n', next, repo)).toEqual(['a section "## 2.0.0"']);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
