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
import { dreddTransactions } from '../../src/conformance/stages/dredd.ts';
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
