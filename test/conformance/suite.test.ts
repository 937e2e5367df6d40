// The suite against the sandbox (every stage passes), against the Prism mock (the stages that make
// sense for a stateless mock), its plan coverage, seeded generation and bail (the CLI: cli.test.ts).
import { execFile } from 'node:child_process';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Stage, SuiteContext } from '../../src/conformance/suite/context.ts';
import { badInputs } from '../../src/conformance/stages/bad-input.ts';
import { dreddPlan, dreddTransactions, runDredd, type Step } from '../../src/conformance/stages/dredd.ts';
import { causes, summary } from '../../src/conformance/report.ts';
import { loadVars, preparedRequest, withFreshIdentifiers } from '../../src/conformance/suite/vars.ts';
import { examplesStage } from '../../src/conformance/stages/examples.ts';
import { runConformance } from '../../src/conformance/index.ts';
import { probes } from '../../src/conformance/suite/run-checks.ts';
import { runSuite, selectStages, stages, suiteContext, type SuiteOptions } from '../../src/conformance/suite/suite.ts';
import type { RecordedExchange, SuiteReport } from '../../src/conformance/ground/model.ts';
import { documentOperations, examplePairs, successExamples, type Operation } from '../../src/core/examples.ts';
import { listedOnce, sentAgain, takenOnce, takenOnceBy } from '../../src/conformance/document/policy.ts';
import { Digits, serialize } from '../../src/core/digits.ts';
import { setAt } from '../../src/core/edges.ts';
import { startMutatingProxy } from '../helpers/mutating-proxy.ts';
import { projectRoot } from '../../src/paths.ts';
import { usePrismMock } from '../helpers/prism.ts';
import { credentials, useSandbox } from '../helpers/sandbox.ts';

const run = promisify(execFile);
const sandbox = useSandbox();
const prism = usePrismMock();
const dir = mkdtempSync(join(tmpdir(), 'mc-suite-'));

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const context = (server: string, extra: Partial<SuiteOptions> = {}): SuiteContext =>
  suiteContext({ server, credentials, values: {}, seed: 1, mock: false, profile: 'strict', log: () => {}, ...extra });

/**
 * The first whole run of each profile against the sandbox, made once and shared by the tests that
 * read it (whichever asks first makes it); a second run follows it in the first test below.
 */
const firstRuns = new Map<SuiteOptions['profile'], Promise<SuiteReport>>();
const firstRun = (profile: SuiteOptions['profile']) => {
  if (!firstRuns.has(profile)) firstRuns.set(profile, runSuite(context(sandbox.url, { profile })));
  return firstRuns.get(profile)!;
};

