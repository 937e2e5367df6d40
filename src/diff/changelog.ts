// npm run changelog: the section of CHANGELOG.md for the document's version, written from the
// diff against the newest release of an older version. `missingLines` is the drift check: a
// section may be reworded around them, but every change line must stay.
import { readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareDocuments, type Change } from './compare.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
type Doc = { info: { version: string } };

/** The newest committed release whose version differs from `version`, if any. */
export function previousRelease(version: string, repo = root): { version: string; doc: Doc } | undefined {
  const dir = join(repo, 'releases');
  if (!existsSync(dir)) return undefined;
  const parse = (v: string) => v.split('.').map(Number);
  const versions = readdirSync(dir)
    .map((f) => /^openapi-(\d+\.\d+\.\d+)\.json$/.exec(f)?.[1])
    .filter((v): v is string => v !== undefined && v !== version)
    .sort((a, b) => { const [x, y] = [parse(a), parse(b)]; return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!; });
  const newest = versions.at(-1);
  return newest ? { version: newest, doc: JSON.parse(readFileSync(join(dir, `openapi-${newest}.json`), 'utf8')) } : undefined;
}

export const changeLine = (c: Change) => `- **${c.class}**: ${c.sentence}`;

/** The changes a version's section must list: against the previous release, or none for the first. */
export function expectedLines(current: Doc, repo = root): string[] {
  const previous = previousRelease(current.info.version, repo);
  return previous ? compareDocuments(previous.doc, current).map(changeLine) : [];
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
  const next = old !== undefined ? changelog.replace(old, body) : `${changelog.slice(0, firstSection + 1)}${body}\n${changelog.slice(firstSection + 1)}`;
  writeFileSync(path, next);
  console.log(`CHANGELOG.md: section ${current.info.version} written (${expectedLines(current).length} changes)`);
}
