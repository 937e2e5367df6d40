// npm run release -- <version>: a release in one command. It sets info.version, bundles, and judges
// the document against the last release (the gate, with the corrections accepted for this
// version); a release the gate refuses changes nothing. Then it builds what generated/ holds,
// writes the version's CHANGELOG section (the words above its change lines are kept), records
// releases/openapi-<version>.json, and moves the packages' versions and every tarball name in
// the READMEs, so that `npm test` passes as it did.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, UsageError } from '../core/cli.ts';
import { writeSection } from './changelog.ts';
import { judge, report } from './gate.ts';
import { compareVersions, type Doc, readRelease, releasePath, releasedVersions, semver } from './releases.ts';

const usage = `usage: npm run release -- <version>

  Releases the contract as <version> (MAJOR.MINOR.PATCH, newer than every recorded release):
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
const readmes = ['README.md', 'src/client/README.md', 'src/sandbox/README.md', 'src/conformance/README.md'];
const tarball = /(messaging-contract-(?:client|sandbox|conformance)-)\d+\.\d+\.\d+(\.tgz)/g;

/** The `version:` of the `info:` block of the root document, replaced. */
export function withVersion(yaml: string, version: string): string {
  const info = /^info:[ \t]*\r?\n((?:[ \t]+.*\r?\n|[ \t]*\r?\n)*?)([ \t]+)version:[ \t]*\S.*$/m.exec(yaml);
  if (!info) throw new UsageError('openapi/openapi.yaml: no `version:` in its `info:` block');
  const start = info.index + info[0].length - info[0].split('\n').at(-1)!.length;
  const line = `${info[2]}version: ${version}`;
  return `${yaml.slice(0, start)}${line}${yaml.slice(info.index + info[0].length)}`;
}

runCli('release', usage, async (args) => {
  const flag = args.find((a) => a.startsWith('-'));
  if (flag) throw new UsageError(`unknown option ${flag}`);
  const [version, ...more] = args;
  if (version === undefined || more.length) throw new UsageError('expected one version, e.g. npm run release -- 1.0.2');
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new UsageError(`version: expected MAJOR.MINOR.PATCH, got "${version}"`);
  semver(version);
  const repo = process.env.INIT_CWD ?? process.cwd();
  const at = (file: string) => join(repo, file);
  const newest = releasedVersions(repo).at(-1);
  if (newest && compareVersions(version, newest) <= 0)
    throw new UsageError(`version: ${version} is not newer than the last release, ${newest}`);

  const npm = (script: string) =>
    execFileSync('npm', ['run', '--silent', script], { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
  const rootDocument = at('openapi/openapi.yaml');
  const bundle = at('generated/openapi.json');
  const kept = { yaml: readFileSync(rootDocument, 'utf8'), bundle: readFileSync(bundle, 'utf8') };
  writeFileSync(rootDocument, withVersion(kept.yaml, version));
  let current: Doc;
  try {
    npm('build:bundle');
    current = JSON.parse(readFileSync(bundle, 'utf8')) as Doc;
    if (current.info.version !== version) throw new Error(`the bundle says info.version ${current.info.version}`);
    if (newest) {
      const verdict = judge(repo, readRelease(repo, newest), current);
      console.log(`release ${version}: the changes since ${newest}\n${report(verdict)}`);
      if (verdict.failures.length)
        throw new UsageError(`refused, nothing changed:\n  ${verdict.failures.join('\n  ')}`);
    }
  } catch (error) {
    writeFileSync(rootDocument, kept.yaml);
    writeFileSync(bundle, kept.bundle);
    throw error;
  }
  npm('build:types');
  npm('build:generated');

  const changelog = writeSection(readFileSync(at('CHANGELOG.md'), 'utf8'), current, repo);
  writeFileSync(at('CHANGELOG.md'), changelog.text);
  writeFileSync(releasePath(repo, version), readFileSync(bundle));
  for (const file of manifests) {
    const manifest = JSON.parse(readFileSync(at(file), 'utf8'));
    manifest.version = version;
    writeFileSync(at(file), `${JSON.stringify(manifest, null, 2)}\n`);
  }
  // The lock names the root's and each workspace's version.
  const lock = JSON.parse(readFileSync(at('package-lock.json'), 'utf8'));
  lock.version = version;
  for (const key of ['', ...manifests.slice(1).map((m) => m.replace(/\/package\.json$/, ''))])
    if (lock.packages?.[key]) lock.packages[key].version = version;
  writeFileSync(at('package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
  for (const file of readmes)
    writeFileSync(at(file), readFileSync(at(file), 'utf8').replace(tarball, `$1${version}$2`));

  console.log(
    [
      `released ${version}:`,
      `  openapi/openapi.yaml info.version, generated/ rebuilt`,
      `  CHANGELOG.md section ${version} (${changelog.changes} changes since ${newest ?? 'nothing'}): reword it where it helps, keep every change line`,
      `  releases/openapi-${version}.json recorded: the gate's base from now on`,
      `  ${manifests.join(', ')}, package-lock.json and the READMEs' tarball names say ${version}`,
      `next: npm test, commit, and tag v${version} if you tag releases`,
    ].join('\n'),
  );
});
