// Every example pair of the document holds against the sandbox (state reset before each), each
// response valid against its schema; the pairs with a schema-valid request also pass through
// `prism proxy --errors`, an independent check of every response.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgePair, pairRequest } from '../../src/conformance/pairs.ts';
import { startPrism, type RunningPrism } from '../../src/mock/prism.ts';
import { resolvePointer } from '../../src/core/document.ts';
import { examplePairs } from '../../src/core/examples.ts';
import { validator } from '../../src/core/validators/all.ts';
import { freePort } from '../../src/util/wait.ts';
import { credentials, useSandbox } from '../helpers/sandbox.ts';

const pairs = examplePairs();
const sandbox = useSandbox();
let proxy: RunningPrism;

beforeAll(async () => {
  proxy = await startPrism({ port: await freePort(), mode: 'proxy', upstream: sandbox.url, args: ['--errors', '-v', 'error'] });
});
afterAll(async () => {
  await proxy?.stop();
});

const send = (baseUrl: string, pair: (typeof pairs)[number]) => {
  const request = pairRequest(baseUrl, pair, credentials);
  return fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
};

/** HTTP's own headers; any other header the sandbox sends must be one the document declares for the answer. */
const transport = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
function declaredHeaders(pair: (typeof pairs)[number]): string[] {
  const raw = ((resolvePointer(pair.operation.pointer) as { responses: Record<string, { $ref?: string }> }).responses[String(pair.status)])!;
  const response = (raw.$ref ? resolvePointer(raw.$ref) : raw) as { headers?: Record<string, unknown> };
  return Object.keys(response.headers ?? {}).map((h) => h.toLowerCase());
}

describe('example pairs against the sandbox', () => {
  it.each(pairs.map((p) => [`${p.operation.operationId} ${p.status} ${p.name}`, p] as const))('%s', async (_label, pair) => {
    sandbox.state.reset();
    const res = await send(sandbox.url, pair);
    const sent: string[] = [];
    res.headers.forEach((_value, name) => sent.push(name));
    expect(sent.filter((h) => !transport.has(h) && !declaredHeaders(pair).includes(h)), 'headers the document does not declare').toEqual([]);
    const verdict = await judgePair(pair, res);
    expect(verdict.problems).toEqual([]);
    // The pair shows what the reference implementation answers: the code as spelled, not an alias.
    expect((verdict.body as { title?: string } | undefined)?.title).toBe((pair.response as { title?: string } | undefined)?.title);
  });

  it('the 405 answer carries the Allow header its response declares', async () => {
    const pair = pairs.find((p) => p.status === 405)!;
    expect(declaredHeaders(pair)).toEqual(['allow']);
    expect((await send(sandbox.url, pair)).headers.get('allow')).toBe('POST');
  });
});

const valid = pairs.filter((p) => {
  const body = p.trigger.rawBody === undefined && p.trigger.path === undefined && p.trigger.method === undefined;
  return body && validator(p.operation.requestSchemaPointer!)(p.requestBody).valid;
});

describe('through prism proxy --errors', () => {
  it('covers most pairs', () => {
    expect(valid.length).toBeGreaterThanOrEqual(25);
  });

  it.each(valid.map((p) => [`${p.operation.operationId} ${p.status} ${p.name}`, p] as const))('%s: no violation', async (_label, pair) => {
    sandbox.state.reset();
    const res = await send(proxy.url, pair);
    expect(res.headers.get('sl-violations')).toBeNull();
    const verdict = await judgePair(pair, res);
    expect(verdict.problems).toEqual([]);
  });
});
