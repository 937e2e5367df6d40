// A workspace package's code as it ships: esbuild bundles the entries for plain Node (the shared
// core and generated/ are compiled in; only the package's own dependencies stay imports), and the
// files the package ships beside the code are copied in. The package build (package.ts) adds the
// types; the tests run the same bundle of a bin (test/helpers/bins-global.ts), not the sources under tsx.
import { builtinModules } from 'node:module';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { buildDocs } from '../docs/build.ts';
import { bundledDocumentPath, docsPagePath, dreddTransactionsPath } from '../paths.ts';

export interface Recipe {
  /** Entry name (dist/<name>.js) -> source file in the package folder. */
  entries: Record<string, string>;
  /** The entries that are imported (and get dist/<name>.d.ts); the others are bins. */
  typed: string[];
  /** File under dist/ -> the file to copy there. */
  assets: Record<string, string>;
  /** Build steps the assets need first. */
  before?: () => void;
}

export const recipes: Record<string, Recipe> = {
  '@messaging-contract/client': {
    entries: { index: 'index.ts', webhooks: 'webhooks.ts', preflight: 'preflight.ts' },
    typed: ['index', 'webhooks', 'preflight'],
    assets: { 'openapi.json': bundledDocumentPath },
  },
  '@messaging-contract/sandbox': {
    entries: { index: 'index.ts', cli: 'cli.ts' },
    typed: ['index'],
    assets: { 'openapi.json': bundledDocumentPath, 'docs/index.html': docsPagePath, 'fixtures.json': 'fixtures.json' },
    before: buildDocs,
  },
  '@messaging-contract/conformance': {
    // The bin keeps its name, dist/cli.js; its source is bin.ts (cli.ts is the function tests run in-process).
    entries: { index: 'index.ts', cli: 'bin.ts' },
    typed: ['index'],
    assets: { 'dredd-transactions.json': dreddTransactionsPath },
  },
};

export interface PackageSource {
  name: string;
  dir: string;
  recipe: Recipe;
  /** Imports that stay imports: the package's dependencies (and their subpaths) and Node's modules. */
  external: string[];
  isExternal(id: string): boolean;
}

/** The package whose package.json is in `dir`, with its recipe. */
export function packageSource(dir: string): PackageSource {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
  };
  const recipe = recipes[manifest.name];
  if (!recipe) throw new Error(`no build recipe for ${manifest.name} (run this from a workspace package)`);
  const dependencies = Object.keys(manifest.dependencies ?? {});
  const isExternal = (id: string) =>
    id.startsWith('node:') ||
    builtinModules.includes(id) ||
    dependencies.some((d) => id === d || id.startsWith(`${d}/`));
  const external = [...dependencies, ...dependencies.map((d) => `${d}/*`), ...builtinModules, 'node:*'];
  return { name: manifest.name, dir, recipe, external, isExternal };
}

/** Bundles the entries named in `only` (all by default) into `outdir`, with the assets beside them. */
export async function bundleCode(source: PackageSource, outdir: string, only?: string[]): Promise<void> {
  const entryPoints = Object.fromEntries(
    Object.entries(source.recipe.entries)
      .filter(([name]) => !only || only.includes(name))
      .map(([name, file]) => [name, join(source.dir, file)]),
  );
  await build({
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    external: source.external,
    define: { MESSAGING_CONTRACT_BUNDLE: 'true' },
    legalComments: 'none',
    logLevel: 'warning',
  });
  for (const [target, file] of Object.entries(source.recipe.assets)) {
    const to = join(outdir, target);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(resolve(source.dir, file), to);
  }
}
