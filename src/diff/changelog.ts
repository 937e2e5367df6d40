// npm run changelog: the section of CHANGELOG.md for the document's version, written from the
// diff against the newest release of an older version. `missingLines` is the drift check: a
// section may be reworded around them, but every change line must stay.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareDocuments, type Change } from './compare.ts';
import { correctionsFor, type Doc, readRelease, releasedVersions } from './releases.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The newest committed release whose version differs from `version`, if any. */
export function previousRelease(version: string, repo = root): { version: string; doc: Doc } | undefined {
  const newest = releasedVersions(repo)
    .filter((v) => v !== version)
    .at(-1);
  return newest ? { version: newest, doc: readRelease(repo, newest) } : undefined;
}

export const changeLine = (c: Change) =>
  `- **${c.class}**: ${c.sentence}${c.why ? ` (breaking, accepted: ${c.why})` : ''}`;

/** The changes a version's section must list: against the previous release, or none for the first. */
export function expectedLines(current: Doc, repo = root): string[] {
  const previous = previousRelease(current.info.version, repo);
  return previous
    ? compareDocuments(previous.doc, current, correctionsFor(repo, current.info.version)).map(changeLine)
    : [];
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const current = JSON.parse(readFileSync(join(root, 'generated/openapi.json'), 'utf8')) as Doc;
  const path = join(root, 'CHANGELOG.md');
  const changelog = readFileSync(path, 'utf8');
  const previous = previousRelease(current.info.version);
  const body = `## ${current.info.version}\n\nChanges since ${previous?.version ?? 'nothing (the first release)'}:\n\n${expectedLines(current).join('\n') || '- none'}\n`;
  const old = section(changelog, current.info.version);
  const firstSection = changelog.indexOf('\n## ');
  const next =
    old !== undefined
      ? changelog.replace(old, body)
      : `${changelog.slice(0, firstSection + 1)}${body}\n${changelog.slice(firstSection + 1)}`;
  writeFileSync(path, next);
  console.log(`CHANGELOG.md: section ${current.info.version} written (${expectedLines(current).length} changes)`);
}
