// The packages' types gate on declaration files written for the purpose: a temporary repository
// with one workspace package, the API of its last release recorded, and its dist/ changed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareApi, recordApi } from '../../src/diff/api.ts';

const repo = mkdtempSync(join(tmpdir(), 'mc-api-'));
afterAll(() => rmSync(repo, { recursive: true, force: true }));
const write = (file: string, text: string) => {
  mkdirSync(dirname(join(repo, file)), { recursive: true });
  writeFileSync(join(repo, file), text);
};
const manifest = (exports: Record<string, string>) =>
  write(
    'pkg/package.json',
    JSON.stringify({
      name: '@scope/pkg',
      exports: Object.fromEntries(Object.entries(exports).map(([k, v]) => [k, { types: v, default: v }])),
    }),
  );
write('package.json', JSON.stringify({ workspaces: ['pkg'] }));

const released = `export interface Result { ids: number[] }
export declare function list(query: { limit: number }): Promise<Result>;
export declare const version: string;
export type Code = 'a' | 'b';
export declare function is(code: Code): boolean;
`;

/** The breaks of `now` (dist/index.d.ts, and dist/extra.d.ts as ./extra) against the release recorded from `released`. */
function breaksOf(now: string, exports: Record<string, string> = { '.': './dist/index.d.ts' }) {
  manifest({ '.': './dist/index.d.ts', './extra': './dist/extra.d.ts' });
  write('pkg/dist/index.d.ts', released);
  write('pkg/dist/extra.d.ts', 'export declare const extra: number;\n');
  recordApi(repo, '1.0.0');
  manifest(exports);
  write('pkg/dist/index.d.ts', now);
  return compareApi(repo, '1.0.0')?.map((b) => `${b.what}: ${b.sentence}`);
}

describe("the packages' types gate", () => {
  it('an optional parameter, an optional result field, a new export and a code taken from more: nothing breaks', () => {
    expect(
      breaksOf(
        released
          .replace('{ limit: number }', '{ limit: number; offset?: number }')
          .replace('ids: number[]', 'ids: number[]; next?: string')
          .replace("'a' | 'b'", "'a' | 'b' | 'c'")
          .concat('export declare function added(): void;\n'),
        { '.': './dist/index.d.ts', './extra': './dist/extra.d.ts' },
      ),
    ).toEqual([]);
  }, 30_000);

  it('a result widened, a parameter narrowed, an export removed and a subpath dropped each break, named', () => {
    const found = breaksOf(
      released
        .replace('ids: number[]', 'ids: Array<number | bigint>')
        .replace('is(code: Code)', "is(code: 'a')")
        .replace('export declare const version: string;\n', ''),
    );
    expect(found).toEqual([
      '@scope/pkg/extra: no longer exported: every import of it breaks',
      '@scope/pkg: version: removed: every import of it breaks',
      "@scope/pkg: list: no longer fits where code written for the last release holds it (Type 'bigint' is not assignable to type 'number'.)",
      expect.stringMatching(
        /^@scope\/pkg: is: no longer fits where code written for the last release holds it \(.*'"b"' is not assignable to type '"a"'/,
      ),
    ]);
  }, 30_000);

  it('no API recorded for the base: nothing to compare, said as undefined', () => {
    expect(compareApi(repo, '0.9.0')).toBeUndefined();
  });
});
