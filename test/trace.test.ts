// "No sentence without its check": the table of the description's rules (trace/rules.ts) held to the suite and the
// mutation lists. Every rule has a check and a break that proves it fails when the rule is broken, or says why it
// cannot be checked from outside, or names the open point it leaves; every name it gives must exist.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registered } from '../src/conformance/judge.ts';
import { callbacksStage } from '../src/conformance/stages/callbacks.ts';
import { runSuite, stages } from '../src/conformance/suite/suite.ts';
import { openPoints } from '../src/core/open-points.ts';
import { freePort } from '../src/util/wait.ts';
import { breaks as callbackBreaks } from './conformance/callbacks.ts';
import { mutations, strictMutations } from './conformance/mutations.ts';
import { credentials, listenSandbox } from './helpers/sandbox.ts';
import { outside, type Rule, rules } from './trace/rules.ts';

const stageNames = [...stages, callbacksStage].map((s) => s.name);
const strictBreaks = new Set(strictMutations.map(([name]) => name));
const breakNames = new Set([
  ...mutations.map(([name]) => name),
  ...strictBreaks,
  ...callbackBreaks.map(([name]) => name),
]);

const numbersAside = (name: string) => name.replace(/\d+/g, 'N');

/** `<stage>: <text>` for a stage's check, else undefined (a registry id). */
const staged = (check: string) => {
  const at = check.indexOf(': ');
  const stage = check.slice(0, at);
  return at > 0 && stageNames.includes(stage) ? { stage, text: check.slice(at + 2) } : undefined;
};

/** The names of the checks every stage plans, by stage: one strict run (decisions included) with callbacks. */
let planned = new Map<string, string[]>();
beforeAll(async () => {
  const port = await freePort();
  const sandbox = await listenSandbox({ callbackUrl: `http://127.0.0.1:${port}/`, callbackRetryDelaysMs: [100] });
  try {
    const callbacks = { host: '127.0.0.1', port, windowMs: 1_500 };
    const options = { server: sandbox.url, credentials, values: {}, seed: 1, mock: false, profile: 'strict' as const };
    const report = await runSuite({ ...options, log: () => {}, callbacks }, [...stages, callbacksStage]);
    planned = new Map(stageNames.map((s) => [s, report.results.filter((r) => r.stage === s).map((r) => r.name)]));
  } finally {
    await sandbox.close();
  }
}, 60_000);

