// A fixtures file is laid over the bundled fixtures: it adds what it holds, replaces an entry by its
// key, id or name, and leaves every other section as the defaults have it; "defaults": false starts
// from nothing. The bin's --help names the default credentials and the control API.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadFixtures } from '../../src/sandbox/fixtures.ts';
import { projectRoot } from '../../src/paths.ts';

const dir = mkdtempSync(join(tmpdir(), 'mc-fixtures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (text: string) => {
  const path = join(dir, `f${n++}.json`);
  writeFileSync(path, text);
  return path;
};
const defaults = loadFixtures();

describe('a fixtures file', () => {
  it('adds to the defaults; a section it leaves out keeps the default', () => {
    const laid = loadFixtures(
      file('{"apiKeys":[{"key":"my-ci-key","balance":50}],"threads":[{"id":7001,"state":"open"}],"tags":["mine"]}'),
    );
    expect(laid.apiKeys).toEqual([{ key: 'my-ci-key', balance: 50 }, ...defaults.apiKeys]);
    expect(laid.threads.map((t) => t.id)).toEqual([7001, ...defaults.threads.map((t) => t.id)]);
    expect(laid.tags).toEqual(['mine', ...defaults.tags]);
    expect(laid.integratorTokens).toEqual(defaults.integratorTokens);
    expect(laid.cascades).toEqual(defaults.cascades);
    expect(laid.delivery).toEqual(defaults.delivery);
  });

  it('replaces an entry with the key, id or name of a default one, and merges an object key by key', () => {
    const first = defaults.threads[0]!;
    const laid = loadFixtures(
      file(
        JSON.stringify({
          threads: [{ id: first.id, state: 'closed' }],
          apiKeys: [{ key: defaults.apiKeys[0]!.key, balance: 0 }],
          delivery: { maxTextLength: { SMS: 10 } },
        }),
      ),
    );
    expect(laid.threads.filter((t) => t.id === first.id)).toEqual([{ id: first.id, state: 'closed' }]);
    expect(laid.threads).toHaveLength(defaults.threads.length);
    expect(laid.apiKeys.find((k) => k.key === defaults.apiKeys[0]!.key)?.balance).toBe(0);
    expect(laid.delivery.maxTextLength).toEqual({ ...defaults.delivery.maxTextLength, SMS: 10 });
    expect(laid.delivery.phonePattern).toBe(defaults.delivery.phonePattern);
  });

  it('"defaults": false starts from nothing, so every section must be there', () => {
    expect(() => loadFixtures(file('{"defaults":false,"apiKeys":[]}'))).toThrow(
      /must have required property 'integratorTokens'|integratorTokens/,
    );
    const whole = { ...defaults, threads: [{ id: 1, state: 'open' }] };
    expect(loadFixtures(file(JSON.stringify({ defaults: false, ...whole }))).threads).toEqual([
      { id: 1, state: 'open' },
    ]);
  });

  it('a bad file fails naming the file and the field, at its own position; nothing else is taken', () => {
    const path = file('{"apiKeys":[{"key":"k","balance":"lots"}]}');
    expect(() => loadFixtures(path)).toThrow(`fixtures ${path} are not valid`);
    expect(() => loadFixtures(path)).toThrow(/apiKeys\[0\]\.balance|apiKeys\/0\/balance/);
    expect(() => loadFixtures(file('{"defaults":true}'))).toThrow('defaults: expected false');
    expect(() => loadFixtures(file('[]'))).toThrow('expected an object of fixture sections');
    // A key that would be a prototype elsewhere is an unknown section here, and Object stays as it was.
    expect(() => loadFixtures(file('{"__proto__":{"polluted":true}}'))).toThrow(/not valid/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // An id JSON.parse would round is refused, naming it: never kept a digit off.
    expect(() => loadFixtures(file('{"threads":[{"id":9007199254740993,"state":"open"}]}'))).toThrow(
      'threads[0].id: an integer past 2^53 - 1',
    );
  });
});

describe('messaging-sandbox --help', () => {
  it('names the default credentials and the control API', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/sandbox/cli.ts', '--help'],
      {
        cwd: projectRoot,
      },
    );
    for (const { key } of defaults.apiKeys) expect(stdout).toContain(`x-api-key: ${key}`);
    expect(stdout).toContain(`Authorization: Bearer ${defaults.integratorTokens[0]}`);
    for (const path of ['/_sandbox/state', '/_sandbox/callbacks', '/_sandbox/clock', '/_sandbox/reset'])
      expect(stdout).toContain(path);
  });
});
