// The trace from a check to the description's words (core/words.ts, `x-words` in the document): every quote is the
// description's (or the public docs') as written, and every check the default profile holds that rests on the
// description names its words.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordedCase, registered } from '../src/conformance/judge.ts';
import { readTraffic } from '../src/conformance/traffic/readers/index.ts';
import { route } from '../src/conformance/document/route.ts';
import { describe, expect, it } from 'vitest';
import { openapi } from '../src/core/document.ts';
import { basisWords } from '../src/core/words.ts';
import { runSuite, stages } from '../src/conformance/suite/suite.ts';
import { callbacksStage } from '../src/conformance/stages/callbacks.ts';
import { freePort } from '../src/util/wait.ts';
import { credentials, listenSandbox } from './helpers/sandbox.ts';

const normal = (text: string) => text.replace(/`/g, '').replace(/\s+/g, ' ').trim();
const sources = {
  Section: normal(readFileSync(new URL('../openapi/sources/service-interface.md', import.meta.url), 'utf8')),
  '[public docs]': normal(readFileSync(new URL('../openapi/sources/public-facts.md', import.meta.url), 'utf8')),
};

/** What is wrong with one entry of words: its form, or a quote its source does not hold. */
function misquoted(words: string): string | undefined {
  const source = words.startsWith('Section ')
    ? sources.Section
    : words.startsWith('[public docs]')
      ? sources['[public docs]']
      : undefined;
  if (!source && !/^RFC \d+, section [\d.]+: "/.test(words))
    return 'expected "Section N: ...", "[public docs] ..." or "RFC N, section N: ..."';
  const quotes = [...words.matchAll(/"([^"]+)"/g)].map((m) => normal(m[1]!));
  if (quotes.length === 0) return 'no quote';
  const missing = source ? quotes.filter((q) => !source.includes(q)) : [];
  return missing.length ? `not in the source: ${missing.map((m) => JSON.stringify(m)).join(', ')}` : undefined;
}

/** Every `x-words` list of the document, by pointer. */
function allWords(node: unknown, at = '#'): Array<[string, string]> {
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) =>
    k === 'x-words' && Array.isArray(v) ? v.map((w): [string, string] => [at, String(w)]) : allWords(v, `${at}/${k}`),
  );
}

describe('the trace from a check to the description', () => {
  it('every x-words entry quotes its source as written (a misquote fails)', () => {
    const words = allWords(openapi);
    expect(words.length).toBeGreaterThan(40);
    expect(words.flatMap(([at, w]) => (misquoted(w) ? [`${at}: ${w}: ${misquoted(w)}`] : []))).toEqual([]);
    expect(misquoted('Section 4.1: "At most 301 characters."')).toMatch(/not in the source/);
    expect(misquoted('the description says so')).toMatch(/expected/);
  });

  it('every check of the default profile that rests on the description names its words', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'words-'));
    const port = await freePort();
    const sandbox = await listenSandbox({ callbackUrl: `http://127.0.0.1:${port}/`, callbackRetryDelaysMs: [100] });
    try {
      const callbacks = { host: '127.0.0.1', port, windowMs: 3_000 };
      const record = join(dir, 'run.ndjson');
      const context = {
        server: sandbox.url,
        credentials,
        values: {},
        seed: 1,
        mock: false,
        log: () => {},
        callbacks,
        record,
      };
      const report = await runSuite(context, [...stages, callbacksStage]);
      expect(report.results.some((r) => r.stage === 'callbacks')).toBe(true);
      const described = report.results.filter((r) => r.kind === 'described');
      expect(described.length).toBeGreaterThan(100);
      const unsaid = described.filter((r) => !r.words?.length).map((r) => `${r.stage}: ${r.name} (basis ${r.basis})`);
      expect(unsaid).toEqual([]);
      // A limit's check quotes its own field's words, not those of the whole request.
      const title = described.find((r) => /past the limit, .*listPicker.*title: 25 code points/.test(r.name))!;
      expect(title.words).toEqual([expect.stringContaining('at most 24 characters each, spaces included')]);
      // The same run judged again as recorded traffic: each expectation of the description, and each rule over time, has
      // words too.
      // (A passing recording has no verdicts to show: the expectation each exchange is judged by is what is held.)
      const unsaidRecorded: string[] = [];
      let exchanges = 0;
      for await (const x of readTraffic(record)) {
        const routed = route(x.request);
        if (routed.outside || !routed.atPath || !x.response) continue;
        exchanges++;
        const { expectation } = recordedCase(routed, 'described');
        if (expectation.kind === 'described' && !basisWords(expectation.basis).length)
          unsaidRecorded.push(`${x.source}: ${expectation.basis}`);
      }
      expect(exchanges).toBeGreaterThan(200);
      expect([...new Set(unsaidRecorded)]).toEqual([]);
      const rules = registered().filter((c) => c.family === 'over-time' && c.kind === 'described');
      expect(rules.filter((c) => !basisWords((c as { basis: string }).basis).length).map((c) => c.id)).toEqual([]);
      // The words are those of the basis' nodes: one without any resolves to none.
      expect(basisWords('#/servers/0')).toEqual([]);
    } finally {
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