/** Backticks removed, whitespace collapsed: the markdown and a quote of it read alike. */
const normal = (text: string) => text.replace(/`/g, '').replace(/\s+/g, ' ').trim();
const description = normal(readFileSync(new URL('../openapi/sources/service-interface.md', import.meta.url), 'utf8'));

/** What is wrong with an entry's words: no quote, an unpaired quote mark, or a quote the description does not hold. */
function misquoted(words: string): string | undefined {
  if ((words.match(/"/g) ?? []).length % 2 !== 0) return 'an unpaired "';
  const quotes = [...words.matchAll(/"([^"]*)"/g)].map((m) => normal(m[1]!));
  if (quotes.length === 0) return 'no quote';
  const missing = quotes.filter((q) => !q || !description.includes(q));
  return missing.length ? `not in the description: ${missing.map((q) => JSON.stringify(q)).join(', ')}` : undefined;
}

type Kind = 'checked' | 'no break' | 'no check' | 'unobservable' | 'open';
const kindOf = (r: Rule): Kind =>
  r.open !== undefined
    ? 'open'
    : r.unobservable !== undefined
      ? 'unobservable'
      : r.missingCheck
        ? 'no check'
        : r.missingBreak
          ? 'no break'
          : 'checked';

describe('the rules of the description', () => {
  it('each has its checks and breaks, or says why not', () => {
    const wrong = rules.flatMap((r) => {
      const checks = r.checks ?? [];
      const broken = r.breaks ?? [];
      const ok = {
        checked: checks.length > 0 && broken.length > 0 && !r.idea,
        // Not yet: a rule with a check and no break, or no check at all, fails here.
        'no break': false,
        'no check': false,
        unobservable: checks.length === 0 && broken.length === 0 && !!r.unobservable?.trim(),
        // An open point's checks accept each answer; a break there breaks the gap's filling, not the description.
        open: !!r.open?.trim() && (broken.length === 0 || checks.length > 0),
      }[kindOf(r)];
      const marks = [r.open, r.unobservable, r.missingCheck, r.missingBreak].filter((m) => m !== undefined);
      // A rule only this contract's decisions check is proven by the breaks strict runs (the mutation test's strict list).
      const strictProven = !r.strictOnly || broken.every((b) => strictBreaks.has(b));
      return ok && marks.length <= 1 && strictProven ? [] : [r.id];
    });
    expect(wrong).toEqual([]);
  });

  it('ids are unique, and each entry gives its section and words', () => {
    const ids = rules.map((r) => r.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(rules.filter((r) => !/^\d(\.\d)?(, \d(\.\d)?)*$/.test(r.section) || !r.words.trim())).toEqual([]);
  });

  it("each entry's words quote the description as written (a misquote fails)", () => {
    expect(rules.flatMap((r) => (misquoted(r.words) ? [`${r.id}: ${misquoted(r.words)}`] : []))).toEqual([]);
    expect(misquoted('Section 4.1: "At most 301 characters."')).toMatch(/not in the description/);
    expect(misquoted('Rule 2: every identifier is reported')).toBe('no quote');
    expect(misquoted('"Success: HTTP 200." and "an open')).toMatch(/unpaired/);
    expect(misquoted('4.1: "Response:   HTTP 200, Content-Type: application/json."')).toBeUndefined();
  });

  it('every check named is a registry check or one a stage plans', () => {
    const ids = new Set(registered().map((c) => c.id));
    const missing = rules.flatMap((r) =>
      (r.checks ?? []).flatMap((check) => {
        const s = staged(check);
        // Numbers aside: a limit the document departs from on purpose (x-departures) names its check by its own value.
        const found = s
          ? (planned.get(s.stage) ?? []).some((name) => numbersAside(name).includes(numbersAside(s.text)))
          : ids.has(check);
        return found ? [] : [`${r.id}: ${check}`];
      }),
    );
    expect(missing).toEqual([]);
  });

  it('every break named is one of the mutation lists', () => {
    const named = [
      ...rules.flatMap((r) => (r.breaks ?? []).map((b) => [r.id, b])),
      ...Object.keys(outside).map((b) => ['outside', b]),
    ];
    expect(named.filter(([, b]) => !breakNames.has(b!))).toEqual([]);
    // Every break is traced: to the rules it breaks, or to why it breaks none of the description's.
    const traced = new Set([...rules.flatMap((r) => r.breaks ?? []), ...Object.keys(outside)]);
    expect([...breakNames].filter((b) => !traced.has(b))).toEqual([]);
    // A break outside the description breaks no rule of it.
    expect(rules.filter((r) => r.breaks?.some((b) => Object.hasOwn(outside, b))).map((r) => r.id)).toEqual([]);
  });

  it('every open point named is one of the document, or "not shown"', () => {
    const known = openPoints();
    const unknown = rules.filter((r) => r.open !== undefined && r.open !== 'not shown' && !known.has(r.open));
    expect(unknown.map((r) => `${r.id}: ${r.open}`)).toEqual([]);
  });
});

afterAll(() => {
  const of = (kind: Kind) => rules.filter((r) => kindOf(r) === kind);
  const list = (title: string, entries: Rule[], line: (r: Rule) => string) =>
    entries.length
      ? [`${title} (${entries.length}):`, ...entries.map((r) => `  ${r.id} (${r.section}): ${line(r)}`)]
      : [];
  const named = new Set(rules.flatMap((r) => r.breaks ?? []));
  console.log(
    [
      `rules of the description: ${rules.length}; checked with a break ${of('checked').length}, checked without a break ${of('no break').length}, observable but unchecked ${of('no check').length}, cannot be checked ${of('unobservable').length}, open ${of('open').length}`,
      ...list('missingBreak', of('no break'), (r) => `${r.strictOnly ? '[strict only] ' : ''}${r.idea}`),
      ...list('missingCheck', of('no check'), (r) => r.idea!),
      ...list('unobservable', of('unobservable'), (r) => r.unobservable!),
      `breaks outside the description: ${Object.keys(outside).join('; ')}`,
      `breaks no rule names yet: ${[...breakNames].filter((b) => !named.has(b) && !Object.hasOwn(outside, b)).join('; ') || 'none'}`,
    ].join('\n'),
  );
});
