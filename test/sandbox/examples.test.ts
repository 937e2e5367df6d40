// Every example pair of the document holds against the sandbox (state reset before each), each
// response valid against its schema; the pairs with a schema-valid request also pass through
// `prism proxy --errors`, an independent check of every response.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgePair, pairRequest } from '../../src/conformance/pairs.ts';
import { startPrism, type RunningPrism } from '../../src/mock/prism.ts';
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

describe('example pairs against the sandbox', () => {
  it.each(pairs.map((p) => [`${p.operation.operationId} ${p.status} ${p.name}`, p] as const))('%s', async (_label, pair) => {
    sandbox.state.reset();
    const verdict = await judgePair(pair, await send(sandbox.url, pair));
    expect(verdict.problems).toEqual([]);
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
