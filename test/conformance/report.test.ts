// What a failing run prints fits on a screen: a cause seen several ways names each check once in a
// heading of at most 160 characters, with every fault below it; the coverage counts what passed. The Markdown
// summary (--reporter markdown) says the same, escaped as a Markdown reader (marked, GFM) reads it.
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { codeBlock, codeSpan, escapeText, markdown } from '../../src/conformance/cli/reports.ts';
import { redactor } from '../../src/conformance/ground/redaction.ts';
import { summary } from '../../src/conformance/report.ts';
import { verdict } from '../../src/conformance/judge.ts';
import { unmappedHint } from '../../src/conformance/suite/vars.ts';
import { againstDecision } from '../../src/core/open-points.ts';
import { clip, type CheckResult, type SuiteReport } from '../../src/conformance/ground/model.ts';

const long = (what: string) => `response 200 of closeThreads: ${what} ${'is not what the document allows '.repeat(4)}`;
/** One failed check that shows four faults of one check, the way one broken answer does. */
const failed: CheckResult = {
  stage: 'examples',
  name: 'closeThreads 200 resolved',
  kind: 'described',
  ok: false,
  ms: 1,
  expected: '200',
  actual: '200 with four faults',
  faults: ['resolved_threads', 'not_existing_threads', 'already_resolved_threads', 'comment'].map((field) => ({
    check: 'schema',
    fault: long(field),
    key: field,
  })),
  covers: { operationId: 'closeThreads', status: 200, example: 'resolved' },
} as CheckResult;
const passed: CheckResult = { ...failed, name: 'closeThreads 200 other', ok: true, faults: [] } as CheckResult;

const report = (results: CheckResult[], extra: Partial<SuiteReport> = {}): SuiteReport => ({
  profile: 'described',
  results,
  stageMs: { examples: 1 },
  finished: true,
  ok: false,
  coverage: [
    {
      operationId: 'closeThreads',
      statuses: { covered: 1, passed: 0, of: 6 },
      codes: { covered: 0, passed: 0, of: 5 },
      examples: { covered: 2, passed: 1, of: 11 },
      breadth: { limits: 0, at: 0, past: 0, generated: 0 },
      missed: [],
    },
  ],
  ...extra,
});

describe('a failing run on a screen', () => {
  it('a cause seen four ways: each check named once in a heading within 160 characters, every fault below', () => {
    const lines = summary(report([failed, passed])).split('\n');
    const heading = lines.find((l) => l.startsWith('FAIL '))!;
    expect(heading.length).toBeLessThanOrEqual(160);
    expect(heading).toMatch(
      /^FAIL \[schema\] response 200 of closeThreads: resolved_threads .*\bis not what the … \(\+3 more, below\)$/,
    );
    for (const field of ['resolved_threads', 'not_existing_threads', 'already_resolved_threads', 'comment'])
      expect(lines).toContain(`  fault:    ${long(field)}`);
  });

  it('the coverage counts what passed out of what ran', () => {
    const printed = summary(report([failed, passed]));
    expect(printed).toMatch(/^closeThreads +0\/1 of 6 +0\/0 of 5 +1\/2 of 11 /m);
  });

  it('--bail: the failure and one line, no coverage', () => {
    const lines = summary(report([passed, failed], { bailedAt: 'examples' })).split('\n');
    expect(lines.at(-1)).toBe(
      'stopped at the first failed check (--bail) in stage examples, the stages after it not run: 1 passed, 1 failed',
    );
    expect(lines.join('\n')).not.toMatch(/passed\/run of documented|not exercised/);
    expect(lines.length).toBeLessThanOrEqual(15);
  });
});

