// npm run diff -- [--base <git ref | file.json | package.tgz>]: the changes of generated/openapi.json
// against a base, each classified, and the gate: exit 1 when a change is breaking and the major
// version of info.version was not bumped. The repository compared is the one npm was started in.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, runCli, UsageError } from '../core/cli.ts';
import { compareDocuments } from './compare.ts';
import { correctionsFor, type Doc, releasePath, releasedVersions, semver } from './releases.ts';

const usage = `usage: npm run diff -- [--base <git ref | file.json | package.tgz>]

  Compares generated/openapi.json with a base and prints every change as breaking,
  correction, non-breaking, deprecation or annotation. Exit 1 when a change is breaking and
  info.version's major was not bumped; 0 otherwise. A correction is a breaking change that
  releases/corrections.json accepts for this version, because the service always behaved so.
  The default base is the newest tag v*, or else the newest releases/openapi-<version>.json.
`;

function loadBase(repo: string, base: string | undefined): { label: string; doc: Doc } {
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 << 20,
    });
  if (base === undefined) {
    let tag: string | undefined;
    try {
      tag = git('tag', '--list', 'v*', '--sort=-v:refname').split('\n')[0]?.trim() || undefined;
    } catch {
      tag = undefined; // not a git repository
    }
    if (tag) return loadBase(repo, tag);
    const newest = releasedVersions(repo).at(-1);
    const release = newest && releasePath(repo, newest);
    if (!release) throw new UsageError('no base: no tag v* and no releases/openapi-<version>.json; pass --base');
    return { label: release.slice(repo.length + 1), doc: JSON.parse(readFileSync(release, 'utf8')) };
  }
  if (base.endsWith('.tgz')) {
    const text = execFileSync('tar', ['-xzOf', resolve(repo, base), 'package/dist/openapi.json'], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    return { label: `${base} (./openapi.json)`, doc: JSON.parse(text) };
  }
  if (base.endsWith('.json')) return { label: base, doc: JSON.parse(readFileSync(resolve(repo, base), 'utf8')) };
  try {
    return { label: `${base}:generated/openapi.json`, doc: JSON.parse(git('show', `${base}:generated/openapi.json`)) };
  } catch (error) {
    throw new UsageError(
      `--base ${base}: not a git ref with generated/openapi.json, a .json file or a .tgz package (${
        String((error as { stderr?: string }).stderr ?? error)
          .trim()
          .split('\n')[0]
      })`,
    );
  }
}

runCli('diff', usage, async (args) => {
  const o = parse(args, { base: { type: 'string' } });
  const repo = process.env.INIT_CWD ?? process.cwd();
  const current = JSON.parse(readFileSync(join(repo, 'generated/openapi.json'), 'utf8')) as Doc;
  const { label, doc: base } = loadBase(repo, o.base);
  const corrections = correctionsFor(repo, current.info.version);
  const changes = compareDocuments(base, current, corrections);
  console.log(
    `base ${label} (version ${base.info.version}) -> generated/openapi.json (version ${current.info.version})`,
  );
  for (const c of changes)
    console.log(
      `${c.class.padEnd(12)} ${c.sentence}\n             at ${c.pointer}${c.why ? `\n             accepted: ${c.why}` : ''}`,
    );
  const count = (k: string) => changes.filter((c) => c.class === k).length;
  const classes = ['breaking', 'correction', 'non-breaking', 'deprecation', 'annotation'];
  console.log(`${changes.length} changes: ${classes.map((k) => `${count(k)} ${k}`).join(', ')}`);
  // A correction that excuses no breaking change is stale or mistyped: it must not wait to excuse another.
  const unused = corrections.filter(
    (c) => !changes.some((change) => change.class === 'correction' && change.pointer === c.at),
  );
  for (const c of unused)
    process.stderr.write(
      `diff: releases/corrections.json names ${c.at} for ${current.info.version}, but no breaking change is there\n`,
    );
  if (unused.length) process.exitCode = 1;
  const [baseMajor] = semver(base.info.version);
  const [major] = semver(current.info.version);
  if (count('breaking') > 0 && major <= baseMajor) {
    process.stderr.write(
      `diff: ${count('breaking')} breaking change(s) need a new major version: info.version ${current.info.version} must become ${baseMajor + 1}.0.0 or later (or, where the service always behaved so, a correction in releases/corrections.json)\n`,
    );
    process.exitCode = 1;
  }
});
