// Imports go one way (design.md, "Layout"): the shared core imports generated/ and Node only; each
// package imports its own folder, the core, Node and its own declared dependencies, never another
// package. Read from the sources' import statements, so a new file is covered without a list.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { builtinModules } from 'node:module';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../src/paths.ts';

const src = join(projectRoot, 'src');
const packages = ['client', 'sandbox', 'conformance'] as const;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.name === 'dist' || e.name === 'node_modules'
      ? []
      : e.isDirectory()
        ? files(join(dir, e.name))
        : /\.(ts|cjs|mjs|js)$/.test(e.name)
          ? [join(dir, e.name)]
          : [],
  );
}

/** Every module specifier a file imports or requires. */
function specifiers(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(
    /(?:^|[^\w.])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[^\w.])import\s*['"]([^'"]+)['"]|(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/gm,
  )) {
    found.add((m[1] ?? m[2] ?? m[3])!);
  }
  return [...found];
}

/**
 * Where a specifier points: a folder of the repository ('core', 'client', 'generated', ...), 'node', or an npm package
 * name.
 */
function target(file: string, specifier: string): string {
  if (specifier.startsWith('node:') || builtinModules.includes(specifier)) return 'node';
  if (!specifier.startsWith('.'))
    return specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
  const path = relative(projectRoot, resolve(dirname(file), specifier));
  const [top, second] = path.split('/');
  return top === 'src' ? second! : top!;
}

const dependenciesOf = (name: string) =>
  Object.keys(JSON.parse(readFileSync(join(src, name, 'package.json'), 'utf8')).dependencies ?? {});

describe('imports go one way', () => {
  it('the core imports only itself, generated/ and Node', () => {
    const wrong = files(join(src, 'core')).flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((s) => !['core', 'generated', 'node'].includes(target(file, s)))
        .map((s) => `${relative(projectRoot, file)} imports ${s}`),
    );
    expect(wrong).toEqual([]);
  });

  it.each(packages)('the %s package imports only itself, the core, Node and its declared dependencies', (name) => {
    // `hooks` is Dredd's hook API, which Dredd hands to the conformance suite's hook file.
    const allowed = new Set([
      name,
      'core',
      'node',
      ...(name === 'conformance' ? ['hooks'] : []),
      ...dependenciesOf(name),
    ]);
    const wrong = files(join(src, name)).flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((s) => !allowed.has(target(file, s)))
        .map((s) => `${relative(projectRoot, file)} imports ${s}`),
    );
    expect(wrong).toEqual([]);
  });

  it('the independent implementation (test/independent) shares no code: it imports Node and its own folder only', () => {
    const dir = join(projectRoot, 'test', 'independent');
    const found = files(dir);
    expect(found.length).toBeGreaterThan(0);
    const wrong = found.flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter(
          (s) =>
            !(
              s.startsWith('node:') ||
              builtinModules.includes(s) ||
              (s.startsWith('.') && resolve(dirname(file), s).startsWith(`${dir}/`))
            ),
        )
        .map((s) => `${relative(projectRoot, file)} imports ${s}`),
    );
    expect(wrong).toEqual([]);
  });

  it('the check sees a wrong import', () => {
    const file = join(src, 'sandbox', 'x.ts');
    expect(
      specifiers(
        "import { a } from '../client/index.ts';\nimport type { B } from \"ajv\";\nconst c = await import('../conformance/suite.ts');",
      ),
    ).toEqual(['../client/index.ts', 'ajv', '../conformance/suite.ts']);
    expect(target(file, '../client/index.ts')).toBe('client');
    expect(target(file, '../../generated/openapi.json')).toBe('generated');
    expect(target(file, '@scope/pkg/sub')).toBe('@scope/pkg');
  });
});
