// What releases/ holds: the bundled document of each released version (openapi-<version>.json)
// and the corrections accepted for a version (corrections.json). One reader for both scripts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { UsageError } from '../core/cli.ts';
import { projectRoot } from '../paths.ts';
import type { Correction } from './compare.ts';

export type Doc = { info: { version: string } } & Record<string, unknown>;

/**
 * The repository the scripts work on: the one npm was started in (INIT_CWD, else the working
 * directory), from any folder of it: the nearest one up that holds generated/openapi.json.
 */
export function repositoryRoot(env: Record<string, string | undefined> = process.env): string {
  const start = env.INIT_CWD ?? process.cwd();
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'generated', 'openapi.json'))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

/** The document a script judges, where it comes from, and whether generated/openapi.json lags behind it. */
export interface Current {
  doc: Doc;
  /** "openapi/ (bundled now)", or "generated/openapi.json" in a repository without the sources. */
  label: string;
  /** generated/openapi.json differs from the sources bundled now: `npm run build` was not run after an edit. */
  stale: boolean;
}

/**
 * The document as the repository's sources say it now. A bundle in generated/ may be older than an edit of openapi/,
 * and a gate that judged it would report a breaking change as no change: openapi/openapi.yaml, where it exists, is
 * bundled afresh (Redocly, with the repository's redocly.yaml) into a temporary file, and generated/ is only compared.
 */
export function currentDocument(repo: string): Current {
  const bundled = join(repo, 'generated', 'openapi.json');
  const sources = join(repo, 'openapi', 'openapi.yaml');
  if (!existsSync(sources))
    return { doc: JSON.parse(readFileSync(bundled, 'utf8')), label: 'generated/openapi.json', stale: false };
  const dir = mkdtempSync(join(tmpdir(), 'mc-current-'));
  try {
    const out = join(dir, 'openapi.json');
    try {
      execFileSync(
        join(projectRoot, 'node_modules', '.bin', 'redocly'),
        ['bundle', 'openapi/openapi.yaml', '-o', out],
        {
          cwd: repo,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
          stdio: ['ignore', 'pipe', 'pipe'],
          maxBuffer: 64 << 20,
        },
      );
    } catch (error) {
      const said = String((error as { stderr?: Buffer }).stderr ?? '')
        .split('\n')
        .find((line) => /error|cannot|failed/i.test(line));
      throw new UsageError(`openapi/openapi.yaml: Redocly could not bundle it${said ? ` (${said.trim()})` : ''}`);
    }
    const text = readFileSync(out, 'utf8');
    const stale = !existsSync(bundled) || readFileSync(bundled, 'utf8') !== text;
    return { doc: JSON.parse(text), label: 'openapi/ (bundled now)', stale };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The files that name a version of the packages: their tarballs and their published versions. */
export const versionedFiles = [
  'README.md',
  'src/client/README.md',
  'src/sandbox/README.md',
  'src/conformance/README.md',
  'src/conformance/ci/github-actions.yml',
  'src/conformance/ci/gitlab-ci.yml',
  'src/conformance/ci/conformance.sh',
];

/** A package's version as those files name it (the tarball's name or the published package), the version last. */
export const namedVersion =
  /(messaging-contract-(?:client|sandbox|conformance)-(?=\d+\.\d+\.\d+\.tgz)|@messaging-contract\/(?:client|sandbox|conformance)@)\d+\.\d+\.\d+/g;

export const semver = (v: string) => {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(v);
  if (!m) throw new UsageError(`info.version must be semver (MAJOR.MINOR.PATCH), got "${v}"`);
  return m.slice(1).map(Number) as [number, number, number];
};

/** A version as releases carry it: MAJOR.MINOR.PATCH. */
export const isVersion = (v: string) => /^\d+\.\d+\.\d+$/.test(v);

/** Orders two versions: negative when `a` comes before `b`. */
export const compareVersions = (a: string, b: string) => {
  const [x, y] = [semver(a), semver(b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

/** The versions kept under releases/, oldest first. */
export function releasedVersions(repo: string): string[] {
  const dir = join(repo, 'releases');
  if (!existsSync(dir)) return [];
  const versions = readdirSync(dir).flatMap((f) => /^openapi-(\d+\.\d+\.\d+)\.json$/.exec(f)?.[1] ?? []);
  return versions.sort(compareVersions);
}

/** The newest release before `version` (the one its changelog section and its release are judged against). */
export const releaseBefore = (repo: string, version: string) =>
  releasedVersions(repo)
    .filter((v) => compareVersions(v, version) < 0)
    .at(-1);

/** The newest release up to `version`: the gate's base while `version` is being worked on, or once released. */
export const releaseUpTo = (repo: string, version: string) =>
  releasedVersions(repo)
    .filter((v) => compareVersions(v, version) <= 0)
    .at(-1);

export const releasePath = (repo: string, version: string) => join(repo, 'releases', `openapi-${version}.json`);
export const readRelease = (repo: string, version: string): Doc =>
  JSON.parse(readFileSync(releasePath(repo, version), 'utf8'));

/**
 * The corrections accepted for the versions after `base` up to `version`: breaking changes that
 * need no new major version because the document said what the service never did. A correction
 * belongs to the release that introduces it: a diff from that release on, or from a later one,
 * does not see it. The file maps a version to `[{at, why}]`; each correction returned names it.
 */
export function correctionsBetween(
  repo: string,
  base: string,
  version: string,
): Array<Correction & { version: string }> {
  const path = join(repo, 'releases', 'corrections.json');
  if (!existsSync(path)) return [];
  const file = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  const fail = (what: string): never => {
    throw new UsageError(`releases/corrections.json: ${what}`);
  };
  if (file === null || typeof file !== 'object' || Array.isArray(file))
    fail('expected an object mapping a version to a list of {at, why}');
  return Object.entries(file as Record<string, unknown>).flatMap(([v, list]) => {
    if (!isVersion(v)) fail(`"${v}": expected a version (MAJOR.MINOR.PATCH) as the key`);
    if (compareVersions(v, base) <= 0 || compareVersions(v, version) > 0) return [];
    if (!Array.isArray(list)) return fail(`"${v}": expected a list of {at, why}`);
    return list.map((entry, i) => {
      const { at, why } = (entry ?? {}) as Record<string, unknown>;
      if (typeof at !== 'string' || !at.startsWith('#/'))
        fail(`"${v}"[${i}].at: expected the JSON pointer npm run diff prints ("#/...")`);
      if (typeof why !== 'string' || !why.trim())
        fail(`"${v}"[${i}].why: expected a sentence saying what the service always did`);
      return { at: at as string, why: why as string, version: v };
    });
  });
}
