// npm run release -- <version>: a release in one command. It sets info.version, bundles, and judges
// the document against the last release (the gate, with the corrections accepted for this
// version); a release the gate refuses changes nothing. Then it builds what generated/ holds,
// writes the version's CHANGELOG section (the words above its change lines are kept), records
// releases/openapi-<version>.json, and moves the packages' versions and every tarball name in
// the READMEs, so that `npm test` passes as it did.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CannotRunError, runCli, UsageError } from '../core/cli.ts';
import { apiDir, compareApi, recordApi } from './api.ts';
import { writeSection } from './changelog.ts';
import { judge, report, withoutMajor } from './gate.ts';
import {
  compareVersions,
  type Doc,
  isVersion,
  readRelease,
  releasePath,
  releasedVersions,
  repositoryRoot,
  namedVersion,
  semver,
  versionedFiles,
} from './releases.ts';

const usage = `usage: npm run release -- <version | patch | minor | major>

  Releases the contract as <version> (MAJOR.MINOR.PATCH, newer than every recorded release), or
  as the next patch, minor or major version after the last recorded release:
  sets info.version in openapi/openapi.yaml, builds generated/, writes the version's section of
  CHANGELOG.md from the diff against the last release, records releases/openapi-<version>.json,
  and sets the version of the three packages, package-lock.json and the tarball names in the
  READMEs. Refused, with nothing changed, when the diff has a breaking change and the major
  version is not new (a correction accepted in releases/corrections.json for <version> excepted).
`;

const manifests = [
  'package.json',
  'src/client/package.json',
  'src/sandbox/package.json',
  'src/conformance/package.json',
];

/** The `version:` of the `info:` block of the root document, replaced. */
function withVersion(yaml: string, version: string): string {
  const info = /^info:[ \t]*\r?\n((?:[ \t]+.*\r?\n|[ \t]*\r?\n)*?)([ \t]+)version:[ \t]*\S.*$/m.exec(yaml);
  if (!info) throw new CannotRunError('openapi/openapi.yaml: no `version:` in its `info:` block');
  const start = info.index + info[0].length - info[0].split('\n').at(-1)!.length;
  const line = `${info[2]}version: ${version}`;
  return `${yaml.slice(0, start)}${line}${yaml.slice(info.index + info[0].length)}`;
}

const bumps = ['major', 'minor', 'patch'] as const;

/** The version asked for: MAJOR.MINOR.PATCH as written, or the next major, minor or patch after the last release. */
function nextVersion(asked: string, newest: string | undefined): string {
  const bump = bumps.indexOf(asked as (typeof bumps)[number]);
  if (bump < 0) {
    if (!isVersion(asked))
      throw new UsageError(`version: expected MAJOR.MINOR.PATCH, or patch, minor or major, got "${asked}"`);
    return asked;
  }
  if (!newest) throw new CannotRunError(`${asked}: no release is recorded in releases/ yet; name the version`);
  const parts = semver(newest).map((n, i) => (i < bump ? n : i === bump ? n + 1 : 0));
  return parts.join('.');
}

