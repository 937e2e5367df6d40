// The prose names real files: a file name in a comment of src/ or in a README must exist, so that a rename does not
// leave readers looking for a file that is gone. Comments are read with TypeScript's parser, so a '//' inside a string
// or a URL (https://...) never starts one; a README is read whole.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../src/paths.ts';

/** Files the prose mentions as the user's own, which the repository has no reason to hold. */
const userFiles = new Set([
  'conformance-vars.json', // the variables file a user passes to messaging-conformance --vars
  'my-fixtures.json', // the fixtures file a user passes to messaging-sandbox --fixtures
  'file.json', // `npm run diff -- --base file.json`: a document the user has at hand
]);

function walk(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    ['dist', 'node_modules', '.git'].includes(e.name)
      ? []
      : e.isDirectory()
        ? walk(join(dir, e.name), keep)
        : keep(e.name)
          ? [join(dir, e.name)]
          : [],
  );
}

/** The base names of every file of the repository, outside node_modules/ and dist/. */
const baseNames = new Set(walk(projectRoot, () => true).map((f) => basename(f)));

/** What the packages export under a subpath (`./openapi.json`): names of the published package, not of files here. */
const exportSubpaths = new Set(
  walk(join(projectRoot, 'src'), (name) => name === 'package.json').flatMap((f) =>
    Object.keys(JSON.parse(readFileSync(f, 'utf8')).exports ?? {}),
  ),
);

/** The comments of a source file, each as its start offset and text. */
function comments(path: string, text: string): { at: number; text: string }[] {
  const kind = path.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
  const found = new Map<number, number>();
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) found.set(r.pos, r.end);
  };
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(file)) visit(child);
  };
  visit(file);
  return [...found].map(([at, end]) => ({ at, text: text.slice(at, end) }));
}

// A file name with one of the extensions, optionally in folders (`../core/examples.ts`, `.github/x.yml`); not an
// extension alone (`.d.ts`). It starts after no word character, '/', '.', ':', '@', '*' or '-' and ends before no word
// character, '/', '*' or '.x', so that neither a piece of a longer path, a scoped package (`@scope/pkg/file.json`) nor
// a glob (`*.ts`) matches.
const fileName =
  /(?<![\w@*/.:-])((?:\.{1,2}\/)*(?:\.?[\w-][\w.-]*\/)*[\w-][\w.-]*\.(?:ts|js|cjs|mjs|json|yaml|yml|md|sh))(?![\w/*-]|\.\w)/g;
const url = /\b[a-z][\w+.-]*:\/\/\S+/gi;

/** The file names a text mentions, with their lines: the comments of a source file, the whole of a README. */
function mentions(path: string, text: string): { line: number; name: string }[] {
  const parts = path.endsWith('.md') ? [{ at: 0, text }] : comments(path, text);
  return parts.flatMap((part) =>
    [...part.text.replace(url, (u) => ' '.repeat(u.length)).matchAll(fileName)].map((m) => ({
      line: text.slice(0, part.at + m.index).split('\n').length,
      name: m[1]!,
    })),
  );
}

// A mention resolves when the file exists relative to the mentioning file's folder, the repository root, src/ or the
// mentioning file's package (src/<package>/); a bare name (no slash) also resolves when a file of that name exists
// anywhere in the repository outside node_modules/ and dist/.
function resolves(path: string, name: string): boolean {
  const [top, pkg, ...rest] = path.split('/');
  const bases = [dirname(path), '.', 'src', ...(top === 'src' && rest.length > 0 ? [`src/${pkg}`] : [])];
  return (
    bases.some((base) => existsSync(join(projectRoot, base, name))) || (!name.includes('/') && baseNames.has(name))
  );
}

/** Mentions that are no file of the repository's sources, whether or not they exist. */
function ignored(name: string): boolean {
  const first = name.split('/')[0]!;
  return (
    userFiles.has(name) ||
    exportSubpaths.has(name) ||
    name.split('/').includes('dist') || // a build output, absent until a build
    (!first.startsWith('.') && name.includes('/') && existsSync(join(projectRoot, 'node_modules', first))) // npm package
  );
}

/** Every mention in the text of `path` (relative to the repository root) of a file that does not exist. */
function unresolved(path: string, text: string): string[] {
  return mentions(path, text)
    .filter(({ name }) => !ignored(name) && !resolves(path, name))
    .map(({ line, name }) => `${path}:${line} names ${name}, which does not exist`);
}

const texts = [
  ...walk(join(projectRoot, 'src'), (name) => /\.(ts|cjs|mjs|js)$/.test(name) || name === 'README.md'),
  join(projectRoot, 'README.md'),
  join(projectRoot, 'CONTRIBUTING.md'),
  join(projectRoot, 'openapi', 'README.md'),
].map((f) => relative(projectRoot, f));

describe('the prose names files that exist', () => {
  it('every file named in a comment of src/ or in a README exists', () => {
    expect(texts.length).toBeGreaterThan(50);
    const wrong = texts.flatMap((path) => unresolved(path, readFileSync(join(projectRoot, path), 'utf8')));
    expect(wrong).toEqual([]);
  });

  it('a comment naming a missing file is reported; strings, URLs and existing files are not', () => {
    const text = [
      '// Reads no-such-file.ts before anything else.',
      "const url = 'https://example.org/a/missing-in-a-url.ts'; // see checks/answer.ts and https://x.org/gone.ts",
      "const note = '// missing-in-a-string.ts';",
      '/* The stages (stages/*.ts) run in order. */',
    ].join('\n');
    expect(unresolved('src/conformance/stages/made-up.ts', text)).toEqual([
      'src/conformance/stages/made-up.ts:1 names no-such-file.ts, which does not exist',
    ]);
  });
});
