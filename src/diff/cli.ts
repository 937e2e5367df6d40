// npm run diff -- [--base <git ref | file.json | package.tgz>]: the changes of openapi/, bundled now
// (never a generated/openapi.json older than an edit), against a base, each classified, and the gate: exit 1 when a change is breaking and the major
// version of info.version was not bumped. The repository compared is the one npm was started in.
// diffMain is the command on any streams and environment (bin.ts runs it on the process's; tests on their own).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type CliIo, command, parse, UsageError } from '../core/cli.ts';
import { judge, report } from './gate.ts';
import {
  currentDocument,
  type Doc,
  readRelease,
  releaseBefore,
  releasePath,
  releasedVersions,
  releaseUpTo,
  repositoryRoot,
} from './releases.ts';

export const usage = `usage: npm run diff -- [--base <git ref | file.json | package.tgz>]

  Compares openapi/, bundled now (generated/openapi.json in a repository without
  openapi/), with a base and prints every change as breaking,
  correction, non-breaking, deprecation or annotation, judged by who reads the place it
  changes (requests and webhook answers by the service, responses by clients, webhook
  payloads by receivers), with witness instances as a second opinion. Exit 1 when a change
  is breaking and info.version's major was not bumped; 0 otherwise. A correction is a
  breaking change that releases/corrections.json accepts for a release after the base,
  because the service always behaved so. The default base is the newest
  releases/openapi-<version>.json up to info.version, or else the newest tag v*.
`;

function loadBase(repo: string, version: string, base: string | undefined): { label: string; doc: Doc } {
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 << 20,
    });
  if (base === undefined) {
    // What `npm run release` records is the base; a repository that keeps none gives its tags.
    const newest = releaseUpTo(repo, version) ?? releasedVersions(repo).at(-1);
    if (newest) {
      const release = releasePath(repo, newest);
      return { label: release.slice(repo.length + 1), doc: JSON.parse(readFileSync(release, 'utf8')) };
    }
    let tag: string | undefined;
    try {
      tag = git('tag', '--list', 'v*', '--sort=-v:refname').split('\n')[0]?.trim() || undefined;
    } catch {
      tag = undefined; // not a git repository
    }
    if (tag) return loadBase(repo, version, tag);
    throw new UsageError('no base: no releases/openapi-<version>.json and no tag v*; pass --base');
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

/** The diff command on any streams: its exit code (1 for a failed gate, 2 for a usage error). */
export const diffMain = command('diff', usage, gate);

function gate(args: string[], io: CliIo): number {
  const o = parse(args, { base: { type: 'string' } });
  const repo = repositoryRoot(io.env);
  const { doc: current, label: currentLabel, stale } = currentDocument(repo);
  const { label, doc: base } = loadBase(repo, current.info.version, o.base);
  const verdict = judge(repo, base, current);
  io.stdout(`base ${label} (version ${base.info.version}) -> ${currentLabel} (version ${current.info.version})\n`);
  if (stale) io.stdout('note: generated/openapi.json is older than openapi/ (run npm run build); judged: openapi/\n');
  io.stdout(`${report(verdict)}\n`);
  const failures = [...verdict.failures];
  // The release of this version, once recorded, is the base: the release before it still judges it,
  // so a breaking change recorded by hand under a minor version does not pass as "no change".
  const before =
    o.base === undefined && base.info.version === current.info.version && releaseBefore(repo, current.info.version);
  if (before) {
    const recorded = judge(repo, readRelease(repo, before), current);
    const breaking = recorded.changes.filter((c) => c.class === 'breaking').length;
    // Said of the working copy, which is what was compared: the recorded release is the base above.
    const said = `the working copy (version ${current.info.version}) against the release before it, ${before}`;
    io.stdout(`${said}: ${breaking} breaking\n`);
    failures.push(...recorded.failures.map((f) => `${said}: ${f}`));
  }
  for (const failure of failures) io.stderr(`diff: ${failure}\n`);
  return failures.length ? 1 : 0;
}
