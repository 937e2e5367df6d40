// The known third-party banners and warnings (src/build/quiet.ts) are dropped exactly, and nothing else
// is: the banners as Redocly CLI 2.77 writes them (captured on Node 20), other boxes, errors. The npm
// scripts that run Redocly CLI go through the filter. Starts no process (test:unit); the commands
// themselves run in test/quiet-commands.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BannerFilter,
  isKnownWarning,
  knownBanners,
  knownWarnings,
  QUIET_ENV,
  withoutBanners,
  withoutKnownWarnings,
} from '../src/build/quiet.ts';
import { projectRoot } from '../src/paths.ts';

const node20Banner = [
  '',
  '    ╔═════════════════════════════════════════════════════════════════╗',
  '    ║                                                                 ║',
  '    ║  Deprecation warning: Node.js 20 support is ending              ║',
  '    ║                                                                 ║',
  '    ║  Node.js 20 reached end-of-life on April 30, 2026.              ║',
  '    ║  Future Redocly CLI releases require Node.js 22.12.0 or later.  ║',
  '    ║  You are using Node.js v20.20.2.                                ║',
  '    ║                                                                 ║',
  '    ║  Update Node.js: https://nodejs.org/en/download                 ║',
  '    ║                                                                 ║',
  '    ╚═════════════════════════════════════════════════════════════════╝',
  '',
  '',
].join('\n');

const redoc3Banner = [
  '',
  '    ╔════════════════════════════════════════════════════════════════════════════╗',
  '    ║                                                                            ║',
  '    ║  build-docs now renders docs with Redoc 3.                                 ║',
  '    ║  Theme options and custom templates may need updates.                      ║',
  '    ║  To keep the Redoc 2 output: npx @redocly/cli@v1-archive build-docs <api>  ║',
  '    ║  Learn more: https://redocly.com/redoc-ce                                  ║',
  '    ║                                                                            ║',
  '    ╚════════════════════════════════════════════════════════════════════════════╝',
  '',
  '',
].join('\n');

// The same banner with FORCE_COLOR=1, as written to a terminal.
const node20BannerInColour =
  '\n    \u001b[33m╔═════════════════════════════════════════════════════════════════╗\u001b[39m\n    \u001b[33m║                                                                 ║\u001b[39m\n    \u001b[33m║\u001b[39m  \u001b[1m\u001b[33mDeprecation warning: Node.js 20 support is ending\u001b[39m\u001b[22m              \u001b[33m║\u001b[39m\n    \u001b[33m║\u001b[39m                                                                 \u001b[33m║\u001b[39m\n    \u001b[33m║\u001b[39m  Node.js 20 reached end-of-life on April 30, 2026.              \u001b[33m║\u001b[39m\n    \u001b[33m║\u001b[39m  Future Redocly CLI releases require Node.js 22.12.0 or later.  \u001b[33m║\u001b[39m\n    \u001b[33m║\u001b[39m  You are using Node.js v20.20.2.                                \u001b[33m║\u001b[39m\n    \u001b[33m║\u001b[39m                                                                 \u001b[33m║\u001b[39m\n    \u001b[33m║\u001b[39m  Update Node.js: \u001b[36mhttps://nodejs.org/en/download\u001b[39m                 \u001b[33m║\u001b[39m\n    \u001b[33m║                                                                 ║\u001b[39m\n    \u001b[33m╚═════════════════════════════════════════════════════════════════╝\u001b[39m\n\n';

const unknownBox = [
  '',
  '    ╔═════════════════════════════════════════════════════╗',
  '    ║                                                     ║',
  '    ║  A new version of Redocly CLI (9.9.9) is available.  ║',
  '    ║                                                     ║',
  '    ╚═════════════════════════════════════════════════════╝',
  '',
  '',
].join('\n');

/** The text fed in pieces of `size` characters. */
function inPieces(text: string, size: number): string {
  const filter = new BannerFilter();
  let out = '';
  for (let i = 0; i < text.length; i += size) out += filter.write(text.slice(i, i + size));
  return out + filter.end();
}