runCli('release', usage, async (args) => {
  const flag = args.find((a) => a.startsWith('-'));
  if (flag) throw new UsageError(`unknown option ${flag}`);
  const [asked, ...more] = args;
  if (asked === undefined || more.length)
    throw new UsageError('expected one version or patch, minor or major, e.g. npm run release -- minor');
  const repo = repositoryRoot();
  const at = (file: string) => join(repo, file);
  const newest = releasedVersions(repo).at(-1);
  const version = nextVersion(asked, newest);
  // A refusal says why and no more: the usage is for a command written wrong.
  if (newest && compareVersions(version, newest) <= 0)
    throw new CannotRunError(`version: ${version} is not newer than the last release, ${newest}`);

  const npm = (script: string) =>
    execFileSync('npm', ['run', '--silent', script], { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
  const bundle = at('generated/openapi.json');
  // Every file a release writes, as it was: a release that fails at any step puts them all back.
  const generated = readdirSync(at('generated'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
  const touched = [
    at('openapi/openapi.yaml'),
    at('CHANGELOG.md'),
    at('package-lock.json'),
    ...generated,
    ...[...manifests, ...versionedFiles].map(at),
  ];
  const kept = new Map(touched.map((file) => [file, readFileSync(file)]));
  const edit = (file: string, change: (text: string) => string) =>
    writeFileSync(at(file), change(readFileSync(at(file), 'utf8')));
  let changes = 0;
  try {
    edit('openapi/openapi.yaml', (yaml) => withVersion(yaml, version));
    npm('build:bundle');
    const current = JSON.parse(readFileSync(bundle, 'utf8')) as Doc;
    if (current.info.version !== version) throw new Error(`the bundle says info.version ${current.info.version}`);
    if (newest) {
      const verdict = judge(repo, readRelease(repo, newest), current);
      console.log(`release ${version}: the changes since ${newest}\n${report(verdict)}`);
      if (verdict.failures.length)
        throw new CannotRunError(`refused, nothing changed:\n  ${verdict.failures.join('\n  ')}`);
    }
    npm('build:types');
    npm('build:generated');
    // The packages' own API: their declarations against the last release's, as code written for it meets them.
    npm('build:packages');
    if (newest) {
      const breaks = compareApi(repo, newest);
      if (breaks === undefined)
        console.log(`release ${version}: ${newest} recorded no package types; recorded from now on`);
      else {
        console.log(`release ${version}: the packages' types since ${newest}: ${breaks.length} breaking`);
        for (const b of breaks) console.log(`breaking     ${b.what}\n             ${b.sentence}`);
        const major = withoutMajor(
          breaks.length,
          " of the packages' types",
          newest,
          version,
          ' (npm run release -- major)',
        );
        if (major) throw new CannotRunError(`refused, nothing changed:\n  ${major}`);
      }
    }
    recordApi(repo, version);
    edit('CHANGELOG.md', (text) => {
      const written = writeSection(text, current, repo);
      changes = written.changes;
      return written.text;
    });
    for (const file of manifests)
      edit(file, (text) => `${JSON.stringify({ ...JSON.parse(text), version }, null, 2)}\n`);
    // The lock names the root's and each workspace's version.
    edit('package-lock.json', (text) => {
      const lock = JSON.parse(text);
      lock.version = version;
      for (const key of ['', ...manifests.slice(1).map((m) => m.replace(/\/package\.json$/, ''))])
        if (lock.packages?.[key]) lock.packages[key].version = version;
      return `${JSON.stringify(lock, null, 2)}\n`;
    });
    for (const file of versionedFiles) edit(file, (text) => text.replace(namedVersion, `$1${version}`));
    // Last: once recorded, the release is the gate's base.
    writeFileSync(releasePath(repo, version), readFileSync(bundle));
  } catch (error) {
    for (const [file, bytes] of kept) writeFileSync(file, bytes);
    rmSync(apiDir(repo, version), { recursive: true, force: true });
    for (const file of readdirSync(at('generated'), { recursive: true, withFileTypes: true }))
      if (file.isFile() && !kept.has(join(file.parentPath, file.name))) rmSync(join(file.parentPath, file.name));
    throw error;
  }

  console.log(
    [
      `released ${version}:`,
      `  openapi/openapi.yaml info.version, generated/ rebuilt`,
      `  CHANGELOG.md section ${version} (${changes} changes since ${newest ?? 'nothing'}): reword it where it helps, keep every change line`,
      `  releases/openapi-${version}.json and releases/api/${version}/ (the packages' types) recorded: the gate's base from now on`,
      `  ${manifests.join(', ')}, package-lock.json and the READMEs' tarball names say ${version}`,
      `next: npm test, commit, and tag v${version} if you tag releases`,
    ].join('\n'),
  );
});
