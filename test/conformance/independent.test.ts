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
      expect(result.out).toMatch(/^stage boundaries: \d{3} passed, 0 failed in /m);
      expect(result.out).toMatch(/^(\d+) passed, 0 failed$/m);
    }
  }, 60_000);

  it('a vars file that leaves a fixture out (no thread whose closing fails): its checks are not exercised, never failed, and the summary names the key', async () => {
    // The deployment's own identifiers stand where no fixture is: 301 and 302 are threads it does not have.
    const lacking = join(dir, 'lacking.json');
    const { '301': _left, ...values } = independentVars.values;
    writeFileSync(lacking, JSON.stringify({ ...independentVars, values: { ...values, '302': null } }));
    const result = await conformanceInProcess(['--server', service.url, '--vars', lacking]);
    expect(result.code, result.out).toBe(0);
    expect(result.out).toMatch(
      /^ {2}not exercised: closeThreads example 200 notResolvedDueToSystemError \(the deployment lacks a fixture: values\["301"\] \(a thread whose closing fails with a system error\) in --vars would exercise it\)$/m,
    );
    expect(result.out).toMatch(/^ {2}not exercised: closeThreads example 200 mixed \(.*values\["302"\]/m);
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