describe('a failure explains itself', () => {
  it('a text cut is cut after a separator, never inside a token or a surrogate pair, and says so', () => {
    const body = '{"detail":"Violations: no content [template:7,002;stage:c2b5a8e1-7002-4c1a-8f00-0000000000b2]"}';
    for (let max = 20; max < body.length; max++) {
      const cut = clip(body, max);
      expect(cut.endsWith(' …')).toBe(true);
      const kept = cut.slice(0, -2);
      expect(body.startsWith(kept)).toBe(true);
      // What follows the kept part starts a new token: it was cut at a separator.
      expect(/[\s,;:{}[\]()]$/.test(kept) || /^[\s,;:{}[\]()]/.test(body.slice(kept.length))).toBe(true);
    }
    expect(clip('😀'.repeat(30), 9)).toBe(`${'😀'.repeat(4)} …`);
    expect(clip('short', 10)).toBe('short');
  });

  it('a fault of a rule the answer does not show (a list form, a decision on an open point) is named in expected', () => {
    const spec = { stage: 'examples', name: 'closeThreads 200 repeatedId', kind: 'described' as const, basis: '#/x' };
    const fault = { check: 'list-form', fault: 'an identifier given twice is listed for each time', detail: 'd' };
    const point = {
      id: 'repeated-ids',
      pointer: '#/p',
      words: 'w',
      answers: ['once', 'each-occurrence'],
      decision: 'once',
    };
    const outcome = {
      expected: '200',
      actual: '200 {...}',
      faults: [{ ...fault, ...againstDecision(point, 'each-occurrence') }],
    };
    const r = verdict(spec, outcome, 'strict');
    expect(r.expected).toBe(
      '200; this contract\'s decision on the open point repeated-ids is "once"; this answer takes "each-occurrence", which the description allows too (--profile described accepts it)',
    );
    expect(r.basis).toBe('#/p ("w"); #/x');
    expect(r.kind).toBe('decision');
    // A fault without words of its own: what its check holds.
    const plain = verdict(spec, { expected: '200', actual: '200 {...}', faults: [fault] }, 'described');
    expect(plain.expected).toMatch(/^200; the result lists list a repeated identifier/);
    // The status check's fault is the answer itself: nothing added.
    const status = { check: 'status', fault: 'answered 400', detail: 'status 400' };
    expect(verdict(spec, { expected: '200', actual: '400', faults: [status] }, 'described').expected).toBe('200');
  });

  it('a failed decision that no open point explains quotes the sentence that marks it', () => {
    const spec = {
      stage: 'examples',
      name: 'createSubscriber 400 tagNotFound',
      kind: 'decision' as const,
      basis: '#/paths/~1api~1subscribers~1create/post/responses/400/content/application~1json/examples/tagNotFound',
    };
    const status = { check: 'status', fault: 'answered 400 unknown-tag', detail: 'title', kind: 'decision' as const };
    const r = verdict(spec, { expected: '400 tag-not-found with a problem body', faults: [status] }, 'strict');
    expect(r.decision).toMatch(
      /^This contract answers 400 with these codes \*\*\[contract decision\]\*\*: \| `tag-not-found` \|/,
    );
    expect(summary(report([r]))).toContain(`  decision: ${r.decision}`);
  });

  it('a failure whose request sends an example value no vars file maps names its vars key', () => {
    const body = '{"requestId":"r-1","cascadeId":1001,"subscriberFilter":{"address":"79001234567","type":"PHONE"}}';
    const hint = unmappedHint(body, {});
    expect(hint).toMatch(/^example values the deployment may not have, and no vars file maps: 1001\. /);
    expect(hint).toContain('"values": {"1001": <its own>}');
    expect(hint).toContain('vars --init');
    expect(unmappedHint(body, { '1001': 7001 })).toBeUndefined();
    expect(unmappedHint('{"text":"hello"}', {})).toBeUndefined();
    expect(unmappedHint('not json', {})).toBeUndefined();
  });
});