describe('against the sandbox', () => {
  it.for(['strict', 'described'] as const)(
    'with no reset hook, every stage passes twice in a row (%s), each stage making the checks its banner counts',
    { timeout: 60_000 },
    async (profile) => {
      for (let run = 0; run < 2; run++) {
        const ctx = context(sandbox.url, { profile });
        const report = run === 0 ? await firstRun(profile) : await runSuite(ctx);
        expect(
          report.results.filter((r) => !r.ok),
          `run ${run + 1}`,
        ).toEqual([]);
        for (const stage of stages)
          expect(report.results.filter((r) => r.stage === stage.name).length, stage.name).toBe(stage.count(ctx));
      }
    },
  );

  it('every stage passes, with at least 200 boundaries, 50 bad inputs and every Dredd transaction', async () => {
    const report = await firstRun('strict');
    expect(report.results.filter((r) => !r.ok)).toEqual([]);
    const count = (stage: string) => report.results.filter((r) => r.stage === stage).length;
    expect(count('boundaries')).toBeGreaterThanOrEqual(200);
    expect(count('bad-input')).toBeGreaterThanOrEqual(50);
    expect(count('dredd')).toBe(Object.keys(dreddPlan()).length);
    expect(count('examples')).toBeGreaterThanOrEqual(50);
    // Per operation: a value taken once twice, after others and at once, and its other values shared (an open point); the
    // lists and where they go again; the balance.
    const noBalance = (op: Operation) =>
      examplePairs().some((p) => p.operation === op && p.trigger.credentials === 'no-balance');
    const rules = documentOperations().reduce(
      (n, op) =>
        n +
        (takenOnce(op) ? (successExamples(op).length > 1 ? 3 : 2) : 0) +
        (takenOnceBy(op) ? 1 : 0) +
        (listedOnce(op, 200) ? (sentAgain(op, 200) ? 2 : 1) : 0) +
        (noBalance(op) ? 2 : 0),
      0,
    );
    expect(count('stateful')).toBe(rules);
    expect(count('generated')).toBe(3);
    // Every check says which part of the document its expectation comes from.
    expect(report.results.filter((r) => !r.basis?.startsWith('#/'))).toEqual([]);
    // A result holds what the reports show, nothing a stage kept for itself (a raw answer).
    const shown = ['stage', 'name', 'kind', 'basis', 'words', 'covers', 'ok', 'expected', 'actual', 'answer', 'faults'];
    const extra = report.results.flatMap((r) =>
      Object.keys(r).filter((k) => ![...shown, 'request', 'replay', 'ms'].includes(k)),
    );
    expect(extra).toEqual([]);
  }, 60_000);

  it('the Dredd plan has a request for each transaction Dredd compiles, and for no other', () => {
    const plan = dreddPlan();
    expect(Object.keys(plan).sort()).toEqual([...dreddTransactions()].sort());
    const notAllowed = plan['/api/cascade/schedule > Schedule cascade message > 405 > application/json']!;
    const requestOf = (step: Step) => preparedRequest(context(sandbox.url), step.pair).request;
    expect([requestOf(notAllowed).method, notAllowed.expectation.allowed]).toEqual([
      'GET',
      [{ status: 405, code: 'method-not-allowed' }],
    ]);
    expect(
      requestOf(plan['/api/v1/threads/close > Close threads > 401 > application/json']!).headers.authorization,
    ).toMatch(/^Bearer wrong-/);
  });

  it('a transaction without a plan fails (a renamed summary cannot skip a check), and so does a plan Dredd compiled no transaction for', async () => {
    const plan = dreddPlan();
    const missing = '/api/subscribers/create > Create subscriber > 400 > application/json';
    delete plan[missing];
    const results = await runDredd(context(sandbox.url), plan);
    expect(results.find((r) => r.name === missing)).toMatchObject({
      ok: false,
      actual: 'Dredd compiled a transaction the suite has no plan for',
    });
    expect(results.filter((r) => !r.ok)).toHaveLength(1);
    const uncompiled = '/api/v1/threads/close > Close threads > 401 > application/json';
    const fewer = dreddTransactions().filter((name) => name !== uncompiled);
    expect((await runDredd(context(sandbox.url), dreddPlan(), fewer)).filter((r) => !r.ok)).toEqual([
      expect.objectContaining({
        name: uncompiled,
        actual: 'Dredd compiled no such transaction: the plan names one the document lacks',
      }),
    ]);
  }, 30_000);

  it('a request both the dredd and the examples stage would send is sent once: the examples stage judges the answer Dredd got', async () => {
    let requests = 0;
    const proxy = await startMutatingProxy(sandbox.url, () => {
      requests++;
      return undefined;
    });
    try {
      const sent = async (selected: Stage[]) => {
        await sandbox.reset();
        requests = 0;
        const report = await runSuite(context(proxy.url), selected);
        expect(report.results.filter((r) => !r.ok)).toEqual([]);
        return requests;
      };
      const [dredd, examples] = ['dredd', 'examples'].map((name) => stages.find((s) => s.name === name)!);
      const apart = (await sent([dredd!])) + (await sent([examples!]));
      const together = await sent([dredd!, examples!]);
      // Apart, a run's first look and its credential probes are sent twice too.
      const examplesDreddSends = new Set(Object.values(dreddPlan()).map((step) => step.pair)).size;
      expect(apart - together).toBe(1 + probes().length + examplesDreddSends);
    } finally {
      await proxy.close();
    }
  }, 30_000);

  it('one Dredd plan runs twice against the same state and passes: each send has fresh identifiers', async () => {
    const ctx = context(sandbox.url);
    const plan = dreddPlan();
    for (let run = 0; run < 2; run++) expect((await runDredd(ctx, plan)).filter((r) => !r.ok)).toEqual([]);
  }, 30_000);

  it("Dredd judges each transaction's own answer: a broken 200 fails its check (the `default` response Dredd also names 200 is skipped)", async () => {
    const proxy = await startMutatingProxy(sandbox.url, (x) =>
      x.path === '/api/v1/threads/close' && x.status === 200
        ? { body: { ...x.body, resolved_threads: x.body.resolved_threads.map(String) } }
        : undefined,
    );
    try {
      await sandbox.reset();
      const ctx = context(proxy.url);
      const results = await runDredd(ctx, dreddPlan());
      expect(results.filter((r) => !r.ok).map((r) => [r.name, r.actual])).toEqual([
        [
          '/api/v1/threads/close > Close threads > 200 > application/json',
          expect.stringMatching(/: resolved_threads\[0\]: got "101"; expected it to be of type integer$/),
        ],
      ]);
      // A Dredd failure carries the request it sent, ready to replay.
      expect(results.find((r) => !r.ok)!.replay).toMatch(
        /^curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/threads\/close' .*-H "authorization: Bearer \$MESSAGING_INTEGRATOR_TOKEN" --data-raw '\{"threadIds":\[101\],/,
      );
    } finally {
      await proxy.close();
    }
  }, 30_000);

  it('a deadline that is due but whose timer has not fired yet stops the dredd stage before it sends anything', async () => {
    // A due timer fires only when the event loop gets to it, and a stage may send before then: the
    // clock must decide, not only the signal.
    let requests = 0;
    const counting = createServer((req, res) => {
      requests++;
      req.resume();
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => counting.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(counting.address() as AddressInfo).port}`;
      const due = { ...context(url), deadline: new AbortController().signal, deadlineAt: Date.now() - 1 };
      await expect(runDredd(due, dreddPlan())).rejects.toThrow("the run's deadline passed before every check ran");
      expect(requests).toBe(0);
    } finally {
      counting.close();
    }
  });

  it('a run, the dredd stage included, leaves the process as it was: no listener added, emitWarning the same', async () => {
    // A fresh process: nothing an earlier test loaded or added is counted.
    const script = join(dir, 'in-process.mts');
    writeFileSync(
      script,
      `
      import { runConformance } from ${JSON.stringify(join(projectRoot, 'src/conformance/index.ts'))};
      const listeners = () => process.eventNames().map((e) => \`\${String(e)}:\${process.listenerCount(e)}\`).sort().join(',');
      const before = listeners();
      const emitWarning = process.emitWarning;
      const report = await runConformance({ server: ${JSON.stringify(sandbox.url)}, ...${JSON.stringify(credentials)}, only: ['dredd'] });
      console.log(JSON.stringify({ ok: report.ok, listeners: listeners() === before ? 'same' : [before, listeners()], emitWarning: process.emitWarning === emitWarning }));
    `,
    );
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script], { cwd: projectRoot });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ ok: true, listeners: 'same', emitWarning: true });
  }, 30_000);

  it('a server under a base path: every stage, Dredd included, keeps the path', async () => {
    // A front that serves the sandbox under /base/v1 only.
    const front = createServer((req, res) => {
      if (!req.url?.startsWith('/base/v1/'))
        return res.writeHead(404, { 'content-type': 'text/plain' }).end('not under /base/v1');
      const upstream = request(
        `${sandbox.url}${req.url.slice('/base/v1'.length)}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      const report = await runSuite(context(`http://127.0.0.1:${(front.address() as AddressInfo).port}/base/v1`));
      expect(report.results.filter((r) => !r.ok)).toEqual([]);
      expect(report.results.filter((r) => r.stage === 'dredd').length).toBeGreaterThan(10);
    } finally {
      front.closeAllConnections();
      front.close();
    }
  }, 30_000);

  it('runConformance refuses options it cannot use, naming them, before any request', async () => {
    const base = { server: sandbox.url, ...credentials };
    await expect(runConformance({ ...base, server: 'ftp://x' })).rejects.toThrow(
      /server must be an http\(s\) URL, got "ftp:\/\/x"/,
    );
    await expect(runConformance({ ...base, deadlineMs: 0 })).rejects.toThrow(
      /deadlineMs must be a number of milliseconds above 0, got 0/,
    );
    await expect(runConformance({ ...base, timeoutMs: 'abc' as unknown as number })).rejects.toThrow(
      /timeoutMs must be a number of milliseconds above 0, got "abc"/,
    );
    await expect(runConformance({ ...base, timeoutMs: Number.NaN })).rejects.toThrow(
      /timeoutMs must be a number of milliseconds above 0, got null/,
    );
  });

  it("the run's recording says why a callback its receiver dropped on purpose got no answer", () => {
    const heard: RecordedExchange[] = [];
    const ctx = context(sandbox.url, { observe: (x) => heard.push(x) });
    const post = { at: Date.now(), url: 'http://127.0.0.1:1/', webhook: 'messageStatus', text: '{}', body: {} };
    ctx.received(post);
    ctx.received({ ...post, status: 200 });
    expect(heard.map((x) => [x.response?.status, x.error])).toEqual([
      [undefined, 'the receiver dropped the connection on purpose (a receiver down)'],
      [200, undefined],
    ]);
  });

  it('identifiers a deployment accepts once are new on every send, unless the send is about a used one', () => {
    const schedule = { requestId: '3c6e0b8a-9c0b-4b1e-8f3a-000000000001', cascadeId: 1 };
    const first = withFreshIdentifiers('scheduleCascade', schedule, { status: 200 }) as typeof schedule;
    const second = withFreshIdentifiers('scheduleCascade', schedule, { status: 200 }) as typeof schedule;
    expect(new Set([schedule.requestId, first.requestId, second.requestId]).size).toBe(3);
    expect(first.cascadeId).toBe(1);
    expect(withFreshIdentifiers('scheduleCascade', schedule, { status: 400, code: 'requestId-is-not-unique' })).toBe(
      schedule,
    );
    // A requestId a bad input broke is what that input is about.
    for (const requestId of ['', 'abc', 42, null])
      expect(withFreshIdentifiers('scheduleCascade', { requestId }, { status: 400 })).toEqual({ requestId });
    expect(withFreshIdentifiers('scheduleCascade', {}, { status: 200 })).toEqual({});
    const subscriber = {
      addresses: [
        { address: 'crm-000001', type: 'EXT_USER_ID' },
        { address: '79001234567', type: 'PHONE' },
        { address: 'anna@example.org', type: 'EMAIL' },
        { address: 'chosen-by-a-check', type: 'UTM' },
      ],
    };
    // Every address an example gives (the open point unique-addresses), each in the form of the one it replaces.
    const created = withFreshIdentifiers('createSubscriber', subscriber, { status: 200 }) as typeof subscriber;
    const [ext, phone, email, chosen] = created.addresses.map((a) => a.address);
    expect(ext).toMatch(/^conformance-[0-9a-f-]{36}$/);
    expect(phone).toMatch(/^7\d{10}$/);
    expect(phone).not.toBe('79001234567');
    expect(email).toMatch(/^conformance-[0-9a-f-]{36}@example\.org$/);
    expect(chosen).toBe('chosen-by-a-check');
    // Made here, made new again; only the fields asked for.
    const again = withFreshIdentifiers('createSubscriber', created, { status: 200 }, [
      'addresses[type=EXT_USER_ID].address',
    ]) as typeof subscriber;
    expect(again.addresses[0]!.address).not.toBe(ext);
    expect(again.addresses.slice(1)).toEqual(created.addresses.slice(1));
    expect(
      withFreshIdentifiers('createSubscriber', subscriber, { status: 400, code: 'subscriber-already-exists' }),
    ).toBe(subscriber);
  });

  it('a vars file maps an id past 2^53 digit for digit: the request carries it, and the answer is held to it exactly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vars-int64-'));
    try {
      const file = join(dir, 'vars.json');
      // An identifier that matches no thread, past 2^53: JSON.parse would make it ...992.
      const pair = examplePairs().find((p) => p.operation.operationId === 'closeThreads' && p.name === 'notExisting')!;
      const example = String((pair.requestBody as { threadIds: number[] }).threadIds[0]);
      writeFileSync(file, `{"values": {"${example}": 9007199254740993}}`);
      const { values } = loadVars(file);
      expect(values![example]).toBe(9007199254740993n);
      const ctx = suiteContext({
        server: sandbox.url,
        credentials,
        values: values!,
        seed: 1,
        mock: false,
        log: () => {},
      });
      expect(preparedRequest(ctx, pair).request.body).toBe('{"threadIds":[9007199254740993]}');
      const report = await runSuite(ctx, [examplesStage]);
      const checked = report.results.find((r) => r.name.includes('closeThreads 200 notExisting'))!;
      expect(checked.ok, summary(report)).toBe(true);
      // The answer names the id as sent: one a digit off fails the fields check.
      const proxy = await startMutatingProxy(sandbox.url, (x) =>
        x.path === '/api/v1/threads/close' && x.status === 200
          ? { body: { ...x.body, not_existing_threads: [9007199254740992n] } }
          : undefined,
      );
      try {
        const off = await runSuite({ ...ctx, server: proxy.url }, [examplesStage]);
        expect(off.results.find((r) => r.name.includes('closeThreads 200 notExisting'))!.ok).toBe(false);
      } finally {
        await proxy.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a body copied to place a value or a new identifier keeps each int64 written digit for digit', () => {
    const id = new Digits('9007199254740993');
    const body = { requestId: '3c6e0b8a-9c0b-4b1e-8f3a-000000000001', cascadeId: id, content: {} } as const;
    const fresh = withFreshIdentifiers('scheduleCascade', body, { status: 200 }) as typeof body;
    expect(fresh.requestId).not.toBe(body.requestId);
    expect(serialize(fresh)).toContain('"cascadeId":9007199254740993');
    expect(serialize(setAt(body, ['content'], { x: [id] }))).toContain(
      '"cascadeId":9007199254740993,"content":{"x":[9007199254740993]}',
    );
  });

  it('bad inputs are the same for a seed and shuffled by another', () => {
    const names = (seed: number) => badInputs(context(sandbox.url, { seed })).map((i) => i.name);
    expect(names(7)).toEqual(names(7));
    expect(names(8)).not.toEqual(names(7));
    expect([...names(8)].sort()).toEqual([...names(7)].sort());
  });
});

