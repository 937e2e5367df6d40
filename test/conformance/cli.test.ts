// The conformance CLI as a service team runs it: exit codes, reports, the reset hook, grouped
// failures, credentials, usage errors. Mostly in this process (conformanceMain); what only a whole
// process shows runs the bundled bin (test/helpers/bins-global.ts). Apart from suite.test.ts, so
// that the two run side by side.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentValues, varsKeyFor } from '../../src/conformance/ground/deployment-values.ts';
import { dreddTransactions } from '../../src/conformance/stages/dredd.ts';
import { loadVars } from '../../src/conformance/suite/vars.ts';
import { parseCascadeViolations } from '../../src/core/cascade-violations.ts';
import { openapi } from '../../src/core/document.ts';
import { examplePair } from '../../src/core/examples.ts';
import { limits } from '../helpers/contract.ts';
import { conformanceCli, conformanceInProcess } from '../helpers/conformance-cli.ts';
import { startMutatingProxy } from '../helpers/mutating-proxy.ts';
import { credentials, useSandbox } from '../helpers/sandbox.ts';

const sandbox = useSandbox();
const dir = mkdtempSync(join(tmpdir(), 'mc-cli-'));

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Credentials no server checks: for runs that end before any request is judged. */
const anyKeys = ['--api-key', 'k', '--integrator-token', 't'];

