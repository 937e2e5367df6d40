// The suite must fail against a server that breaks the contract in any one way: a proxy in front
// of the sandbox breaks it one way at a time, and the whole suite runs against each.
import { afterAll, describe, expect, it } from 'vitest';
import type { SuiteContext } from '../../src/conformance/context.ts';
import { runSuite, suiteContext } from '../../src/conformance/suite.ts';
import { credentials, useSandbox } from '../helpers/sandbox.ts';
import { startMutatingProxy, type Mutation } from '../helpers/mutating-proxy.ts';

const isThreads = (x: { path: string }) => x.path === '/api/v1/threads/close';
const isSchedule = (x: { path: string }) => x.path === '/api/cascade/schedule';
const fieldCodes = /not-specified|too-long|not-valid$|button-validation|mm-api|template-parameter/;

const mutations: Array<[string, Mutation]> = [
  ['thread ids as strings in an int64 list', (x) => (isThreads(x) && x.status === 200 ? { body: { ...x.body, resolved_threads: x.body.resolved_threads.map(String) } } : undefined)],
  ['a missing result list', (x) => (isThreads(x) && x.status === 200 ? { body: { ...x.body, not_resolved_due_to_system_error: undefined } } : undefined)],
  ['a thread reported in two lists', (x) => (isThreads(x) && x.status === 200 ? { body: { ...x.body, not_existing_threads: [...x.body.not_existing_threads, ...x.body.resolved_threads] } } : undefined)],
  ['a closed thread reported as resolved again', (x) => (isThreads(x) && x.status === 200 ? { body: { ...x.body, resolved_threads: [...x.body.resolved_threads, ...x.body.already_resolved_threads], already_resolved_threads: [] } } : undefined)],
  ['a wrong title', (x) => (x.body?.title === 'auth-error' ? { body: { ...x.body, title: 'unauthorized' } } : undefined)],
  ['a wrong status', (x) => (x.status === 401 ? { status: 403, body: { ...x.body, status: 403 } } : undefined)],
  ['200 for an invalid request', (x) => (isSchedule(x) && x.status === 400 && fieldCodes.test(x.body?.title) ? { status: 200, body: { requestId: '5b1c7a8e-3f2d-4c6b-9a0e-1d2f3a4b5c6d' } } : undefined)],
  ['a reused requestId accepted', (x) => (x.body?.title === 'requestId-is-not-unique' ? { status: 200, body: { requestId: JSON.parse(x.requestBody).requestId } } : undefined)],
  ['a problem without its status field', (x) => (x.status >= 400 ? { body: { title: x.body?.title, detail: x.body?.detail } } : undefined)],
  ['a wrong content type', (x) => (x.status === 200 ? { contentType: 'text/plain' } : undefined)],
  ['a violation missing from detail', (x) => (typeof x.body?.detail === 'string' && x.body.detail.includes('Violations:') ? { body: { ...x.body, detail: x.body.detail.replace(/;[^;[]*\[[^\]]*\]$/, '') } } : undefined)],
  ['a 500 on bad input that has a code', (x) => (x.status === 400 && fieldCodes.test(x.body?.title) ? { status: 500, body: { title: 'system-error', status: 500 } } : undefined)],
  ['404 answered with an HTML page', (x) => (x.status === 404 ? { status: 200, contentType: 'text/html', body: '<html>Not here</html>' } : undefined)],
  ['405 answered as 404', (x) => (x.status === 405 ? { status: 404, body: { title: 'not-found', status: 404 } } : undefined)],
  ['the connection dropped on malformed JSON', (x) => (x.status === 500 && /not valid JSON/.test(x.body?.detail ?? '') ? 'drop' : undefined)],
  ['a second subscriber with the same external identifier accepted', (x) => (x.body?.title === 'subscriber-already-exists' ? { status: 200, body: {} } : undefined)],
  ['the validation code renamed', (x) => (x.body?.title === 'cascade-scheduling-request-not-valid' ? { body: { ...x.body, title: 'cascade-request-invalid' } } : undefined)],
  ['an out-of-balance account accepted', (x) => (x.body?.title === 'out-of-balance' ? { status: 200, body: { requestId: JSON.parse(x.requestBody).requestId } } : undefined)],
];

const sandbox = useSandbox();

const context = (server: string): SuiteContext => suiteContext({ server, credentials, values: {}, seed: 1, mock: false, profile: 'strict', log: () => {} });
const killed: string[] = [];

describe('mutation test', () => {
  it('the unbroken proxy passes (so each failure below is the mutation\'s)', async () => {
    const proxy = await startMutatingProxy(sandbox.url, () => undefined);
    try {
      const report = await runSuite(context(proxy.url));
      expect(report.results.filter((r) => !r.ok)).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it.each(mutations)('fails on: %s', async (name, mutation) => {
    const proxy = await startMutatingProxy(sandbox.url, mutation);
    try {
      const report = await runSuite(context(proxy.url));
      const failed = report.results.filter((r) => !r.ok);
      if (!report.ok) killed.push(`${name} (caught by ${[...new Set(failed.map((f) => f.stage))].join(', ')})`);
      expect(report.ok, `${name}: no check failed`).toBe(false);
      expect(failed.length).toBeGreaterThan(0);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  afterAll(() => {
    console.log(`mutation score: ${killed.length}/${mutations.length} breaks of the contract caught\n  ${killed.join('\n  ')}`);
  });
});