describe('bail', () => {
  it('stops at the first failed check: it is the one failure, and no stage after its stage runs', async () => {
    // A reused requestId accepted: the examples and stateful stages catch it.
    const proxy = await startMutatingProxy(sandbox.url, (x) =>
      x.body?.title === 'requestId-is-not-unique'
        ? { status: 200, body: { requestId: JSON.parse(x.requestBody).requestId } }
        : undefined,
    );
    try {
      const lines: string[] = [];
      const report = await runSuite(context(proxy.url, { bail: true, log: (line) => lines.push(line) }));
      const failed = report.results.filter((r) => !r.ok);
      expect(failed).toHaveLength(1);
      expect(failed[0]!.name).toMatch(/requestId/);
      expect(report.ok).toBe(false);
      expect(report.finished).toBe(true);
      const ran = stages.map((s) => s.name).filter((name) => report.results.some((r) => r.stage === name));
      expect(ran.at(-1)).toBe(failed[0]!.stage);
      expect(ran.length).toBeLessThan(stages.length);
      expect(report.results.at(-1)).toBe(failed[0]);
      expect(report.bailedAt).toBe(failed[0]!.stage);
      // Its failure and one line: no coverage, no "not exercised" list.
      const printed = summary(report).split('\n');
      expect(printed.at(-1)).toBe(
        `stopped at the first failed check (--bail) in stage ${failed[0]!.stage}, the stages after it not run: ${report.results.length - 1} passed, 1 failed`,
      );
      expect(printed.filter((l) => l.startsWith('FAIL '))).toHaveLength(1);
      expect(printed.join('\n')).not.toMatch(/not exercised|passed\/run of documented/);
      expect(printed.length).toBeLessThanOrEqual(15);
      expect(lines.filter((l) => l.startsWith('stage '))).toHaveLength(ran.length);
    } finally {
      await proxy.close();
    }
  }, 30_000);

  it('a stage that fails before its checks end (its receiver could not listen) is a failed check too: no stage after it runs', async () => {
    const broken: Stage = {
      name: 'broken',
      description: 'a stage whose run throws',
      count: () => 1,
      run: async () => {
        throw new Error('the receiver could not listen');
      },
    };
    const report = await runSuite(context(sandbox.url, { bail: true }), [broken, stages[1]!]);
    expect(report.results.map((r) => [r.stage, r.name, r.actual])).toEqual([
      ['broken', 'stage ran to the end', 'the stage failed: the receiver could not listen'],
    ]);
  });
});