describe('command line', () => {
  const cli = (...args: string[]) => conformanceInProcess(args);
  const keys = [
    '--api-key',
    credentials.apiKey,
    '--api-key-no-balance',
    credentials.apiKeyNoBalance!,
    '--integrator-token',
    credentials.integratorToken,
    '--profile',
    'strict',
  ];

  it('exits 0 and writes JUnit XML when every check passes', async () => {
    const output = join(dir, 'junit.xml');
    const result = await cli(
      '--server',
      sandbox.url,
      ...keys,
      '--only',
      'examples,stateful',
      '--reporter',
      'junit',
      '--output',
      output,
    );
    expect(result.code, result.out).toBe(0);
    // The stages' lines, their sum in the closing line and the JUnit report agree.
    const banner = (stage: string) =>
      Number(new RegExp(`^stage ${stage}: (\\d+) passed, 0 failed in `, 'm').exec(result.out)?.[1]);
    const [examples, stateful] = [banner('examples'), banner('stateful')];
    expect(examples).toBeGreaterThan(0);
    expect(stateful).toBeGreaterThan(0);
    expect(result.out).toMatch(new RegExp(`^${examples + stateful} passed, 0 failed$`, 'm'));
    const xml = readFileSync(output, 'utf8');
    expect(xml).toContain(
      `<testsuites name="messaging-contract conformance" tests="${examples + stateful}" failures="0">`,
    );
    expect(xml).toContain(`<testsuite name="stateful" tests="${stateful}" failures="0"`);
  }, 30_000);

  it("a whole run prints the suite's lines only: no logger's lines, no warning", async () => {
    // A process: a library's logger and Node's warnings write to the process's streams, not to conformanceMain's.
    const result = await conformanceCli(['--server', sandbox.url, ...keys]);
    expect(result.code, result.out).toBe(0);
    expect(result.out).toMatch(new RegExp(`^stage dredd: ${dreddTransactions().length} passed, 0 failed in `, 'm'));
    // A passing run fits on a screen: a line per stage, the coverage, the profile and the count.
    expect(result.out.trimEnd().split('\n').length).toBeLessThanOrEqual(16);
    expect(result.out).not.toMatch(/^(info|pass|fail|skip|complete|warn|error):|Warning|\(node:/m);
  }, 30_000);

  it('exits 1 and shows request, replay, expected, actual and basis when a check fails', async () => {
    const proxy = await startMutatingProxy(sandbox.url, (x) =>
      x.body?.title === 'requestId-is-not-unique'
        ? { status: 200, body: { requestId: JSON.parse(x.requestBody).requestId } }
        : undefined,
    );
    try {
      const result = await cli('--server', proxy.url, ...keys, '--only', 'stateful');
      expect(result.code, result.out).toBe(1);
      // One cause (the same wrong answer in both rules that reuse a requestId), seen two ways: the answer's status, and the
      // rule over time that judges every exchange of the run; then its first failure in full.
      expect(result.out).toMatch(
        /^FAIL \[status, taken-once\] accepts a request the document refuses: answered 200 \(\+1 more, below\)\n {2}fault: {4}accepts a request the document refuses: answered 200\n {2}fault: {4}scheduleCascade accepted a `requestId` it had accepted before \(the document gives requestId-is-not-unique\)\n {2}shown by: \d failed checks \(stateful \d\) of scheduleCascade\n {2}first: {4}stateful \[described\]: scheduleCascade: the same requestId sent twice is refused the second time with requestId-is-not-unique\n {2}request: {2}POST .*\/api\/cascade\/schedule \[content-type: application\/json, x-api-key: <redacted>\].*\n {2}replay: {3}curl -sS -X POST .* -H "x-api-key: \$MESSAGING_API_KEY"/m,
      );
      expect(result.out).toMatch(
        /expected: first 200, then 400 requestId-is-not-unique\n {2}actual: {3}step 2 of 2: 200 .*: status 200; requestId \S+ accepted at stateful request \d+ and again at stateful request \d+\n {2}basis: {4}#\/paths\/~1api~1cascade~1schedule\/post\/responses\/400\/content\/application~1json\/examples\/requestIdNotUnique/,
      );
      expect(result.out).toMatch(/^3 failed checks, 1 cause$/m);
    } finally {
      await proxy.close();
    }
  }, 30_000);

  it('credentials the server rejects: one line naming them and where they came from, exit 2, the report says why', async () => {
    const output = join(dir, 'rejected.json');
    // A process: exactly these bytes on the process's stdout and stderr, and its exit code.
    const result = await conformanceCli(
      ['--server', sandbox.url, '--api-key', 'not-the-key', '--reporter', 'json', '--output', output],
      { MESSAGING_INTEGRATOR_TOKEN: credentials.integratorToken },
    );
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'messaging-conformance: the server rejected the credentials: apiKey (--api-key) got 401 on a request that is otherwise right; nothing was checked\n',
    );
    expect(result.stderr).not.toContain('not-the-key');
    const report = JSON.parse(readFileSync(output, 'utf8'));
    expect(report).toMatchObject({
      ok: false,
      finished: false,
      rejectedCredentials: ['apiKey'],
      unfinished: expect.stringMatching(/credentials were rejected/),
    });
  }, 30_000);

  it('a server that does not answer: exit 2 with the reason, no usage text, and the JUnit report says why', async () => {
    const output = join(dir, 'unreachable.xml');
    const result = await cli('--server', 'http://127.0.0.1:9', ...anyKeys, '--reporter', 'junit', '--output', output);
    expect(result.code).toBe(2);
    expect(result.out).toMatch(/^messaging-conformance: the server http:\/\/127.0.0.1:9 does not answer: .*\n$/);
    const xml = readFileSync(output, 'utf8');
    expect(xml).toMatch(/<property name="unfinished" value="the server http:\/\/127.0.0.1:9 does not answer/);
    expect(xml).toMatch(/<testcase classname="conformance.run" name="the run could not finish".*<failure/);
  }, 30_000);

  it('a reset hook runs before each stage: --reset-url must answer 2xx, --reset-command must exit 0; a failed one stops the run (2)', async () => {
    let resets = 0;
    // A reset endpoint behind Basic authentication, given in the URL as curl takes it.
    const hook = createServer((req, res) => {
      if (req.headers.authorization !== `Basic ${Buffer.from('ops:pa55-w0rd').toString('base64')}`)
        return void res.writeHead(401).end('who are you?');
      resets += req.method === 'POST' ? 1 : 0;
      void fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' }).then(() => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://ops:pa55-w0rd@127.0.0.1:${(hook.address() as AddressInfo).port}/reset`;
      const ok = await cli('--server', sandbox.url, ...keys, '--only', 'examples,stateful', '--reset-url', url);
      expect(ok.code, ok.out).toBe(0);
      expect(resets).toBe(2);
      const refused = await cli(
        '--server',
        sandbox.url,
        ...keys,
        '--only',
        'stateful',
        '--reset-url',
        url.replace('pa55-w0rd', 'wrong-pa55'),
      );
      expect(refused.code, refused.out).toBe(2);
      expect(refused.out).toContain(
        `the reset hook failed before stage stateful: POST http://127.0.0.1:${(hook.address() as AddressInfo).port}/reset answered 401 who are you?`,
      );
      expect(refused.out).not.toContain('pa55');
      // The state is known: no check had to accept "already resolved" for a thread the examples say is open.
      expect(ok.out).not.toContain('needs a reset');
      const failing = await cli(
        '--server',
        sandbox.url,
        ...keys,
        '--only',
        'examples',
        '--reset-command',
        'echo no database here >&2; exit 3',
      );
      expect(failing.code, failing.out).toBe(2);
      expect(failing.out).toContain(
        'the run could not finish: the reset hook failed before stage examples: "echo no database here >&2; exit 3" exited 3: no database here',
      );
      const command = `${JSON.stringify(process.execPath)} -e "fetch('${sandbox.url}/_sandbox/reset', { method: 'POST' }).then((r) => process.exit(r.ok ? 0 : 1))"`;
      const byCommand = await cli('--server', sandbox.url, ...keys, '--only', 'examples', '--reset-command', command);
      expect(byCommand.code, byCommand.out).toBe(0);
      expect(byCommand.out).not.toContain('needs a reset');
    } finally {
      hook.close();
    }
  }, 60_000);

  it('without a reset hook the coverage says which checks a reset would make exact', async () => {
    const result = await cli('--server', sandbox.url, ...keys, '--only', 'examples');
    expect(result.code, result.out).toBe(0);
    expect(result.out).toMatch(
      /^ {2}needs a reset: closeThreads example 200 resolved, .*: held loosely, as an earlier send may have changed the state \(--reset-url or --reset-command checks them exactly; why, in the JSON report\)$/m,
    );
  }, 30_000);

  it('failures with one cause are one entry: its first request in full, the count, the rest in the report', async () => {
    // Every body of schedule cascade the sandbox answers 500 gets 503 instead of an error the document lists.
    const proxy = await startMutatingProxy(sandbox.url, (x) =>
      x.path === '/api/cascade/schedule' && x.status === 500
        ? { status: 503, body: { title: 'unavailable', status: 503 } }
        : undefined,
    );
    try {
      const output = join(dir, 'grouped.json');
      const result = await cli(
        '--server',
        proxy.url,
        ...keys,
        '--only',
        'boundaries',
        '--reporter',
        'json',
        '--output',
        output,
      );
      expect(result.code, result.out).toBe(1);
      const failed = JSON.parse(readFileSync(output, 'utf8')).results.filter((r: { ok: boolean }) => !r.ok);
      const entries = result.out.match(/^FAIL /gm)!.length;
      expect(failed.length).toBeGreaterThan(20);
      expect(entries).toBeLessThan(failed.length / 5);
      expect(result.out).toMatch(
        /^FAIL \[status\] answered 503 unavailable where the document gives another answer\n {2}shown by: \d+ failed checks \(boundaries \d+\) of scheduleCascade\n {2}first: {4}boundaries \[described\]: scheduleCascade: .*\n {2}request: .*\n {2}replay: {3}curl .*\n {2}expected: .*\n {2}actual: {3}503 .*\n {2}basis: .*\n {2}words: {4}Section .*\n {2}also: .*all \d+ in the JSON or JUnit report/m,
      );
      expect(result.out).toMatch(new RegExp(`^${failed.length} failed checks, ${entries} causes?$`, 'm'));
    } finally {
      await proxy.close();
    }
  }, 30_000);

  // These reach no sandbox: they run side by side.
  it.concurrent.for<[string[], RegExp]>([
    [[...anyKeys], /needs --server <url>/],
    [['--server', 'localhost:8080', ...anyKeys], /--server must be an http\(s\) URL, got "localhost:8080"/],
    [
      ['--server', 'http://127.0.0.1:99999', ...anyKeys],
      /--server must be an http\(s\) URL, got "http:\/\/127.0.0.1:99999"/,
    ],
    [['--server', 'http://127.0.0.1:9'], /needs credentials/],
    [['--server', 'http://127.0.0.1:9', ...anyKeys], /does not answer/],
    [
      ['--server', 'http://x', ...anyKeys, '--reset-url', 'not-a-url'],
      /--reset-url must be an http\(s\) URL, got "not-a-url"/,
    ],
    [['--server', 'http://x', ...anyKeys, '--reset-command', ' '], /--reset-command must be a command line/],
    [
      ['--server', 'http://x', '--only', 'everything'],
      /unknown stage "everything"; the stages are dredd, examples, stateful, boundaries, generated, bad-input/,
    ],
    [['--server', 'http://x', '--seed', 'abc', ...anyKeys], /--seed must be an integer/],
    [['--server', 'http://x', '--reporter', 'junit', ...anyKeys], /--reporter junit needs --output/],
    [['--server', 'http://x', '--vars', '/no/such/file.json'], /--vars \/no\/such\/file.json: ENOENT/],
    [['--bogus'], /Unknown option '--bogus'/],
    [['--server', 'http://x', '--only', 'stateful', '--skip', 'stateful'], /no stage is left to run/],
    [
      ['--server', 'http://x', ...anyKeys, '--reporter', 'junit', '--output', '/no/such/dir/x.xml'],
      /--output \/no\/such\/dir\/x.xml: its folder does not exist or cannot be written/,
    ],
    [['--server', 'http://x', ...anyKeys, '--reporter', 'markdown'], /--reporter markdown needs --output/],
    [
      ['--server', 'http://x', ...anyKeys, '--reporter', 'html', '--output', 'x'],
      /--reporter must be junit, json or markdown, got "html"/,
    ],
    [
      ['--server', 'http://x', ...anyKeys, '--reporter', 'junit', '--output', 'a.xml', '--output', 'b.md'],
      /--output b.md needs --reporter junit\|json\|markdown before it/,
    ],
    [
      [
        '--server',
        'http://x',
        ...anyKeys,
        '--reporter',
        'junit',
        '--output',
        'a',
        '--reporter',
        'markdown',
        '--output',
        'a',
      ],
      /--output a is given to two reporters/,
    ],
    [['vars'], /vars needs --init/],
    [
      ['vars', '--init', '--output', '/no/such/dir/vars.json'],
      /--output \/no\/such\/dir\/vars.json: its folder does not exist/,
    ],
  ])('exits 2 with a message for %j', { timeout: 30_000 }, async ([args, message], { expect }) => {
    const result = await cli(...args);
    expect(result.code).toBe(2);
    expect(result.out).toMatch(message);
    expect(result.out).not.toMatch(/\n\s+at /); // a message, not a stack trace
  });

  it('a usage error through the bin: the process exits 2 with one line and --help as a hint, no usage, no stack trace', async () => {
    // A process: the exit code of the bin itself.
    const result = await conformanceCli(['--bogus']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^messaging-conformance: Unknown option '--bogus'.* \(--help prints the usage\)\n$/);
    expect(result.out).not.toMatch(/\n\s+at /);
  }, 30_000);

  it('--help prints the usage and exits 0', async () => {
    // A process: the exit code of the bin itself.
    const result = await conformanceCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^usage: messaging-conformance --server <url>/);
    expect(result.out).toContain(
      'stages: dredd, examples, stateful, boundaries, generated, bad-input, callbacks (with --callbacks)',
    );
  }, 30_000);

  it('--list names the stages', async () => {
    const result = await cli('--list', '--skip', 'dredd');
    expect(
      result.out
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(['examples', 'stateful', 'boundaries', 'generated', 'bad-input', 'callbacks']);
    expect(result.out).toMatch(/^callbacks +\(with --callbacks\) /m);
    const withCallbacks = await cli('--list', '--only', 'callbacks', '--callbacks', '--callback-listen', '127.0.0.1:1');
    expect(withCallbacks.out).toMatch(/^callbacks +[^(]/);
    expect(withCallbacks.out.trim().split('\n')).toHaveLength(1);
  }, 30_000);

  it("--vars maps example values to a deployment's and supplies credentials", async () => {
    const vars = join(dir, 'vars.json');
    // On this "deployment" the open thread of the examples is 106, not 101.
    writeFileSync(vars, JSON.stringify({ ...credentials, values: { '101': 106 } }));
    await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' });
    const result = await cli('--server', sandbox.url, '--vars', vars, '--only', 'examples');
    expect(result.code, result.out).toBe(0);
    expect(sandbox.state.threads.get(106)?.state).toBe('closed');
    expect(sandbox.state.threads.get(101)?.state).toBe('open');
  }, 30_000);
});

describe('the Markdown summary (--reporter markdown), for a CI job page', () => {
  const cli = (...args: string[]) => conformanceInProcess(args);
  const keys = ['--api-key', credentials.apiKey, '--integrator-token', credentials.integratorToken];

  it('a failing run: written beside the JUnit report, the verdict, the cause with its replay, the coverage; no credential', async () => {
    const proxy = await startMutatingProxy(sandbox.url, (x) =>
      x.body?.title === 'requestId-is-not-unique'
        ? { status: 200, body: { requestId: JSON.parse(x.requestBody).requestId } }
        : undefined,
    );
    try {
      const [xml, md] = [join(dir, 'failing.xml'), join(dir, 'failing.md')];
      const result = await cli(
        '--server',
        proxy.url,
        ...keys,
        '--only',
        'stateful',
        '--reporter',
        'junit',
        '--output',
        xml,
        '--reporter',
        'markdown',
        '--output',
        md,
      );
      expect(result.code, result.out).toBe(1);
      expect(result.out).toContain(`JUnit XML: ${xml}\nMarkdown summary: ${md}\n`);
      expect(readFileSync(xml, 'utf8')).toMatch(/failures="[1-9]/);
      const text = readFileSync(md, 'utf8');
      // The verdict the text report ends with, as one line; the cause the text report prints first.
      const [, failed, causes] = /^(\d+) failed checks, (\d+ causes?)$/m.exec(result.out)!;
      expect(text.split('\n')[0]).toBe(
        `## ❌ Conformance failed: ${failed} failed checks, ${causes} (profile described)`,
      );
      expect(text).toMatch(/^### 1\. `\[status, taken-once\]` accepts a request the document refuses: answered 200$/m);
      expect(text).toMatch(/^- \*\*shown by:\*\* \d failed checks \(stateful \d\) of `scheduleCascade`$/m);
      expect(text).toMatch(/^- \*\*expected:\*\* `first 200, then 400 requestId-is-not-unique`$/m);
      // The cause's replay, the one the text report prints, in a sh block.
      const replay = /^ {2}replay: {3}(curl .*)$/m.exec(result.out)?.[1];
      expect(replay).toContain('"x-api-key: $MESSAGING_API_KEY"');
      expect(text).toContain(`**replay:**\n\n\`\`\`sh\n${replay}\n\`\`\`\n`);
      expect(text).toMatch(
        /^\| passed\/run of documented \| statuses \| codes \| examples \| limits \| at edge \| past edge \| generated \|$/m,
      );
      expect(text).toMatch(/^\| `scheduleCascade` \| /m);
      expect(text).not.toContain(credentials.apiKey);
      expect(text).not.toContain(credentials.integratorToken);
    } finally {
      await proxy.close();
    }
  }, 30_000);

  it('written on exit 2 too, with the reason', async () => {
    const md = join(dir, 'unreachable.md');
    const result = await cli('--server', 'http://127.0.0.1:9', ...anyKeys, '--reporter', 'markdown', '--output', md);
    expect(result.code).toBe(2);
    expect(readFileSync(md, 'utf8')).toMatch(
      /^## ❌ Conformance could not finish: the server http:\/\/127\.0\.0\.1:9 does not answer/,
    );
  }, 30_000);

  it('traffic takes it too: the cause and the counts of what was judged', async () => {
    const pair = examplePair('closeThreads', 'resolved');
    const md = join(dir, 'traffic.md');
    const log = join(dir, 'traffic.ndjson');
    // A comment over the limit, accepted: the caller's break and the service's.
    const body = JSON.stringify({ ...(pair.requestBody as object), comment: 'x'.repeat(limits.comment + 1) });
    const answer = JSON.stringify(pair.response);
    writeFileSync(
      log,
      `${JSON.stringify({
        startedAt: '2026-11-20T10:00:00Z',
        request: {
          method: 'POST',
          url: `https://service.example${pair.operation.path}`,
          headers: { 'content-type': 'application/json', authorization: 'Bearer a-secret-token' },
          body,
        },
        response: { status: 200, headers: { 'content-type': 'application/json' }, body: answer },
      })}\n`,
    );
    const result = await conformanceInProcess(
      ['traffic', log, '--judge', 'both', '--reporter', 'markdown', '--output', md],
      {
        MESSAGING_INTEGRATOR_TOKEN: 'a-secret-token',
      },
    );
    expect(result.code, result.out).toBe(1);
    const text = readFileSync(md, 'utf8');
    expect(text).toMatch(/^## ❌ Conformance failed: \d+ failed checks?, \d+ causes? \(profile described\)$/m);
    expect(text).toMatch(/^### 1\. `\[request-schema\]` /m);
    expect(text).toMatch(/^- traffic: 1 exchanges/m);
    expect(text).not.toContain('a-secret-token');
  }, 30_000);
});

describe('messaging-conformance vars --init', () => {
  const cli = (args: string[], env: Record<string, string | undefined> = {}) => conformanceInProcess(args, env);

  it("writes a starter vars file that --vars takes as it is: the sandbox, whose values are the examples', passes with it", async () => {
    const file = join(dir, 'starter-vars.json');
    const init = await cli(['vars', '--init', '--output', file]);
    expect(init.code, init.out).toBe(0);
    expect(init.out).toMatch(
      new RegExp(`^messaging-conformance: wrote ${file}: \\d+ example values, each mapped to itself`),
    );
    expect(init.out).toMatch(/^Edit it: map each key under "values" to your deployment's own value/m);
    // What the document says a deployment maps, each to itself: a thread the examples close, a cascade they schedule
    // on, a stage a validation error names, a subscriber that exists, and every fixture.
    const threads = (examplePair('closeThreads', 'resolved').requestBody as { threadIds: number[] }).threadIds;
    const cascade = (examplePair('scheduleCascade', 'scheduled').requestBody as { cascadeId: number }).cascadeId;
    const invalid = examplePair('scheduleCascade', 'cascadeRequestNotValid').response as { detail: string };
    const stage = parseCascadeViolations(invalid.detail).flatMap((v) =>
      v.kind === 'no-content-for-stage' ? [v.stageId] : [],
    )[0]!;
    const used = examplePair('createSubscriber', 'subscriberAlreadyExists').requestBody as {
      addresses: Array<{ address: string }>;
    };
    const fixtures = Object.keys((openapi.info as { 'x-fixtures': Record<string, string> })['x-fixtures']);
    const expected = [threads[0], cascade, stage, used.addresses[0]!.address].map((v) => JSON.stringify(v));
    const vars = loadVars(file, { MESSAGING_API_KEY: 'the-key' });
    for (const key of [...expected, ...fixtures]) expect(vars.values?.[key], key).toEqual(JSON.parse(key));
    // Every value has its comment; comments and placeholders are read, not taken for values or credentials.
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    // (Read as lines: JSON.parse puts the integer keys first.)
    const lines = readFileSync(file, 'utf8').split('\n');
    const valueLines = lines.flatMap((line, i) => (/^ {4}"(?!\/\/)/.test(line) ? [i] : []));
    expect(valueLines.filter((i) => !/^ {4}"\/\/ /.test(lines[i - 1]!))).toEqual([]);
    expect(valueLines.length).toBe(Object.keys(vars.values!).length);
    expect(Object.keys(vars.values!).some((k) => k.startsWith('//'))).toBe(false);
    expect(vars).toMatchObject({ apiKey: 'the-key' });
    expect(vars).not.toHaveProperty('integratorToken');
    expect(raw.integratorToken).toBe(`\${MESSAGING_INTEGRATOR_TOKEN}`);
    // Run as is: the credentials from the environment the placeholders name, every fixture mapped (none missing).
    const env = {
      MESSAGING_API_KEY: credentials.apiKey,
      MESSAGING_API_KEY_NO_BALANCE: credentials.apiKeyNoBalance,
      MESSAGING_INTEGRATOR_TOKEN: credentials.integratorToken,
    };
    await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' });
    const run = await cli(['--server', sandbox.url, '--vars', file, '--only', 'examples,stateful'], env);
    expect(run.code, run.out).toBe(0);
    expect(run.out).not.toContain('lacks a fixture');
    expect(run.out).not.toContain(credentials.apiKey);
  }, 60_000);

  it('refuses to overwrite a file unless --force; says where it wrote', async () => {
    const file = join(dir, 'kept-vars.json');
    writeFileSync(file, '{"values": {"101": 5}}');
    const refused = await cli(['vars', '--init', '--output', file]);
    expect(refused.code).toBe(2);
    expect(refused.out).toContain(`--output ${file} exists: --force overwrites it`);
    expect(readFileSync(file, 'utf8')).toBe('{"values": {"101": 5}}');
    const forced = await cli(['vars', '--init', '--output', file, '--force']);
    expect(forced.code, forced.out).toBe(0);
    expect(forced.out).toContain(`wrote ${file}`);
    expect(loadVars(file).values?.['101']).toBe(101);
  }, 30_000);

  it('the vars reader refuses a comment that is not a string, as any key it cannot read', () => {
    const file = join(dir, 'bad-comment.json');
    writeFileSync(file, '{"values": {"// 101": {"nested": true}, "101": 5}}');
    expect(() => loadVars(file)).toThrow(
      /--vars .*: the comment "\/\/ 101" in "values" must be a string, got \{"nested":true\}/,
    );
    writeFileSync(file, '{"//": 1}');
    expect(() => loadVars(file)).toThrow(/the comment "\/\/" must be a string, got 1/);
    writeFileSync(file, `{"apiKey": "\${NOT_SET_ANYWHERE}", "integratorToken": "\${X-Y}"}`);
    // An unset variable leaves the credential out; a name no variable can have is a literal value.
    expect(loadVars(file, {})).toEqual({ integratorToken: `\${X-Y}` });
  });

  it('varsKeyFor: the vars key of an example value a deployment maps, undefined for one it does not', () => {
    const cascade = (examplePair('scheduleCascade', 'scheduled').requestBody as { cascadeId: number }).cascadeId;
    expect(varsKeyFor(cascade)).toBe(String(cascade));
    expect(varsKeyFor(BigInt(cascade))).toBe(String(cascade));
    const stage = deploymentValues().find((v) => typeof v.value === 'string' && /^[0-9a-f-]{36}$/.test(v.value))!;
    expect(varsKeyFor(stage.value)).toBe(JSON.stringify(stage.value));
    expect(varsKeyFor(String(cascade))).toBeUndefined();
    expect(varsKeyFor('SMS')).toBeUndefined();
    expect(varsKeyFor(null)).toBeUndefined();
    expect(varsKeyFor({ cascadeId: cascade })).toBeUndefined();
  });
});
