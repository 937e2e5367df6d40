// The registry of checks (src/conformance/judge.ts dispatches it): every answer of every stage is judged by the
// checks that concern it, a root cause stops the checks that come after it, a new check is one
// entry, and a part of an answer this contract decides is held as a decision, never hiding the rest.
import { afterEach, describe, expect, it } from 'vitest';
import type { Case } from '../../src/conformance/ground/model.ts';
import { caseOutcome, judgeAnswer, register, registered, verdict as verdictOf } from '../../src/conformance/judge.ts';
import type { Answer, PointCheck, Profile } from '../../src/conformance/ground/model.ts';
import { pairExpectation } from '../../src/conformance/document/expectations.ts';
import { pairCase, pairRequest } from '../../src/conformance/document/pairs.ts';
import { causes } from '../../src/conformance/report.ts';
import { runSuite, stages, suiteContext } from '../../src/conformance/suite/suite.ts';
import { parseAnswer } from '../../src/conformance/ground/transport.ts';
import { examplePair } from '../../src/core/examples.ts';
import { startMutatingProxy } from '../helpers/mutating-proxy.ts';
import { credentials, useSandbox } from '../helpers/sandbox.ts';

const sandbox = useSandbox();
const judge = (c: Case, a: Answer) => judgeAnswer(c, a, 'strict');
/** The verdict on a case's answer, as a stage's check gets it. */
const verdict = (c: Case, a: Answer, profile: Profile) =>
  verdictOf({ stage: 'test', name: 'test', kind: c.expectation.kind }, caseOutcome(c, { answer: a }, profile), profile);
const json = (status: number, body: unknown, type = 'application/json') =>
  parseAnswer(status, type, JSON.stringify(body));

const scheduled = examplePair('scheduleCascade', 'scheduled');
const notFound = examplePair('scheduleCascade', 'cascadeNotFound');
const caseOf = (pair: typeof scheduled, profile: 'described' | 'strict' = 'strict'): Case =>
  pairCase(pair, pairRequest('http://x', pair, credentials), pairExpectation(pair, profile));

describe('judge', () => {
  it('names the root cause only: a body that is not JSON has no schema, content type or code to miss', () => {
    expect(judge(caseOf(notFound), parseAnswer(400, 'text/html', '<html>')).map((f) => f.check)).toEqual(['json']);
    // A wrong status: the code and the problem body are not read.
    expect(judge(caseOf(notFound), json(200, { requestId: 'x' })).map((f) => [f.check, f.fault])).toEqual([
      ['status', 'accepts a request the document refuses: answered 200'],
    ]);
  });

  it('violations run together without their semicolon fail; one violation with two bracket groups does not', () => {
    const pair = examplePair('scheduleCascade', 'cascadeRequestNotValid');
    const c = caseOf(pair, 'described');
    const detail = String((pair.response as { detail: string }).detail);
    const separated = (text: string) =>
      judgeAnswer(
        c,
        json(400, { title: 'cascade-scheduling-request-not-valid', status: 400, detail: text }),
        'described',
      )
        .filter((f) => f.check === 'violations-separated')
        .map((f) => f.fault);
    expect(separated(detail)).toEqual([]);
    expect(separated(detail.replace(/\]; /g, '] '))).toEqual(['violations not separated by semicolons']);
    // A sentence of the service's own with two groups is one violation, not two run together.
    const oneWithTwo = detail.replace(/(\[cascadeTemplateId:1,001;contentChannelType:WHATSAPP\])/, 'with [note:x] $1');
    expect(oneWithTwo).not.toBe(detail);
    expect(separated(oneWithTwo)).toEqual([]);
  });

  it('reads any JSON an error may hold without throwing: null, a list, a detail that is no string', () => {
    for (const body of [
      null,
      [1, 2],
      'text',
      { title: 'cascade-scheduling-request-not-valid', status: 400, detail: 7 },
    ])
      expect(
        judge(caseOf(examplePair('scheduleCascade', 'cascadeRequestNotValid')), json(400, body)).length,
      ).toBeGreaterThan(0);
  });

  it('groups a schema fault by the rule of the document it breaks, whatever the field', () => {
    const [fault] = judge(caseOf(notFound), json(400, { title: 'cascade-not-found' }));
    expect(fault).toMatchObject({ check: 'problem', key: '#/components/schemas/Problem/required/status' });
    // The same rule broken in two lists of one answer: one fault, named by the rule.
    const mixed = examplePair('closeThreads', 'mixed');
    const body = { ...(mixed.response as object), resolved_threads: ['101'], not_existing_threads: ['999'] };
    expect(judge(caseOf(mixed), json(200, body)).map((f) => [f.check, f.key])).toEqual([
      ['schema', '#/components/schemas/ThreadId/type'],
    ]);
  });

  it('holds a part the example marks as a decision under strict only, and labels its failure a decision', () => {
    const missing = examplePair('scheduleCascade', 'contentMissingForStages');
    expect(missing.kind).toBe('described'); // its status and code are the description's
    const wrongDetail = json(400, {
      title: 'request-doesn’t-contain-content-for-all-cascade-stages',
      status: 400,
      detail: 'no stages named',
    });
    expect(verdict(caseOf(missing, 'described'), wrongDetail, 'described')).toMatchObject({ ok: true });
    const strict = verdict(caseOf(missing, 'strict'), wrongDetail, 'strict').faults ?? [];
    expect(strict.length).toBeGreaterThan(0);
    expect(strict.every((f) => f.check === 'violations' && f.kind === 'decision')).toBe(true);
    // The described part is held in both profiles: 200 to it fails either way.
    expect(verdict(caseOf(missing, 'described'), json(200, {}), 'described').faults?.map((f) => f.check)).toEqual([
      'status',
    ]);
  });

  it('holds every header the document declares for the status: the Allow of a 405, which HTTP requires (RFC 9110)', () => {
    const notAllowed = examplePair('scheduleCascade', 'methodNotAllowed');
    const c = caseOf(notAllowed);
    const body = { title: 'method-not-allowed', status: 405 };
    const without = parseAnswer(405, 'application/json', JSON.stringify(body), { 'content-type': 'application/json' });
    expect(verdict(c, without, 'strict').faults).toEqual([
      expect.objectContaining({
        check: 'headers',
        fault: '405 without the Allow header the document declares for it',
        kind: 'described',
      }),
    ]);
    expect(verdict(c, without, 'described').ok).toBe(false);
    const withAllow = parseAnswer(405, 'application/json', JSON.stringify(body), { allow: 'POST' });
    expect(verdict(c, withAllow, 'strict').ok).toBe(true);
  });
});

