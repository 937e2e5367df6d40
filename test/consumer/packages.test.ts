// The packages as a new user gets them: packed, checked by attw and publint, installed into an
// empty project outside this repository, type-checked there under both module resolutions, and run
// on every supported Node line (20 here, 22, 24 and 26 from the npm registry's `node` package).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareApi } from '../../src/diff/api.ts';
import { projectRoot } from '../../src/paths.ts';
import { freePort } from '../../src/util/wait.ts';
import { bundleEntries, entryBudgets, entryImports, installProject, packPackages } from '../helpers/packages.ts';
import type { PackageName } from '../helpers/packages.ts';

const run = promisify(execFile);
const bin = (name: string) => join(projectRoot, 'node_modules', '.bin', name);
const exec = (file: string, args: string[], options: { cwd: string; timeout?: number; env?: NodeJS.ProcessEnv }) =>
  run(file, args, { ...options, maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => ({ code: 0, out: `${r.stdout}${r.stderr}` }),
    (e: { code?: number; stdout?: string; stderr?: string; message: string }) => ({
      code: e.code ?? 1,
      out: `${e.stdout ?? ''}${e.stderr ?? ''}${e.message}`,
    }),
  );

let dir: string;
let tarballs: Record<PackageName, string>;
let project: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mc-consumer-'));
  tarballs = await packPackages(join(dir, 'packs'));
  project = join(dir, 'project');
  // The consumer's own tools: TypeScript and Node's types, as a TypeScript project has them.
  await installProject(project, [...Object.values(tarballs), 'typescript@5.9.3', '@types/node@20.19.43']);
  await cp(join(projectRoot, 'test/consumer/project'), project, { recursive: true });
}, 240_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the tarballs', () => {
  it("keep the types recorded for this version (releases/api/): a break of a package's API is released as a major", async () => {
    // packPackages built each dist/; the gate the release runs, on the working copy.
    const { version } = JSON.parse(readFileSync(join(projectRoot, 'generated/openapi.json'), 'utf8')).info;
    const breaks = compareApi(projectRoot, version);
    expect(breaks, `releases/api/${version}/ is not recorded`).toBeDefined();
    expect(breaks?.map((b) => `${b.what}: ${b.sentence}`)).toEqual([]);
    // A member keyed by a unique symbol is a new symbol in every build of the declarations, and a class with private
    // members a new type: the gate would read either as a break. None is declared.
    for (const pkg of ['client', 'sandbox', 'conformance'])
      for (const file of await readdir(join(projectRoot, 'src', pkg, 'dist')))
        if (file.endsWith('.d.ts')) {
          const text = readFileSync(join(projectRoot, 'src', pkg, 'dist', file), 'utf8');
          expect(text, file).not.toContain('unique symbol');
          expect(text, file).not.toMatch(/^\s*(private|#private)\b/m);
        }
  }, 60_000);

  it.each(['client', 'sandbox', 'conformance'] as const)(
    '%s: attw finds every entry typed for ESM consumers (node16 and bundler)',
    async (name) => {
      // esm-only: CommonJS consumers load these ES modules with require() on Node >= 20.19 (engines).
      const result = await exec(bin('attw'), [tarballs[name], '--profile', 'esm-only', '--format', 'ascii'], {
        cwd: dir,
      });
      expect(result.code, result.out).toBe(0);
    },
    60_000,
  );

  it.each(['client', 'sandbox', 'conformance'] as const)(
    '%s: publint finds nothing, suggestions included',
    async (name) => {
      const result = await exec(bin('publint'), ['run', tarballs[name], '--strict', '--level', 'suggestion'], {
        cwd: dir,
      });
      expect(result.code, result.out).toBe(0);
      expect(result.out).toContain('All good!');
    },
    60_000,
  );

  it('no file of a tarball points into this repository', async () => {
    for (const tarball of Object.values(tarballs)) {
      const { stdout } = await run('tar', ['-xzOf', tarball], { maxBuffer: 64 * 1024 * 1024 });
      expect(stdout.includes(projectRoot), `${tarball} mentions ${projectRoot}`).toBe(false);
    }
  });

  it('the client installed alone adds at most 3 packages and 2 MB to node_modules', async () => {
    const alone = join(dir, 'client-alone');
    await installProject(alone, [tarballs.client]);
    const modules = join(alone, 'node_modules');
    const packages: string[] = [];
    for (const entry of await readdir(modules)) {
      if (entry.startsWith('.')) continue;
      if (entry.startsWith('@'))
        for (const scoped of await readdir(join(modules, entry))) packages.push(`${entry}/${scoped}`);
      else packages.push(entry);
    }
    const bytes = Number((await run('du', ['-sb', modules])).stdout.split('\t')[0]);
    expect(packages.sort()).toEqual(['@messaging-contract/client', 'openapi-fetch', 'openapi-typescript-helpers']);
    expect(bytes).toBeLessThanOrEqual(2 * 1024 * 1024);
  }, 120_000);

  it('bundled for an app, each entry of the client stays within its budget (minified)', async () => {
    const sizes = Object.entries(await bundleEntries(project, entryImports)).map(([label, code]) => {
      const budget = entryBudgets[label as keyof typeof entryImports];
      return [label, code.length <= budget ? 'within' : `${code.length} bytes, over its ${budget}`];
    });
    expect(sizes).toEqual(Object.keys(entryImports).map((label) => [label, 'within']));
  });
});

