// "No sentence without its check": the table of the description's rules (trace/rules.ts) held to the suite and the
// mutation lists. Every name it gives must exist, so a renamed check or break fails here; the rules that have no check
// or no break yet are listed, not failed (the lead adds them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registered } from '../src/conformance/judge.ts';
import { callbacksStage } from '../src/conformance/stages/callbacks.ts';
import { runSuite, stages } from '../src/conformance/suite/suite.ts';
import { openPoints } from '../src/core/open-points.ts';
import { freePort } from '../src/util/wait.ts';
import { breaks as callbackBreaks } from './conformance/callbacks.ts';
import { mutations } from './conformance/mutations.ts';
import { credentials, listenSandbox } from './helpers/sandbox.ts';
import { outside, type Rule, rules } from './trace/rules.ts';

const stageNames = [...stages, callbacksStage].map((s) => s.name);
const breakNames = new Set([...mutations.map(([name]) => name), ...callbackBreaks.map(([name]) => name)]);

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
        'no break': checks.length > 0 && broken.length === 0 && !!r.idea?.trim(),
        'no check': checks.length === 0 && broken.length === 0 && !!r.idea?.trim(),
        unobservable: checks.length === 0 && broken.length === 0 && !!r.unobservable?.trim(),
        // An open point's checks accept each answer; a break there breaks the gap's filling, not the description.
        open: !!r.open?.trim() && (broken.length === 0 || checks.length > 0),
      }[kindOf(r)];
      const marks = [r.open, r.unobservable, r.missingCheck, r.missingBreak].filter((m) => m !== undefined);
      return ok && marks.length <= 1 && (!r.strictOnly || r.missingBreak) ? [] : [r.id];
    });
    expect(wrong).toEqual([]);
  });

  it('ids are unique, and each entry gives its section and words', () => {
    const ids = rules.map((r) => r.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(rules.filter((r) => !/^\d(\.\d)?(, \d(\.\d)?)*$/.test(r.section) || !r.words.trim())).toEqual([]);
  });

  it('every check named is a registry check or one a stage plans', () => {
    const ids = new Set(registered().map((c) => c.id));
    const missing = rules.flatMap((r) =>
      (r.checks ?? []).flatMap((check) => {
        const s = staged(check);
        const found = s ? (planned.get(s.stage) ?? []).some((name) => name.includes(s.text)) : ids.has(check);
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