describe('the open points, as the checks read them', () => {
  const threads = (ids: number[]): Case => {
    const pair = examplePair('closeThreads', 'resolved');
    const request = { ...pairRequest('http://x', pair, credentials), body: JSON.stringify({ threadIds: ids }) };
    return {
      operation: pair.operation,
      request,
      expectation: { allowed: [{ status: 200 }], kind: 'described', basis: '#' },
    };
  };
  const lists = (resolved: number[], notExisting: number[] = []) =>
    json(200, {
      resolved_threads: resolved,
      not_existing_threads: notExisting,
      already_resolved_threads: [],
      not_resolved_due_to_system_error: [],
    });
  const faults = (c: Case, a: ReturnType<typeof json>) => judge(c, a).map((f) => [f.check, f.kind ?? 'described']);

  it('an identifier sent twice: listed once (the decision), or each time, in the order sent (a decision under strict only)', () => {
    expect(faults(threads([1, 2, 1]), lists([1, 2]))).toEqual([]);
    expect(faults(threads([1, 2, 1]), lists([1, 2, 1]))).toEqual([['list-form', 'decision']]);
    expect(faults(threads([1, 2, 1]), lists([2, 1]))).toEqual([['list-form', 'decision']]);
    // Listed twice for three sends, or in two lists: no answer the description allows.
    expect(faults(threads([1, 1, 1]), lists([1, 1]))).toEqual([['listed-once', 'described']]);
    expect(faults(threads([1, 2]), lists([1], [1, 2]))).toEqual([['listed-once', 'described']]);
  });

  it('an empty 200 is one cause, never a check that throws: a decision where the document allows it, a fault elsewhere', () => {
    const empty = parseAnswer(200, '', '');
    expect(faults(threads([1]), empty)).toEqual([['body', 'described']]);
    expect(faults(caseOf(examplePair('createSubscriber', 'created')), empty)).toEqual([['body', 'decision']]);
  });

  it('an error as application/problem+json is a decision; as text/plain a fault', () => {
    const problem = { title: 'cascade-not-found', status: 400 };
    expect(faults(caseOf(notFound), json(400, problem, 'application/problem+json'))).toEqual([
      ['content-type', 'decision'],
    ]);
    expect(faults(caseOf(notFound), json(400, problem, 'text/plain'))).toEqual([['content-type', 'described']]);
  });
});

describe('a new check is one entry of the registry', () => {
  const added: PointCheck<'answer'> = {
    id: 'no-debug-field',
    family: 'answer',
    side: 'service',
    holds: 'no problem body carries a `debug` field (an example of a check that concerns every error, in every stage)',
    after: ['json', 'status'],
    concerns: (_c, a) => a.status >= 400,
    faults: (_c, a) =>
      (a.body as { debug?: unknown })?.debug === undefined
        ? []
        : [{ fault: 'a problem body with a `debug` field', detail: 'debug is present' }],
  };
  let remove = () => {};
  afterEach(() => remove());

  it("added once, it judges every stage's answers, and a server that breaks it reads as one cause", async () => {
    const proxy = await startMutatingProxy(sandbox.url, (x) =>
      x.status >= 400 && x.body && typeof x.body === 'object' ? { body: { ...x.body, debug: true } } : undefined,
    );
    try {
      const run = () =>
        runSuite(
          suiteContext({ server: proxy.url, credentials, values: {}, seed: 1, mock: false, log: () => {} }),
          stages.filter((s) => ['dredd', 'examples', 'stateful', 'boundaries', 'bad-input'].includes(s.name)),
        );
      // Without the check, nothing the proxy does breaks the contract (extra fields are allowed). The generated stage
      // sends valid requests only: no error answer of it is there to hold.
      expect((await run()).ok).toBe(true);
      remove = register(added);
      const report = await run();
      const found = causes(report.results);
      expect(found.map((c) => c.check)).toEqual(['no-debug-field']);
      expect(new Set(found[0]!.results.map((r) => r.stage))).toEqual(
        new Set(['dredd', 'examples', 'stateful', 'boundaries', 'bad-input']),
      );
    } finally {
      await proxy.close();
    }
  }, 60_000);
});

describe('the registry', () => {
  it('names each check once, across what they judge, each with its side', async () => {
    const registry = registered();
    const ids = registry.map((c) => c.id);
    expect(new Set(ids).size, ids.join(', ')).toBe(ids.length);
    expect(new Set(registry.map((c) => c.family))).toEqual(
      new Set(['run', 'request', 'answer', 'callback', 'over-time']),
    );
    expect(registry.every((c) => c.holds.length > 0 && (c.side === 'service' || c.side === 'caller'))).toBe(true);
  });
});
