// The gate's verdict on a document against a base, shared by `npm run diff` and `npm run release`:
// every change classified, the corrections of the versions in between applied, and what fails.
import { isDeepStrictEqual } from 'node:util';
import { compareDocuments, type Change, type ChangeClass } from './compare.ts';
import { correctionsBetween, type Doc, semver } from './releases.ts';

export interface Verdict {
  changes: Change[];
  /** Why the gate fails, one sentence each; empty when it passes. */
  failures: string[];
}

const classes: ChangeClass[] = ['breaking', 'correction', 'non-breaking', 'deprecation', 'annotation'];

export function judge(repo: string, base: Doc, current: Doc): Verdict {
  // A base equal to the document is no change, whatever the corrections file holds.
  if (isDeepStrictEqual(base, current)) return { changes: [], failures: [] };
  const [was, now] = [base.info.version, current.info.version];
  // The corrections of the releases after the base, up to this version: earlier ones are history.
  const corrections = correctionsBetween(repo, was, now);
  const changes = compareDocuments(base, current, corrections);
  const failures: string[] = [];
  // A correction of the version being made that excuses nothing is stale or mistyped: it must not wait to excuse another.
  for (const c of corrections)
    if (c.version === now && !changes.some((change) => change.class === 'correction' && change.pointer === c.at))
      failures.push(`releases/corrections.json names ${c.at} for ${now}, but no breaking change is there`);
  const breaking = changes.filter((c) => c.class === 'breaking').length;
  const major = withoutMajor(
    breaking,
    '',
    was,
    now,
    ' (or, where the service always behaved so, a correction in releases/corrections.json)',
  );
  if (major) failures.push(major);
  return { changes, failures };
}

/**
 * The one rule of both gates (the document's, the packages' types'): breaking changes need a new major version. The
 * failure for `count` of them (`of` what) from `was` to `now`, or undefined when none or the major is new.
 */
export function withoutMajor(count: number, of: string, was: string, now: string, hint: string): string | undefined {
  return count > 0 && semver(now)[0] <= semver(was)[0]
    ? `${count} breaking change(s)${of} need a new major version: info.version ${now} must become ${semver(was)[0] + 1}.0.0 or later${hint}`
    : undefined;
}

/** The verdict as the gate prints it: one block per change, then the count of each class. */
export function report(verdict: Verdict): string {
  const { changes } = verdict;
  const indent = '\n             ';
  const lines = changes.map(
    (c) =>
      `${c.class.padEnd(12)} ${c.sentence}${indent}at ${c.pointer}${c.breaks ? `${indent}breaks ${c.breaks}${c.witness ? `: the witness ${c.witness}` : ''}` : ''}${c.why ? `${indent}accepted: ${c.why}` : ''}`,
  );
  const count = (k: ChangeClass) => changes.filter((c) => c.class === k).length;
  return [...lines, `${changes.length} changes: ${classes.map((k) => `${count(k)} ${k}`).join(', ')}`].join('\n');
}