describe('the Markdown summary (--reporter markdown)', () => {
  /** Text and code as the page shows them: tags gone, entities read. */
  const shown = (html: string) =>
    html
      .replace(/<[^>]+>/g, '')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const secret = 'se|cr`et_key';
  const tricky: CheckResult = {
    ...failed,
    faults: [{ check: 'status', fault: 'answered 503 `unavailable` | twice', key: 'x' }],
    request: 'POST http://127.0.0.1:4020/api/v1/threads/close [x-api-key: <redacted>] {"threadIds":[101]}',
    replay: `curl -sS -X POST 'http://127.0.0.1:4020/api/v1/threads/close' -H "x-api-key: $MESSAGING_API_KEY" --data-raw '{"comment":"\`\`\`|"}'`,
    expected: '200 or 500 system-error',
    actual: `503 {"title":"a \`\`b\`\` c | d","key":"${secret}"}`,
    basis: '#/paths/~1api~1v1~1threads~1close/post/responses/500',
    words: ['Section 7.2: "500 | system-error | Server error."'],
  } as CheckResult;
  const failing = report([tricky, { ...tricky, name: 'closeThreads 200 again' } as CheckResult, passed], {
    coverage: [{ ...report([]).coverage![0]!, operationId: 'close|Threads' }],
  });

  it('a failing run: the verdict, each cause with its fields and its replay in a sh block, the coverage table', () => {
    const text = markdown(failing);
    expect(text.split('\n')[0]).toBe('## ❌ Conformance failed: 2 failed checks, 1 cause (profile described)');
    expect(text).toMatch(/^### 1\. `\[status\]` answered 503 .*$/m);
    expect(text).toContain('- **shown by:** 2 failed checks (examples 2) of `closeThreads`');
    for (const field of ['first', 'request', 'expected', 'actual', 'basis', 'words', 'also'])
      expect(text).toMatch(new RegExp(`^- \\*\\*${field}:\\*\\* `, 'm'));
    // The replay, whole, in a block whose fence is longer than the backticks inside it.
    expect(text).toContain(`\n\`\`\`\`sh\n${tricky.replay}\n\`\`\`\`\n`);
    expect(text).toMatch(/^\| passed\/run of documented \| statuses \| codes \| examples \| limits /m);
    const passedRun = markdown(report([passed], { ok: true }));
    expect(passedRun.split('\n')[0]).toBe('## ✅ Conformance passed: 1 check (profile described)');
    expect(passedRun).not.toMatch(/^### \d+\. /m);
  });

  it('escapes what Markdown would read: a pipe in a table cell, backticks in a code span and in a block', () => {
    const html = marked.parse(markdown(failing), { async: false, gfm: true }) as string;
    // The table keeps its 8 columns, the pipe inside a cell shown as written.
    const cells = [...html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => (m[1]!.match(/<t[dh]/g) ?? []).length);
    expect(cells.length).toBe(2);
    expect(new Set(cells)).toEqual(new Set([8]));
    expect(shown(html)).toContain('close|Threads');
    // The heading's fault, the actual answer and the words, each shown whole.
    const page = shown(html);
    expect(page).toContain('[status] answered 503 `unavailable` | twice');
    expect(page).toContain('503 {"title":"a ``b`` c | d"');
    expect(page).toContain('Section 7.2: "500 | system-error | Server error."');
    // The replay is one code block, shown exactly.
    const blocks = [...html.matchAll(/<pre><code class="language-sh">([\s\S]*?)<\/code><\/pre>/g)].map((m) =>
      shown(m[1]!),
    );
    expect(blocks).toEqual([`${tricky.replay}\n`]);
  });

  it('a run with a great many causes stays within what a CI page takes: the first in full, the rest by heading', () => {
    const many = Array.from(
      { length: 1500 },
      (_, i) =>
        ({
          ...tricky,
          name: `check ${i}`,
          faults: [{ check: 'status', fault: `answered ${i} where the document gives another answer`, key: `k${i}` }],
          actual: 'x'.repeat(1000),
        }) as CheckResult,
    );
    const text = markdown(report(many));
    expect(text.length).toBeLessThan(1024 * 1024);
    const full = text.match(/^### \d+\. /gm)!.length;
    expect(full).toBeGreaterThan(100);
    expect(text).toContain(`\n${1500 - full} more causes (in full in the JSON or JUnit report):\n`);
    expect(text).toContain('- \\[status\\] answered 1499 where the document gives another answer (1 failed check)');
  });

  it('never writes a credential, not even escaped', () => {
    const text = markdown(failing, { redact: redactor([secret]) });
    expect(text).toContain('***');
    expect(text).not.toContain(secret);
    expect(text).not.toContain(escapeText(secret));
    expect(text).not.toContain('cr`et');
  });

  it('a code span and a block show any text whole', () => {
    for (const s of ['plain', '`', 'a `b` c', '``double``', ' lead and trail ', '`edge'])
      expect(shown(marked.parseInline(`x ${codeSpan(s)} y`, { async: false }) as string)).toBe(`x ${s} y`);
    for (const s of ['```', 'a\n````\nb']) {
      const html = marked.parse(codeBlock(s, 'sh'), { async: false }) as string;
      expect(shown(/^<pre><code class="language-sh">([\s\S]*)<\/code><\/pre>\n$/.exec(html)?.[1] ?? '')).toBe(`${s}\n`);
    }
  });

  it('the vars hint only where the state may explain the failure: a refusal where a success was due', () => {
    const spec = { stage: 'examples', name: 'scheduleCascade 200 scheduled', kind: 'described' as const };
    const request = { method: 'POST', url: 'http://h/api/cascade/schedule', headers: {}, body: '{"cascadeId":1001}' };
    const from = { unmapped: () => 'the hint' };
    const refused = { check: 'status', fault: 'refuses', detail: 'status 400', byState: true };
    const order = { check: 'list-form', fault: 'a result list not in the order of the request', detail: 'd' };
    expect(verdict(spec, { request, expected: '200', faults: [refused] }, 'described', from).vars).toBe('the hint');
    expect(verdict(spec, { request, expected: '200', faults: [order] }, 'described', from).vars).toBeUndefined();
  });
});
