// npm run changelog: the section of CHANGELOG.md for the document's version, its change lines
// written from the diff against the release before it (`npm run release` calls the same). The
// words a person wrote above "Changes since" stay; `missingLines` is the drift check: a section
// may be reworded around the change lines, but every one must stay.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ApiBreak, compareApi } from './api.ts';
import { type Change, compareDocuments } from './compare.ts';
import {
  correctionsBetween,
  currentDocument,
  type Doc,
  readRelease,
  releaseBefore,
  repositoryRoot,
} from './releases.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The release before `version`, if any. */
export function previousRelease(version: string, repo = root): { version: string; doc: Doc } | undefined {
  const before = releaseBefore(repo, version);
  return before ? { version: before, doc: readRelease(repo, before) } : undefined;
}

export const changeLine = (c: Change) =>
  `- **${c.class}**: ${c.sentence}${c.breaks ? `; breaks ${c.breaks}` : ''}${c.why ? ` (breaking, accepted: ${c.why})` : ''}`;

/** A breaking change of a package's types, as the changelog names it. */
export const apiLine = (b: ApiBreak) => `- **breaking** (types): ${b.what}: ${b.sentence}`;

/**
 * The changes a version's section must list: against the previous release, or none for the first. With the document's
 * changes, the breaking changes of the packages' types, where both releases recorded them (releases/api/).
 */
export function expectedLines(current: Doc, repo = root): string[] {
  const previous = previousRelease(current.info.version, repo);
  if (!previous) return [];
  const { version } = current.info;
  return [
    ...compareDocuments(previous.doc, current, correctionsBetween(repo, previous.version, version)).map(changeLine),
    ...(compareApi(repo, previous.version, version) ?? []).map(apiLine),
  ];
}

/** The section of `version` in a changelog's text. */
export function section(changelog: string, version: string): string | undefined {
  const start = changelog.indexOf(`\n## ${version}\n`);
  if (start < 0) return undefined;
  const next = changelog.indexOf('\n## ', start + 1);
  return changelog.slice(start + 1, next < 0 ? undefined : next);
}

/** Change lines the version's section lacks (empty when it is up to date). */
export function missingLines(changelog: string, current: Doc, repo = root): string[] {
  const text = section(changelog, current.info.version);
  if (text === undefined) return [`a section "## ${current.info.version}"`];
  return expectedLines(current, repo).filter((line) => !text.includes(line));
}

/** The changelog with the version's section written: its change lines anew, the words above them kept. */
export function writeSection(changelog: string, current: Doc, repo = root): { text: string; changes: number } {
  const { version } = current.info;
  const previous = previousRelease(version, repo);
  const lines = expectedLines(current, repo);
  const changes = `Changes since ${previous?.version ?? 'nothing (the first release)'}:\n\n${lines.join('\n') || '- none'}\n`;
  const old = section(changelog, version);
  if (old === undefined) {
    const first = changelog.indexOf('\n## ');
    const at = first < 0 ? changelog.length : first + 1;
    return {
      text: `${changelog.slice(0, at)}## ${version}\n\n${changes}\n${changelog.slice(at)}`,
      changes: lines.length,
    };
  }
  const since = old.indexOf('\nChanges since ');
  const words = since < 0 ? old.trimEnd() : old.slice(0, since).trimEnd();
  // A function, so that `$` in the words is not read as a replacement pattern.
  return { text: changelog.replace(old, () => `${words}\n\n${changes}`), changes: lines.length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const repo = repositoryRoot();
  const current = currentDocument(repo).doc;
  const path = join(repo, 'CHANGELOG.md');
  const { text, changes } = writeSection(readFileSync(path, 'utf8'), current, repo);
  writeFileSync(path, text);
  console.log(`CHANGELOG.md: section ${current.info.version} written (${changes} changes)`);
}
