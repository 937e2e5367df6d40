// Builds the workspace package in the current directory into its dist/ (run by its `build` and
// `prepack` scripts): the code and the files it ships (bundle.ts), then rollup-plugin-dts bundles
// the types the same way.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import { projectRoot } from '../paths.ts';
import { bundleCode, packageSource } from './bundle.ts';

const source = packageSource(process.cwd());
const { recipe } = source;
const dist = join(source.dir, 'dist');

rmSync(dist, { recursive: true, force: true });
recipe.before?.();
await bundleCode(source, dist);

const types = await rollup({
  input: Object.fromEntries(recipe.typed.map((name) => [name, join(source.dir, recipe.entries[name]!)])),
  external: source.isExternal,
  plugins: [
    dts({
      tsconfig: join(projectRoot, 'tsconfig.json'),
      compilerOptions: { noEmit: false, declaration: true, emitDeclarationOnly: true },
    }),
  ],
});
await types.write({ dir: dist, format: 'es', entryFileNames: '[name].d.ts', chunkFileNames: '[name]-[hash].d.ts' });
await types.close();

console.log(
  `${source.name}: dist/ built (${Object.keys(recipe.entries).join(', ')} + ${Object.keys(recipe.assets).join(', ')})`,
);
