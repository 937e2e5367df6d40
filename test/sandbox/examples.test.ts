// Every example pair of the document holds against the sandbox (state reset before each), each
// response valid against its schema; the pairs with a schema-valid request also pass through
// `prism proxy --errors`, an independent check of every response.
import { documentAjv } from '../../src/build/ajv.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairCase, pairRequest } from '../../src/conformance/document/pairs.ts';
import { judgeAnswer } from '../../src/conformance/judge.ts';
import { pairExpectation } from '../../src/conformance/document/expectations.ts';
import { parseAnswer } from '../../src/conformance/ground/transport.ts';
import { startPrism, type RunningPrism } from '../../src/mock/prism.ts';
import { resolvePointer } from '../../src/core/document.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/paths.ts';
import { examplePairs } from '../../src/core/examples.ts';
import { validator } from '../../src/core/validators/all.ts';
import { freePort } from '../../src/util/wait.ts';
import { credentials, useSandbox } from '../helpers/sandbox.ts';

const pairs = examplePairs();
const sandbox = useSandbox();
let proxy: RunningPrism;

beforeAll(async () => {
  proxy = await startPrism({
    port: await freePort(),
    mode: 'proxy',
    upstream: sandbox.url,
    args: ['--errors', '-v', 'error'],
  });
});
afterAll(async () => {
  await proxy?.stop();
});

const send = (baseUrl: string, pair: (typeof pairs)[number]) => {
  const request = pairRequest(baseUrl, pair, credentials);
  return fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
};
/** The suite's checks on the pair's answer, holding the example's own answer (the strict profile's expectation). */
const faultsOf = (pair: (typeof pairs)[number], answer: Awaited<ReturnType<typeof answerOf>>) =>
  judgeAnswer(
    pairCase(pair, pairRequest('http://unused', pair, credentials), pairExpectation(pair, 'strict')),
    answer,
    'strict',
  );
/** A fetch answer as the suite's checks read it. */
const answerOf = async (res: Response) =>
  parseAnswer(res.status, res.headers.get('content-type') ?? '', await res.text(), Object.fromEntries(res.headers));

/** HTTP's own headers; any other header the sandbox sends must be one the document declares for the answer. */
const transport = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
function declaredHeaders(pair: (typeof pairs)[number]): string[] {
  const raw = (resolvePointer(pair.operation.pointer) as { responses: Record<string, { $ref?: string }> }).responses[
    String(pair.status)
  ]!;
  const response = (raw.$ref ? resolvePointer(raw.$ref) : raw) as { headers?: Record<string, unknown> };
  return Object.keys(response.headers ?? {}).map((h) => h.toLowerCase());
}

describe('example pairs against the sandbox', () => {
  it.each(pairs.map((p) => [`${p.operation.operationId} ${p.status} ${p.name}`, p] as const))(
    '%s',
    async (_label, pair) => {
      sandbox.state.reset();
      const res = await send(sandbox.url, pair);
      expect(
        [...res.headers.keys()].filter((h) => !transport.has(h) && !declaredHeaders(pair).includes(h)),
        'headers the document does not declare',
      ).toEqual([]);
      const answer = await answerOf(res);
      expect(faultsOf(pair, answer)).toEqual([]);
      // The pair shows what the reference implementation answers: the code as spelled, not an alias.
      expect((answer.body as { title?: string } | undefined)?.title).toBe(
        (pair.response as { title?: string } | undefined)?.title,
      );
    },
  );

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

  it.each(valid.map((p) => [`${p.operation.operationId} ${p.status} ${p.name}`, p] as const))(
    '%s: no violation',
    async (_label, pair) => {
      sandbox.state.reset();
      const res = await send(proxy.url, pair);
      expect(res.headers.get('sl-violations')).toBeNull();
      expect(faultsOf(pair, await answerOf(res))).toEqual([]);
    },
  );
});

// A generic validator that asserts every format it knows (ajv with ajv-formats, and Prism), on
// answers whose inputs the examples do not show: a requestId that is no UUID, int64 ids past 2^53.
describe('what a generic validator asserting formats reads in the document', () => {
  const ajv = documentAjv();
  ajv.addSchema(JSON.parse(readFileSync(join(projectRoot, 'generated/openapi.json'), 'utf8')), 'doc');
  const validate = (pointer: string, value: unknown) => {
    const check = ajv.compile({ $ref: `doc${pointer}` });
    return check(value) ? [] : check.errors;
  };
  const cases = [
    [
      'scheduleCascade',
      'a requestId that is no UUID',
      (body: any) => ({ ...body, requestId: `order-1234-attempt-${Date.now()}` }),
      200,
    ],
    [
      'scheduleCascade',
      'a cascade id past 2^53',
      (body: any) => ({ ...body, requestId: crypto.randomUUID(), cascadeId: 9007199254740994 }),
      400,
    ],
    ['closeThreads', 'a thread id past 2^53', (body: any) => ({ ...body, threadIds: [9007199254740994] }), 200],
  ] as const;
  const sendWith = (baseUrl: string, operationId: string, change: (body: any) => unknown) => {
    const pair = pairs.find((p) => p.operation.operationId === operationId && p.status === 200)!;
    const body = change(structuredClone(pair.requestBody));
    const sent = pairRequest(baseUrl, { ...pair, requestBody: body }, credentials);
    return { pair, body, answer: fetch(sent.url, { method: sent.method, headers: sent.headers, body: sent.body }) };
  };

  it.each(cases)(
    '%s, %s: request and answer valid for ajv with ajv-formats',
    async (operationId, _what, change, status) => {
      sandbox.state.reset();
      const { pair, body, answer } = sendWith(sandbox.url, operationId, change);
      expect(validate(pair.operation.requestSchemaPointer!, body)).toEqual([]);
      const res = await answer;
      expect(res.status).toBe(status);
      const responsePointer = `${pair.operation.pointer}/responses/${status}`;
      const response = resolvePointer(responsePointer) as { $ref?: string };
      const schema = `${response.$ref ? response.$ref.slice(1) : responsePointer}/content/application~1json/schema`;
      expect(validate(schema, await res.json())).toEqual([]);
    },
  );

  it('prism proxy --errors: a requestId that is no UUID passes', async () => {
    sandbox.state.reset();
    const res = await sendWith(proxy.url, 'scheduleCascade', cases[0][2]).answer;
    expect(res.headers.get('sl-violations')).toBeNull();
    expect(res.status).toBe(200);
  });

  // Prism (@stoplight/http-spec, oas/transformers/schema/keywords/format.js) turns `format: int64`
  // into a maximum of 2^53 - 1, a bound of JavaScript numbers that no document states
  // (stoplightio/prism#1992). The proxy refuses such ids for that reason alone: when Prism lifts
  // the bound, this test fails and the README's note on the mock goes.
  it.each(cases.slice(1))(
    "prism proxy --errors, %s, %s: refused only by Prism's own bound of 2^53 - 1",
    async (operationId, _what, change) => {
      sandbox.state.reset();
      const res = await sendWith(proxy.url, operationId, change).answer;
      expect(res.status).toBe(422);
      const { validation } = (await res.json()) as { validation: Array<{ code: string; message: string }> };
      expect(validation.map((v) => v.code)).toEqual(['maximum']);
      expect(validation[0]!.message).toMatch(/must be <= 9007199254740991$/);
    },
  );
});
