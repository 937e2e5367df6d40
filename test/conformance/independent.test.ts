// The suite against an implementation that shares no code with the sandbox (test/independent),
// as a service team runs it: the CLI, a vars file, no reset hook, twice in a row against the same
// running service. Where the implementation chose differently from the contract's decisions, the
// default profile passes and strict fails on decisions only.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceInProcess } from '../helpers/conformance-cli.ts';
import { startIndependent } from '../independent/server.ts';
import { independentVars } from '../independent/vars.ts';

const dir = mkdtempSync(join(tmpdir(), 'mc-independent-'));
const vars = join(dir, 'vars.json');
let service: Awaited<ReturnType<typeof startIndependent>>;
beforeAll(async () => {
  writeFileSync(vars, JSON.stringify(independentVars));
  service = await startIndependent();
});
afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => conformanceInProcess(['--server', service.url, '--vars', vars, ...args]);

describe('the independent implementation', () => {
  it('passes the default profile twice in a row, with no reset, every stage run', async () => {
    for (let run = 1; run <= 2; run++) {
      const result = await cli();
      expect(result.code, `run ${run}\n${result.out}`).toBe(0);
      expect(result.out).toMatch(/^boundaries +\d{3} /m);
      expect(result.out).toMatch(/^(\d+) passed, 0 failed$/m);
    }
  }, 60_000);

  it("fails strict on the contract's decisions only, each failure marked a decision", async () => {
    const output = join(dir, 'strict.json');
    const result = await cli('--profile', 'strict', '--reporter', 'json', '--output', output);
    expect(result.code, result.out).toBe(1);
    const failed = JSON.parse(readFileSync(output, 'utf8')).results.filter((r: { ok: boolean }) => !r.ok);
    expect(failed.length).toBeGreaterThan(10);
    expect(failed.filter((r: { kind: string }) => r.kind !== 'decision')).toEqual([]);
  }, 60_000);
});