describe('the banner filter', () => {
  it("drops Redocly's Node 20 banner and the empty lines around it, and nothing else", () => {
    const stderr = `${node20Banner}bundling openapi/openapi.yaml...\n📦 Created a bundle for openapi/openapi.yaml at generated/openapi.json 81ms.\n`;
    expect(withoutBanners(stderr)).toBe(
      'bundling openapi/openapi.yaml...\n📦 Created a bundle for openapi/openapi.yaml at generated/openapi.json 81ms.\n',
    );
  });

  it('drops both banners of build-docs on Node 20 and keeps its own empty lines', () => {
    const stderr = `${node20Banner}${redoc3Banner}Found redocly.yaml and using 'openapi' options\nPrerendering docs\n\n🎉 bundled successfully\n`;
    expect(withoutBanners(stderr)).toBe(
      "Found redocly.yaml and using 'openapi' options\nPrerendering docs\n\n🎉 bundled successfully\n",
    );
  });

  it('drops the banner in colour, and the same whatever the pieces the text arrives in', () => {
    expect(withoutBanners(`${node20BannerInColour}\u001b[90mbundling...\n`)).toBe('\u001b[90mbundling...\n');
    const stderr = `before\n${node20Banner}${redoc3Banner}after\n\n`;
    for (const size of [1, 3, 7, 64, 4096])
      expect(inPieces(stderr, size), `pieces of ${size}`).toBe('before\nafter\n\n');
  });

  it('keeps an unknown box, an error, and a box left open, as they were', () => {
    const error =
      '\n[1] openapi.json:12:5 at #/paths\n\nProperty `x` is not expected here.\n\n❌ Validation failed with 1 error.\n';
    expect(withoutBanners(unknownBox + error)).toBe(unknownBox + error);
    const open = 'text\n\n    ╔══════╗\n    ║  Deprecation warning: Node.js 20 support is ending  ║\n';
    expect(withoutBanners(open)).toBe(open);
    // A known headline in a box the filter is not told of stays.
    expect(withoutBanners(node20Banner, [])).toBe(node20Banner);
  });
});

describe('the known texts are those of the installed tools', () => {
  const redoclyLib = join(projectRoot, 'node_modules/@redocly/cli/lib');
  const source = readdirSync(redoclyLib, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js') && !file.endsWith('redoc.standalone.js'))
    .map((file) => readFileSync(join(redoclyLib, file), 'utf8'))
    .join('\n');

  it.for(knownBanners.map((b) => [b.headline, b] as const))('Redocly CLI writes "%s"', ([headline]) => {
    expect(source.includes(headline), 'a banner the tool no longer writes: take it off the list').toBe(true);
  });

  it('Redocly CLI reads the switches QUIET_ENV sets (a switch is used wherever there is one)', () => {
    for (const name of Object.keys(QUIET_ENV)) expect(source, name).toContain(name);
  });
});

describe('known warnings as a library loads', () => {
  const padLevels = knownWarnings.find((w) => w.message?.includes('padLevels'))!.message!;

  it('recognises each by the arguments Node passes to process.emitWarning', () => {
    expect(isKnownWarning(padLevels)).toBe(true);
    expect(isKnownWarning('The `util._extend` API is deprecated.', 'DeprecationWarning', 'DEP0060', () => {})).toBe(
      true,
    );
    expect(isKnownWarning('deprecated', { type: 'DeprecationWarning', code: 'DEP0060' })).toBe(true);
    expect(isKnownWarning("Accessing non-existent property 'other' of module exports inside circular dependency")).toBe(
      false,
    );
    expect(isKnownWarning('The `util.isArray` API is deprecated.', 'DeprecationWarning', 'DEP0044')).toBe(false);
  });

  it('withoutKnownWarnings drops them while the library loads, and passes any other on', async () => {
    const seen: string[] = [];
    const listener = (warning: Error) => seen.push(warning.message);
    // Node's own listener, which prints them, is off meanwhile: the test's warnings are not printed either.
    const printers = process.listeners('warning');
    process.removeAllListeners('warning');
    process.on('warning', listener);
    try {
      const value = withoutKnownWarnings(() => {
        process.emitWarning(padLevels);
        process.emitWarning('util._extend', 'DeprecationWarning', 'DEP0060');
        process.emitWarning('a warning of another library');
        return 42;
      });
      expect(value).toBe(42);
      expect(() =>
        withoutKnownWarnings(() => {
          throw new Error('the load failed');
        }),
      ).toThrow('the load failed');
      // After the load, the same warning is printed again.
      process.emitWarning(padLevels);
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen).toEqual(['a warning of another library', padLevels]);
    } finally {
      process.off('warning', listener);
      for (const printer of printers) process.on('warning', printer);
    }
  });
});

describe('the npm scripts run Redocly CLI through the filter', () => {
  const scripts = (
    JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  const quiet = 'node --import tsx src/build/quiet.ts ';
  const commands = Object.entries(scripts).flatMap(([name, line]) =>
    line.split(/&&|\|\||;/).map((command) => [name, command.trim()] as const),
  );

  it('every redocly command of a script', () => {
    const redocly = commands.filter(([, command]) => /(^|\s)redocly\s/.test(command));
    expect(redocly.length).toBeGreaterThanOrEqual(2);
    for (const [name, command] of redocly)
      expect(command, `npm run ${name}`).toMatch(/^node --import tsx src\/build\/quiet\.ts redocly /);
  });

  it('the docs build (Redocly build-docs), alone and in the packages build', () => {
    expect(scripts['build:docs']).toBe(`${quiet}tsx src/docs/build.ts`);
    expect(scripts['build:packages']).toBe(`${quiet}npm run build --workspaces`);
  });
});
