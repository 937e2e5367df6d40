// The suite must fail against a server that breaks the contract in any one way: a proxy in front
// of an implementation breaks it one way at a time, and the whole suite (default profile, no reset
// hook) runs against a freshly started implementation for each. The breaks are written against
// the contract (paths, statuses, codes, the requests sent), never against one implementation's
// texts, so the same list runs against the sandbox and against the independent implementation.
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite, suiteContext } from '../../src/conformance/suite.ts';
import { summary } from '../../src/conformance/report.ts';
import type { Credentials } from '../../src/conformance/pairs.ts';
import { startMutatingProxy, type Mutation } from '../helpers/mutating-proxy.ts';

/** An implementation under test: a fresh one per start, and what the suite needs to reach it. */
export interface Implementation {
  name: string;
  start(): Promise<{ url: string; close(): Promise<void> }>;
  credentials: Credentials;
  values: Record<string, unknown>;
}

const isThreads = (x: { path: string }) => x.path === '/api/v1/threads/close';
const isSchedule = (x: { path: string }) => x.path === '/api/cascade/schedule';
const lists = ['resolved_threads', 'not_existing_threads', 'already_resolved_threads', 'not_resolved_due_to_system_error'];
const fieldCodes = /not-specified|too-long|not-valid$|button-validation|mm-api|template-parameter/;
const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};
const extUserId = (requestBody: string): string | undefined => {
  try {
    return (JSON.parse(requestBody) as { addresses?: Array<{ type?: string; address?: string }> }).addresses?.find((a) => a?.type === 'EXT_USER_ID')?.address;
  } catch {
    return undefined;
  }
};

/** Each break, made fresh for a run (some remember what they saw). */
export const mutations: Array<[string, () => Mutation]> = [
  ['int64 thread ids written as strings', () => (x) => (isThreads(x) && x.status === 200 ? { body: Object.fromEntries(Object.entries(x.body).map(([k, v]) => [k, lists.includes(k) && Array.isArray(v) ? v.map(String) : v])) } : undefined)],
  ['a missing result list', () => (x) => (isThreads(x) && x.status === 200 ? { body: { ...x.body, not_resolved_due_to_system_error: undefined } } : undefined)],
  ['a thread reported in two lists', () => (x) => (isThreads(x) && x.status === 200 ? { body: { ...x.body, not_existing_threads: [...x.body.not_existing_threads, ...x.body.resolved_threads, ...x.body.already_resolved_threads] } } : undefined)],
  ['a closed thread reported as resolved again', () => (x) => (isThreads(x) && x.status === 200 ? { body: { ...x.body, resolved_threads: [...x.body.resolved_threads, ...x.body.already_resolved_threads], already_resolved_threads: [] } } : undefined)],
  ['a wrong title', () => (x) => (x.body?.title === 'auth-error' ? { body: { ...x.body, title: 'unauthorized' } } : undefined)],
  ['a wrong status', () => (x) => (x.status === 401 ? { status: 403, body: { ...x.body, status: 403 } } : undefined)],
  ['200 for an invalid request', () => (x) => (isSchedule(x) && x.status === 400 && fieldCodes.test(x.body?.title) ? { status: 200, body: { requestId: '5b1c7a8e-3f2d-4c6b-9a0e-1d2f3a4b5c6d' } } : undefined)],
  ['a reused requestId accepted', () => (x) => (x.body?.title === 'requestId-is-not-unique' ? { status: 200, body: { requestId: JSON.parse(x.requestBody).requestId } } : undefined)],
  ['a problem without its status field', () => (x) => (x.status >= 400 ? { body: { title: x.body?.title, detail: x.body?.detail } } : undefined)],
  ['a wrong content type', () => (x) => (x.status === 200 ? { contentType: 'text/plain' } : undefined)],
  ['a violation missing from detail', () => (x) => (typeof x.body?.detail === 'string' && x.body.detail.includes('Violations:') ? { body: { ...x.body, detail: x.body.detail.replace(/;[^;[]*\[[^\]]*\]$/, '') } } : undefined)],
  ['a 500 for a request past a limit that has a code', () => (x) => (x.status === 400 && fieldCodes.test(x.body?.title) ? { status: 500, body: { title: 'system-error', status: 500 } } : undefined)],
  ['404 answered with an HTML page', () => (x) => (x.status === 404 ? { status: 200, contentType: 'text/html', body: '<html>Not here</html>' } : undefined)],
  ['405 answered as 404', () => (x) => (x.status === 405 ? { status: 404, body: { title: 'not-found', status: 404 } } : undefined)],
  ['the connection dropped on malformed JSON', () => (x) => (x.path.startsWith('/api/') && x.method === 'POST' && !isJson(x.requestBody) ? 'drop' : undefined)],
  ['a second subscriber with the same external identifier accepted', () => {
    const created = new Set<string>();
    return (x) => {
      if (x.path !== '/api/subscribers/create') return undefined;
      const id = extUserId(x.requestBody);
      if (id === undefined) return undefined;
      if (x.status === 200) created.add(id);
      else if (created.has(id)) return { status: 200, body: {} };
      return undefined;
    };
  }],
  ['the validation code renamed', () => (x) => (/^cascade-scheduling-request-(is-)?not-valid$/.test(x.body?.title ?? '') ? { body: { ...x.body, title: 'cascade-request-invalid' } } : undefined)],
  ['an out-of-balance account accepted', () => (x) => (x.body?.title === 'out-of-balance' ? { status: 200, body: { requestId: JSON.parse(x.requestBody).requestId } } : undefined)],
];

/** The mutation test against one implementation: unbroken it passes twice, each break fails the run. */
export function mutationTest(impl: Implementation): void {
  const killed: string[] = [];
  const runThrough = async (mutation: Mutation, runs: number) => {
    const server = await impl.start();
    const proxy = await startMutatingProxy(server.url, mutation);
    try {
      const reports = [];
      for (let i = 0; i < runs; i++) reports.push(await runSuite(suiteContext({ server: proxy.url, credentials: impl.credentials, values: impl.values, seed: i + 1, mock: false, log: () => {} })));
      return reports;
    } finally {
      await proxy.close();
      await server.close();
    }
  };

  describe(`mutation test against ${impl.name}`, () => {
    it('unbroken, a freshly started implementation passes twice in a row with no reset (so each failure below is the break\'s)', async () => {
      for (const report of await runThrough(() => undefined, 2)) expect(report.ok, summary(report)).toBe(true);
    }, 60_000);

    it.each(mutations)('fails on: %s', async (name, make) => {
      const [report] = await runThrough(make(), 1);
      const failed = report!.results.filter((r) => !r.ok);
      if (!report!.ok) killed.push(`${name} (caught by ${[...new Set(failed.map((f) => f.stage))].join(', ')})`);
      expect(report!.ok, `${name}: no check failed`).toBe(false);
      expect(failed.length).toBeGreaterThan(0);
    }, 60_000);

    afterAll(() => {
      console.log(`mutation score against ${impl.name}: ${killed.length}/${mutations.length} breaks of the contract caught\n  ${killed.join('\n  ')}`);
    });
  });
}