describe('against the Prism mock', () => {
  it('the examples stage passes when each example is asked for by name (--mock)', async () => {
    const report = await runSuite(context(prism.url, { mock: true }), selectStages(['examples']));
    expect(report.results.filter((r) => !r.ok)).toEqual([]);
  }, 30_000);

  it('the stages that need real behaviour fail against a stateless mock', async () => {
    // Prism checks that credentials are present, not that they are right; it keeps no state; it
    // answers invalid requests with its first 400 example, not the field's code.
    for (const stage of ['dredd', 'stateful', 'boundaries', 'generated', 'bad-input']) {
      const report = await runSuite(context(prism.url), selectStages([stage]));
      expect(report.ok, stage).toBe(false);
    }
  }, 60_000);
});

describe('profiles: described facts and contract decisions', () => {
  it('against the sandbox, strict passes; described passes too, with fewer checks, none a decision', async () => {
    const strict = await firstRun('strict');
    const described = await firstRun('described');
    expect(strict.ok, summary(strict)).toBe(true);
    expect(described.ok, summary(described)).toBe(true);
    expect(described.results.length).toBeLessThan(strict.results.length);
    expect(described.results.filter((r) => r.kind === 'decision')).toEqual([]);
    expect(strict.results.filter((r) => r.kind === 'decision').length).toBeGreaterThan(30);
  }, 60_000);

  it('the coverage scorecard: strict exercises every status, code and example; described misses only decisions, and says so', async () => {
    const strict = await firstRun('strict');
    expect(strict.coverage!.flatMap((c) => c.missed)).toEqual([]);
    expect(strict.coverage!.map((c) => c.operationId)).toEqual(['closeThreads', 'createSubscriber', 'scheduleCascade']);
    const described = await firstRun('described');
    const missed = described.coverage!.flatMap((c) => c.missed);
    expect(missed.length).toBeGreaterThan(10);
    expect(missed.filter((m) => !m.why.startsWith('a decision of this contract'))).toEqual([]);
    const skipped = await runSuite(context(sandbox.url), selectStages(['stateful']));
    expect(
      skipped
        .coverage!.flatMap((c) => c.missed)
        .every((m) => m.why === 'the examples and dredd stages were not selected'),
    ).toBe(true);
    expect(summary(described)).toMatch(/passed\/run of documented\s+statuses\s+codes\s+examples/);
  }, 60_000);

  it("a server that differs from the sandbox only in the contract's decisions passes described and fails strict, each failure a decision", async () => {
    // Its own codes where this contract decided them: close threads and create subscriber errors.
    const proxy = await startMutatingProxy(sandbox.url, (x) => {
      const title = x.body?.title;
      if (x.path === '/api/subscribers/create' && x.status === 400)
        return { body: { ...x.body, title: 'subscriber-not-created' } };
      if (x.path === '/api/v1/threads/close' && typeof title === 'string' && x.status !== 401)
        return { status: 422, body: { title: 'threads-not-closed', status: 422 } };
      if (x.path === '/api/v1/threads/close' && x.requestBody.includes('[103,103]'))
        return { body: { ...x.body, resolved_threads: [103, 103] } };
      return undefined;
    });
    try {
      const described = await runSuite(context(proxy.url, { profile: 'described' }));
      const strict = await runSuite(context(proxy.url));
      expect(described.ok, summary(described)).toBe(true);
      expect(strict.ok).toBe(false);
      const failed = strict.results.filter((r) => !r.ok);
      expect(failed.length).toBeGreaterThan(10);
      expect(failed.filter((r) => r.kind !== 'decision').map((r) => `${r.stage} ${r.name}`)).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});

describe('a deployment the suite does not know', () => {
  // One spelling of each code (the list is read from the document's codes and their aliases).
  it.for(['cascade-scheduling-request-not-valid', "request-doesn't-contain-content-for-all-cascade-stages"])(
    'a cascade at id 2^53 + 1 with other stages: the boundary accepts %s, which the description allows for content that does not match them',
    async (code) => {
      // A deployment with a cascade at that id whose stages are not the example's channels.
      const other = (title: string) =>
        startMutatingProxy(sandbox.url, (x) =>
          x.path === '/api/cascade/schedule' && x.requestBody.includes('"cascadeId":9007199254740993')
            ? { status: 400, body: { title, status: 400, detail: 'Violations: the cascade has other stages' } }
            : undefined,
        );
      const boundaries = selectStages(['boundaries']);
      const proxy = await other(code);
      try {
        const report = await runSuite(context(proxy.url, { profile: 'described' }), boundaries);
        const edge = report.results.find((r) => r.name.includes('cascadeId: 2^53 + 1'));
        expect(edge, 'the boundary is checked').toBeDefined();
        expect(report.results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.actual}`)).toEqual([]);
      } finally {
        await proxy.close();
      }
      // An answer the description does not allow there still fails it (checked once).
      if (code !== 'cascade-scheduling-request-not-valid') return;
      const wrong = await other('out-of-balance');
      try {
        const report = await runSuite(context(wrong.url, { profile: 'described' }), boundaries);
        // The id in each of its written forms (digits, an exponent), and nothing else.
        const failed = report.results.filter((r) => !r.ok).map((r) => r.name);
        expect(failed.length).toBeGreaterThan(0);
        expect(failed.filter((name) => !name.includes('cascadeId: 2^53 + 1'))).toEqual([]);
      } finally {
        await wrong.close();
      }
    },
  );
});

describe('headers the document declares', () => {
  it('a 405 without the Allow header fails both profiles (RFC 9110 requires it), as one cause', async () => {
    const proxy = await startMutatingProxy(sandbox.url, (x) =>
      x.status === 405
        ? { headers: Object.fromEntries(Object.entries(x.headers).filter(([n]) => n !== 'allow')) }
        : undefined,
    );
    try {
      const only = stages.filter((s) => ['dredd', 'examples', 'bad-input'].includes(s.name));
      for (const profile of ['strict', 'described'] as const) {
        const report = await runSuite(context(proxy.url, { profile }), only);
        const found = causes(report.results);
        expect(
          found.map((c) => [c.check, c.fault]),
          profile,
        ).toEqual([['headers', '405 without the Allow header the document declares for it']]);
        // Where the document lists the 405 for the operation, the header is the description's (HTTP's) rule.
        expect(
          found[0]!.results.some((r) => r.kind === 'described'),
          profile,
        ).toBe(true);
      }
    } finally {
      await proxy.close();
    }
  }, 60_000);
});

describe('what the suite reads in the document', () => {
  it('every operation has an example that changes nothing (x-request probe), and the probes try every credential', () => {
    expect(new Set(probes().map((p) => p.pair.operation.operationId))).toEqual(
      new Set(documentOperations().map((op) => op.operationId)),
    );
    expect(new Set(probes().map((p) => p.credential))).toEqual(
      new Set(['apiKey', 'apiKeyNoBalance', 'integratorToken']),
    );
  });
});
