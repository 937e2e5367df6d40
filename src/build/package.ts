// Builds the workspace package in the current directory into its dist/ (run by its `build` and
// `prepack` scripts): esbuild bundles the entries for plain Node (the shared core and generated/
// are compiled in; only the package's own dependencies stay imports), rollup-plugin-dts bundles
// their types the same way, and the files the package ships beside the code are copied in.
import { builtinModules } from 'node:module';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import { buildDocs } from '../docs/build.ts';
import { bundledDocumentPath, docsPagePath, projectRoot } from '../paths.ts';

interface Recipe {
  /** Entry name (dist/<name>.js) -> source file in the package folder. */
  entries: Record<string, string>;
  /** The entries that are imported (and get dist/<name>.d.ts); the others are bins. */
  typed: string[];
  /** File under dist/ -> the file to copy there. */
  assets: Record<string, string>;
  /** Build steps the assets need first. */
  before?: () => void;
}

const recipes: Record<string, Recipe> = {
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
    entries: { index: 'index.ts', cli: 'cli.ts' },
    typed: ['index'],
    assets: { 'dredd-hooks.cjs': 'dredd-hooks.cjs' },
  },
};

const packageDir = process.cwd();
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
  name: string;
  dependencies?: Record<string, string>;
};
const recipe = recipes[manifest.name];
if (!recipe) throw new Error(`no build recipe for ${manifest.name} (run this from a workspace package)`);

// Imports that stay imports: the package's dependencies (and their subpaths) and Node's modules.
const dependencies = Object.keys(manifest.dependencies ?? {});
const external = [...dependencies, ...dependencies.map((d) => `${d}/*`), ...builtinModules, 'node:*'];
const isExternal = (id: string) =>
  id.startsWith('node:') || builtinModules.includes(id) || dependencies.some((d) => id === d || id.startsWith(`${d}/`));
const entryPoints = Object.fromEntries(
  Object.entries(recipe.entries).map(([name, file]) => [name, join(packageDir, file)]),
);
const dist = join(packageDir, 'dist');

rmSync(dist, { recursive: true, force: true });
recipe.before?.();

await build({
  entryPoints,
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  external,
  define: { MESSAGING_CONTRACT_BUNDLE: 'true' },
  legalComments: 'none',
  logLevel: 'warning',
});

const types = await rollup({
  input: Object.fromEntries(recipe.typed.map((name) => [name, entryPoints[name]!])),
  external: isExternal,
  plugins: [
    dts({
      tsconfig: join(projectRoot, 'tsconfig.json'),
      compilerOptions: { noEmit: false, declaration: true, emitDeclarationOnly: true },
    }),
  ],
});
await types.write({ dir: dist, format: 'es', entryFileNames: '[name].d.ts', chunkFileNames: '[name]-[hash].d.ts' });
await types.close();

for (const [target, source] of Object.entries(recipe.assets)) {
  const to = join(dist, target);
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(resolve(packageDir, source), to);
}
console.log(
  `${manifest.name}: dist/ built (${Object.keys(recipe.entries).join(', ')} + ${Object.keys(recipe.assets).join(', ')})`,
);
