// Every code sample of the docs page runs against the sandbox: curl in a shell, the typed client
// under tsx (its import pointed at the sources), fetch under plain Node. Each must get a success
// answer valid against the document, so no sample can rot. Each sample names the variables it reads
// in its first lines, and the page's "Code samples" section says where each comes from. The console
// the sandbox adds to the page says, under each example, what it answers on a fresh sandbox and sent
// again: each of those notes is sent here, as the console sends it, and must hold.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openapi } from '../src/core/document.ts';
import { documentOperations } from '../src/core/examples.ts';
import { validator } from '../src/core/validators/all.ts';
import { codeSamples, sampleEnv, sampleExample, samplesSection, samplesSectionTitle } from '../src/docs/samples.ts';
import { consoleOperations } from '../src/sandbox/try-it.ts';
import { projectRoot } from '../src/paths.ts';
import { credentials, fixtures, useSandbox } from './helpers/sandbox.ts';

const run = promisify(execFile);
const sandbox = useSandbox();
const dir = mkdtempSync(join(tmpdir(), 'mc-samples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = () => ({
  ...process.env,
  [sampleEnv.baseUrl]: sandbox.url,
  [sampleEnv.apiKey]: credentials.apiKey,
  [sampleEnv.integratorToken]: credentials.integratorToken,
});
const cases = documentOperations().flatMap((op) =>
  codeSamples(op).map((sample) => [`${op.operationId} ${sample.label}`, op, sample] as const),
);

describe("the docs page's code samples run against the sandbox", () => {
  it('each operation has curl, the client and fetch', () => {
    expect(cases.map(([label]) => label.split(' ').slice(1).join(' '))).toEqual(
      documentOperations().flatMap(() => ['curl', '@messaging-contract/client', 'fetch']),
    );
  });

  it.each(cases)(
    '%s',
    async (_label, op, sample) => {
      sandbox.reset(); // each sample starts from the fixtures (a subscriber is created once)
      const valid = validator(sampleExample(op).responseSchemaPointer);
      if (sample.label === 'curl') {
        const { stdout } = await run('bash', ['-c', `set -euo pipefail\n${sample.source}`], { env: env() });
        const body = JSON.parse(stdout);
        expect(body.title, stdout).toBeUndefined();
        expect(valid(body).errors).toEqual([]);
      } else if (sample.label === 'fetch') {
        const file = join(dir, `${op.operationId}-fetch.mjs`);
        writeFileSync(file, sample.source);
        const { stdout } = await run(process.execPath, [file], { env: env() });
        expect(stdout).toMatch(/^200 /);
      } else {
        const file = join(dir, `${op.operationId}-client.mts`);
        writeFileSync(
          file,
          sample.source.replace(
            "'@messaging-contract/client'",
            JSON.stringify(join(projectRoot, 'src/client/index.ts')),
          ),
        );
        const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { env: env(), cwd: projectRoot });
        expect(stdout.length).toBeGreaterThan(0);
        if (op.operationId === 'scheduleCascade') expect(stdout).toMatch(/requestId: '[0-9a-f-]{36}'/);
        if (op.operationId === 'closeThreads') expect(stdout).toContain('resolved_threads: [ 101 ]');
      }
    },
    30_000,
  );
});