describe('a consumer project', () => {
  it.each(['nodenext', 'bundler'] as const)(
    'type-checks against the installed packages with moduleResolution %s',
    async (resolution) => {
      const config = join(project, `tsconfig.${resolution}.json`);
      await writeFile(
        config,
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            lib: ['ES2022', 'ESNext.Disposable'],
            module: resolution === 'nodenext' ? 'NodeNext' : 'ESNext',
            moduleResolution: resolution,
            types: ['node'],
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            resolveJsonModule: true,
          },
          files: ['consumer.ts'],
        }),
      );
      const result = await exec(join(project, 'node_modules/.bin/tsc'), ['-p', config], { cwd: project });
      expect(result.code, result.out).toBe(0);
    },
    60_000,
  );

  const lines = [
    ['20 (this machine)', null],
    ['22', 'node@22'],
    ['24', 'node@24'],
    ['26', 'node@26'],
  ] as const;
  it.each(lines)(
    'runs on Node %s: every subpath, the client against the sandbox, the conformance bin against the sandbox bin',
    async (_line, nodePackage) => {
      const result =
        nodePackage === null
          ? await exec(process.execPath, ['runtime.mjs'], { cwd: project, timeout: 150_000 })
          : await exec('npx', ['-y', '-p', nodePackage, 'node', 'runtime.mjs'], { cwd: project, timeout: 150_000 });
      expect(result.code, result.out).toBe(0);
      const facts = JSON.parse(
        result.out
          .trim()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .at(-1)!,
      );
      if (nodePackage) expect(facts.node).toMatch(new RegExp(`^v${nodePackage.split('@')[1]}\\.`));
      expect(facts.binNode, 'the bins run on the same Node').toBe(facts.node);
      expect(facts.exports).toEqual({
        client: [
          'ApiError',
          'MessagingError',
          'MissingCredentialError',
          'NetworkError',
          'ResponseTooLargeError',
          'TimeoutError',
          'createMessagingClient',
          'isKnownErrorCode',
          'normalizeErrorCode',
          'parseCascadeViolations',
        ],
        webhooks: ['StatusCallbackError', 'parseStatusCallback'],
        preflight: ['RequestValidationError', 'createValidatingClient', 'validateRequest'],
        sandbox: ['startSandbox'],
        conformance: [
          'OptionError',
          'UnreachableError',
          'VarsError',
          'checkWebhookReceiver',
          'conformanceStages',
          'formatJUnit',
          'formatJson',
          'formatSummary',
          'formatTrafficSummary',
          'judgeTraffic',
          'loadVars',
          'runConformance',
          'startProxy',
        ],
      });
      expect(facts).toMatchObject({
        documentVersion: '3.1.0',
        requireClient: 'function',
        asyncDispose: 'function',
        closed: {
          resolved_threads: [101],
          not_existing_threads: [999999],
          already_resolved_threads: [],
          not_resolved_due_to_system_error: [],
        },
        scheduled: 'string',
        apiError: '400 cascade-not-found true',
        bigIds: ['9007199254740993'],
        bigMessageId: '9223372036854775807',
        callback: 'DELIVERED',
        badCallback: 'StatusCallbackError',
        docsPage: '200 text/html; charset=utf-8 true',
        servedDocumentEqual: true,
        state: 'closed',
        stateAfterReset: 'open',
        conformanceExit: 0,
      });
      expect(facts.preflight).toMatch(/^threadIds: got "nope"; expected it to be of type array/);
      expect(facts.fixtureKeys).toContain('sandbox-api-key');
      expect(facts.conformanceSummary).toMatch(/^\d+ passed, 0 failed$/);
      expect(facts.conformanceNoise).toEqual([]);
      // An app's request over the comment limit, through the checking proxy: the caller's break, the service sound.
      expect(facts.proxy).toEqual({ statuses: [200, 400], ok: false, caller: 1, service: 0 });
      expect(facts.trafficExit).toBe(1);
      expect(facts.trafficCause).toMatch(
        /^FAIL \[request-schema\] closeThreads: a request the document refuses \(comment-is-too-long\)/,
      );
      expect(facts.trafficHoldsToken).toBe(false);
      expect(facts.manualClock).toEqual({
        mode: 'manual',
        before: 0,
        now: '2099-01-16T09:00:00.000Z',
        statusAt: '2099-01-16T09:00:00.000Z',
        backwards: true,
      });
      expect(facts.binClock).toEqual({
        mode: 'manual',
        scheduled: 200,
        moved: '200 true',
        statusAtIsTomorrow: true,
        refused: '400 clock-request-not-valid',
      });
    },
    180_000,
  );
});

