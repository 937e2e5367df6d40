// The sandbox README lists the default fixtures (between its fixtures markers) exactly as
// src/build/sandbox-readme.ts writes them from fixtures.json, so the list cannot drift from the
// file; and the list says what a user needs of each fixture. Starts no process (test:unit); the
// sandbox answering as the list says is test/sandbox/readme-claims.test.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  endMarker,
  fixturesSection,
  sandboxReadmePath,
  startMarker,
  withFixturesSection,
} from '../src/build/sandbox-readme.ts';
import { apiKeyHeader } from '../src/core/meta.ts';
import { contentKeyOf } from '../src/sandbox/channels.ts';
import { loadFixtures } from '../src/sandbox/fixtures.ts';

const readme = readFileSync(sandboxReadmePath, 'utf8');
const fixtures = loadFixtures();
const section = fixturesSection();
const row = (first: string | number) => section.split('\n').find((line) => line.startsWith(`| ${first} |`));

describe('src/sandbox/README.md lists the default fixtures', () => {
  it('as the generator writes them from fixtures.json (else: npm run build:generated)', () => {
    const start = readme.indexOf('<!-- fixtures:start');
    const end = readme.indexOf(endMarker);
    expect(start, 'the README has its fixtures markers').toBeGreaterThanOrEqual(0);
    expect(
      readme.slice(start, end + endMarker.length) === section,
      'the fixtures list in src/sandbox/README.md is stale: run "npm run build:generated"',
    ).toBe(true);
    expect(withFixturesSection(readme)).toBe(readme);
  });

  it('a list edited by hand, or one written for other fixtures, is told apart', () => {
    const edited = readme.replace('| 1001 |', '| 1009 |');
    expect(edited).not.toBe(readme);
    expect(withFixturesSection(edited)).toBe(readme);
    const other = fixturesSection({ ...fixtures, apiKeys: [{ key: 'k', balance: 5 }] });
    expect(other).not.toBe(section);
    expect(withFixturesSection(readme.replace(section, other))).toBe(readme);
    expect(() => withFixturesSection('# no markers\n')).toThrow(/markers/);
    expect(section.startsWith(startMarker) && section.endsWith(endMarker)).toBe(true);
  });

  it('every credential with its balance, and which account has none', () => {
    for (const { key, balance } of fixtures.apiKeys) {
      const line = row(`API key \`${key}\``);
      expect(line, key).toBeDefined();
      expect(line).toContain(`${apiKeyHeader}: ${key}`);
      if (balance > 0) expect(line).toContain(`| ${balance} |`);
      else expect(line).toMatch(/no balance\*\*, .* answers `out-of-balance`/);
    }
    for (const token of fixtures.integratorTokens)
      expect(row(`integrator token \`${token}\``)).toContain(`Authorization: Bearer ${token}`);
  });

  it('every cascade with its stages in order and the content each stage needs', () => {
    for (const cascade of fixtures.cascades) {
      const line = row(cascade.id)!;
      expect(line, String(cascade.id)).toBeDefined();
      const [, stages, content] = line.split(' | ');
      expect(stages).toBe(cascade.stages.map((s) => `${s.channel} (${s.subject}, ${s.subjectId})`).join(' → '));
      expect(content).toBe(cascade.stages.map((s) => `\`${contentKeyOf(s.channel)}\``).join(', '));
    }
    // The user's case: an attempt at out-of-balance on 1001 with SMS content alone.
    expect(section).toMatch(
      /checks the balance last.*Cascade 1001 with content `viberContent`, `smsContent` gets `out-of-balance`; cascade 1001 with `smsContent` alone gets `request-doesn’t-contain-content-for-all-cascade-stages`/,
    );
  });

  it('every thread with its state, and every subscriber', () => {
    const threadRows = section.split('\n').filter((line) => /^\| \d+(, \d+)* \| (open|closed) \|/.test(line));
    const listed = new Map(
      threadRows.flatMap((line) => {
        const [ids, state] = line.slice(2).split(' | ');
        return ids!.split(', ').map((id) => [Number(id), `${state} ${line}`] as const);
      }),
    );
    expect([...listed.keys()].sort()).toEqual(fixtures.threads.map((t) => t.id).sort());
    for (const thread of fixtures.threads) {
      const line = listed.get(thread.id)!;
      expect(line.startsWith(thread.state), String(thread.id)).toBe(true);
      if (thread.failOnClose) expect(line).toContain('not_resolved_due_to_system_error');
    }
    for (const subscriber of fixtures.subscribers) expect(section).toContain(`\`${subscriber}\``);
  });
});