/** The variables a sample reads and does not set itself: `$NAME`/`${NAME}` in curl, `process.env.NAME` in JS. */
function variablesRead(source: string): string[] {
  const set = new Set([...source.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!));
  const read = [...source.matchAll(/\$\{?([A-Z][A-Z0-9_]*)|process\.env\.([A-Z][A-Z0-9_]*)/g)].map(
    (m) => (m[1] ?? m[2])!,
  );
  return [...new Set(read)].filter((name) => !set.has(name)).sort();
}
/** A sample's first comment lines, up to the one that names the page's section, without their markers. */
function header(source: string): string[] {
  const lines = source.split('\n');
  const end = lines.findIndex((line) => !/^(#|\/\/)/.test(line) || line.includes('Where each comes from'));
  return lines.slice(0, end + 1).map((line) => line.replace(/^(#|\/\/) ?/, ''));
}

describe('the samples say what each variable they read is, and the page where each comes from', () => {
  it('the curl sample of create subscriber and of close threads start with these lines', () => {
    const [createSubscriber, closeThreads] = ['createSubscriber', 'closeThreads'].map(
      (id) => codeSamples(documentOperations().find((op) => op.operationId === id)!)[0]!.source,
    );
    expect(createSubscriber!.split('\n').slice(0, 4)).toEqual([
      "# BASE_URL: the service's base URL, or the sandbox's",
      "# API_KEY: the account's API key (header x-api-key)",
      '# Where each comes from: "Code samples" in the docs',
      `curl -sS -X POST "$BASE_URL/api/subscribers/create" \\`,
    ]);
    expect(closeThreads!.split('\n').slice(0, 5)).toEqual([
      "# BASE_URL: the service's base URL, or the sandbox's",
      '# INTEGRATOR_TOKEN: a token of a user with the',
      '#   INTEGRATOR permission (Authorization: Bearer)',
      '# Where each comes from: "Code samples" in the docs',
      `curl -sS -X POST "$BASE_URL/api/v1/threads/close" \\`,
    ]);
  });

  it.each(cases)(
    '%s: its first lines name each variable it reads, and the section that says more',
    (_l, op, sample) => {
      const read = variablesRead(sample.source);
      // The variables the samples read are the ones the runs above set, and no other.
      expect(
        read.every((name) => Object.values(sampleEnv).includes(name as never)),
        read.join(),
      ).toBe(true);
      expect(read).toContain(sampleEnv.baseUrl);
      expect(read).toContain(op.security.includes('apiKey') ? sampleEnv.apiKey : sampleEnv.integratorToken);
      const lines = header(sample.source);
      for (const name of read)
        expect(
          lines.some((line) => line.startsWith(`${name}: `)),
          name,
        ).toBe(true);
      expect(lines.at(-1)).toBe(`Where each comes from: "${samplesSectionTitle}" in the docs`);
    },
  );

  it("the page's section names each variable, the document's servers, and the sandbox's own URL and credentials", () => {
    const section = samplesSection();
    expect(section.split('\n')[0]).toBe(`## ${samplesSectionTitle}`);
    const items = section.split('\n- ').slice(1);
    expect(items.map((item) => /^`([A-Z_]+)`/.exec(item)?.[1])).toEqual([
      sampleEnv.baseUrl,
      sampleEnv.apiKey,
      sampleEnv.integratorToken,
    ]);
    const [baseUrl, apiKey, token] = items;
    for (const server of openapi.servers as Array<{ url: string }>) expect(baseUrl).toContain(`\`${server.url}\``);
    expect(baseUrl).toContain('the sandbox serves this page, the address of this page without its path');
    expect(apiKey).toContain('`x-api-key` header (Create subscriber, Schedule cascade message)');
    for (const key of fixtures.apiKeys) expect(apiKey).toContain(`\`${key.key}\``);
    expect(apiKey).toContain('how keys are issued is not specified');
    expect(token).toContain(
      'permission `INTEGRATOR`\n  (Close threads). It is sent as `Authorization: Bearer <token>`',
    );
    expect(token).toContain('`POST /api/auth/login` with `{login, password}` [public docs]');
    expect(token).toContain(`\`${fixtures.integratorTokens[0]}\``);
  });
});

/** A request of the console, as its script sends it: the example's body, a new requestId unless told not to. */
async function sendLikeConsole(
  op: ReturnType<typeof consoleOperations>[number],
  ex: ReturnType<typeof consoleOperations>[number]['examples'][number],
  newRequestId = true,
): Promise<{ status: number; title: unknown }> {
  const body = newRequestId
    ? ex.body.replace(/("requestId"\s*:\s*)"(?:[^"\\]|\\.)*"/, (_, key) => key + JSON.stringify(crypto.randomUUID()))
    : ex.body;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const scheme of op.auth) {
    const typed =
      ex.credentials === 'invalid'
        ? 'not-a-valid-credential'
        : scheme.type === 'apiKey'
          ? ex.credentials === 'no-balance'
            ? credentials.apiKeyNoBalance!
            : credentials.apiKey
          : credentials.integratorToken;
    if (scheme.type === 'apiKey') headers[scheme.name!] = typed;
    else headers.authorization = `Bearer ${typed}`;
  }
  const send = () =>
    fetch(sandbox.url + ex.path, { method: ex.method, headers, body: ex.method === 'GET' ? undefined : body });
  if (ex.sendTwice) await (await send()).arrayBuffer();
  const response = await send();
  const text = await response.text();
  return { status: response.status, title: text ? (JSON.parse(text) as { title?: unknown }).title : undefined };
}

describe("the console's note under each example says what it answers on a fresh sandbox and sent again", () => {
  const examples = consoleOperations().flatMap((op) =>
    op.examples.map((ex) => [`${op.id} ${ex.name}`, op, ex] as const),
  );

  it('create subscriber "created": 200 on a fresh sandbox, then 400 subscriber-already-exists', () => {
    const created = examples.find(([label]) => label === 'createSubscriber created')![2];
    expect(created.note).toBe(
      "On a fresh sandbox this example answers 200. Sent again, it answers 400 subscriber-already-exists, as the example subscriberAlreadyExists shows: the first send changed the sandbox's state. Reset the sandbox to start over.",
    );
    const refused = examples.find(([label]) => label === 'createSubscriber tagNotFound')![2];
    expect(refused.note).toBe(
      'On a fresh sandbox this example answers 400; sent again, it answers 400 again: a refused request changes nothing in the sandbox.',
    );
  });

  it.each(examples)('%s', async (_label, op, ex) => {
    expect(ex.note).toContain(`On a fresh sandbox this example answers ${ex.status}`);
    sandbox.reset();
    expect((await sendLikeConsole(op, ex)).status, 'on a fresh sandbox').toBe(ex.status);
    const { again } = ex;
    if (again.kind === 'same') {
      expect((await sendLikeConsole(op, ex)).status, 'sent again').toBe(ex.status);
    } else if (again.kind === 'other') {
      expect(ex.note).toContain(`it answers ${again.status} ${again.title}, as the example ${again.example} shows`);
      if (again.sameRequestId) {
        // A new requestId (the console's default) answers as fresh; the same one again answers otherwise.
        expect((await sendLikeConsole(op, ex)).status, 'with a new requestId').toBe(ex.status);
        sandbox.reset();
        await sendLikeConsole(op, ex, false);
      }
      expect(await sendLikeConsole(op, ex, false), 'sent again').toEqual({ status: again.status, title: again.title });
    } else {
      // "may answer otherwise": an accepted request, which is what may change the sandbox's state.
      expect(ex.status).toBeLessThan(300);
      expect(ex.note).toContain('Sent again, it may answer otherwise');
    }
    sandbox.reset();
    expect((await sendLikeConsole(op, ex)).status, 'after a reset').toBe(ex.status);
  });
});