describe('the CI template for a service in any language (src/conformance/ci/conformance.sh)', () => {
  /** The shell script as a CI job runs it, against a Python service that forwards to the sandbox bin. */
  async function ciJob(broken: boolean) {
    const port = await freePort();
    const report = join(dir, `junit-${broken ? 'broken' : 'sound'}.xml`);
    const markdown = join(dir, `summary-${broken ? 'broken' : 'sound'}.md`);
    const service = `python3 ${join(projectRoot, 'test/ci/service.py')} --port ${port} --sandbox ${join(project, 'node_modules/.bin/messaging-sandbox')}${broken ? ' --break' : ''}`;
    const result = await exec('bash', [join(projectRoot, 'src/conformance/ci/conformance.sh')], {
      cwd: dir,
      env: {
        PATH: process.env.PATH!,
        HOME: process.env.HOME!,
        SERVICE_START: service,
        SERVICE_URL: `http://127.0.0.1:${port}`,
        READY_TIMEOUT: '60',
        // The tarball, with no package.json around it: npx installs it apart.
        CONFORMANCE_PACKAGE: tarballs.conformance,
        CONFORMANCE_REPORT: report,
        CONFORMANCE_MARKDOWN: markdown,
        CONFORMANCE_ARGS: `--reset-url http://127.0.0.1:${port}/_sandbox/reset`,
        MESSAGING_API_KEY: 'sandbox-api-key',
        MESSAGING_API_KEY_NO_BALANCE: 'sandbox-api-key-no-balance',
        MESSAGING_INTEGRATOR_TOKEN: 'sandbox-integrator-token',
      },
      timeout: 240_000,
    });
    // Stopped whatever happened: nothing listens on the service's port, no process of it is left.
    const listening = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    // pgrep exits 1 when it finds none.
    const left = await run('pgrep', ['-f', `service.py --port ${port}`]).then(
      (r) => r.stdout.trim(),
      (e: { code: number; stdout: string }) => (e.code === 1 ? '' : `pgrep failed: ${e.code}`),
    );
    return { ...result, report, markdown, listening, left };
  }

  it('a suite that cannot be fetched: exit 4, said as such, no report named, the service never started', async () => {
    const marker = join(dir, 'service-started');
    const result = await exec('bash', [join(projectRoot, 'src/conformance/ci/conformance.sh')], {
      cwd: dir,
      env: {
        PATH: process.env.PATH!,
        HOME: process.env.HOME!,
        SERVICE_START: `touch ${marker}`,
        SERVICE_URL: 'http://127.0.0.1:9',
        CONFORMANCE_PACKAGE: join(dir, 'no-such-conformance.tgz'),
      },
      timeout: 120_000,
    });
    expect(result.code, result.out).toBe(4);
    expect(result.out).toContain('the suite could not be fetched or started');
    expect(result.out).not.toContain('JUnit report is');
    expect(existsSync(marker)).toBe(false);
  }, 180_000);

  it('passes on the sound service: exit 0, the JUnit report written, the service stopped', async () => {
    const job = await ciJob(false);
    expect(job.code, job.out).toBe(0);
    expect(job.out).toMatch(/^\d+ passed, 0 failed$/m);
    expect(readFileSync(job.markdown, 'utf8')).toMatch(/^## ✅ Conformance passed: \d+ checks \(profile described\)\n/);
    expect(readFileSync(job.report, 'utf8')).toMatch(
      /<testsuites name="messaging-contract conformance" tests="\d+" failures="0">/,
    );
    expect(job.listening).toBe(false);
    expect(job.left).toBe('');
  }, 300_000);

  it('fails on a broken one: exit 1, the JUnit report and the Markdown summary name the failure, the service stopped', async () => {
    const job = await ciJob(true);
    expect(job.code, job.out).toBe(1);
    expect(job.out).toContain('Allow');
    expect(readFileSync(job.report, 'utf8')).toMatch(/failures="[1-9]\d*"/);
    // The summary a CI job page shows: the verdict, the cause of the missing Allow header and its replay.
    expect(job.out).toContain(`conformance.sh: the Markdown summary is ${job.markdown}`);
    const summary = readFileSync(job.markdown, 'utf8');
    expect(summary).toMatch(/^## ❌ Conformance failed: \d+ failed checks?, \d+ causes? \(profile described\)\n/);
    expect(summary).toMatch(/^### \d+\. .*Allow/m);
    expect(summary).toMatch(/\*\*replay:\*\*\n\n```sh\ncurl /);
    expect(summary).not.toContain('sandbox-api-key');
    expect(job.listening).toBe(false);
    expect(job.left).toBe('');
  }, 300_000);
});
