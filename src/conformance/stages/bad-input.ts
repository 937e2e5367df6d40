// Stage bad-input: the protocol around the schemas: malformed JSON and bodies that are no object,
// other content types, unknown paths and methods, each of which must get an answer the document
// allows (expectations.ts), as a problem body; and a valid request with its media type written
// otherwise, which must be accepted. After each batch the server must still answer. The order is
// shuffled by --seed, so a run can be repeated exactly. (Bodies broken in one place against the
// schema are the boundaries stage's: one walker, core/edges.ts, makes them.)
import { openapi } from '../../core/document.ts';
import { examplePairs, documentOperations, responseKind, type Operation } from '../../core/examples.ts';
import {
  answerOf,
  check,
  perRun,
  runs,
  send,
  sendCase,
  type CheckResult,
  type Stage,
  type SuiteContext,
} from '../stage-runtime.ts';
import { acceptedExpectation, errorStatuses, kindOfStatuses } from '../expectations.ts';
import type { Expectation } from '../case.ts';
import { pairRequest, type PairRequest } from '../pairs.ts';
import { prepare, withFreshIdentifiers } from '../vars.ts';
import { probeExamples } from '../policy.ts';

export interface BadInput {
  name: string;
  operation: Operation;
  request: PairRequest;
  /** The answers the document allows (for a valid request in another form, its media type's: 200), its kind and where it says so. */
  expectation: Expectation;
}

/** A small seeded generator (mulberry32), so --seed repeats a run exactly. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Where the document decides what a request that is not JSON by its Content-Type gets: the Errors tag. */
const errorsTag = (openapi.tags as Array<{ name: string }>).findIndex((t) => t.name === 'Errors');
const contentTypeDecision = `#/tags/${errorsTag}/description ([contract decision]: a request whose Content-Type is not application/json gets an error)`;

export function badInputs(ctx: SuiteContext): BadInput[] {
  const inputs: BadInput[] = [];
  const seen = new Set<string>();
  for (const op of documentOperations()) {
    const pairs = examplePairs().filter(
      (p) => p.operation.operationId === op.operationId && p.paired && p.status === 200,
    );
    const template = pairs[0]!;
    const request = (body: string | undefined, extra: Partial<PairRequest> = {}): PairRequest => ({
      ...pairRequest(ctx.server, template, ctx.credentials, () => null),
      body,
      ...extra,
    });
    const add = (name: string, r: PairRequest, expectation: Expectation) => {
      const key = `${r.method} ${r.url} ${r.headers['content-type']} ${r.body}`;
      if (seen.has(key)) return;
      seen.add(key);
      inputs.push({
        name: `${op.operationId}: ${name}`,
        operation: op,
        request: r,
        expectation,
      });
    };
    const statuses = errorStatuses(op);
    const anyError = (basis: string, kind = kindOfStatuses(op, statuses)): Expectation => ({
      allowed: statuses.map((status) => ({ status })),
      kind,
      basis,
    });
    const malformed = anyError(`${op.pointer}/responses: a body that is not JSON gets a documented error`);
    for (const [name, body] of [
      ['malformed JSON', '{"'],
      ['truncated JSON', '{"threadIds": [1,'],
      ['not JSON', 'hello'],
      ['an empty body', ''],
      ['JSON null', 'null'],
      ['a JSON string', '"text"'],
      ['a JSON array', '[]'],
      ['a JSON number', '42'],
    ] as const) {
      add(name, request(body), malformed);
    }
    const valid = JSON.stringify(prepare(template, ctx.values).body);
    // The same media type written otherwise is the same request (RFC 9110 8.3.1: a media type is
    // case-insensitive and takes parameters; many clients send the charset): it must be accepted.
    for (const contentType of ['application/json; charset=utf-8', 'Application/JSON']) {
      const body = withFreshIdentifiers(op.operationId, prepare(template, ctx.values).body, { status: 200 });
      add(
        `a valid request with Content-Type ${contentType}`,
        request(JSON.stringify(body), { headers: { ...request(valid).headers, 'content-type': contentType } }),
        acceptedExpectation(
          op,
          [],
          `${op.pointer}/requestBody/content/application~1json (RFC 9110 8.3.1: the media type is case-insensitive and takes parameters)`,
        ),
      );
    }
    const otherType = anyError(contentTypeDecision, 'decision');
    add(
      'Content-Type text/plain',
      request(valid, { headers: { ...request(valid).headers, 'content-type': 'text/plain' } }),
      otherType,
    );
    add(
      'Content-Type form',
      request('a=1', { headers: { ...request(valid).headers, 'content-type': 'application/x-www-form-urlencoded' } }),
      otherType,
    );
    const only = (status: number, code: string): Expectation => ({
      allowed: [{ status, code }],
      kind: responseKind(op, status),
      basis: `${op.pointer}/responses/${status}`,
    });
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH'])
      add(
        `method ${method}`,
        request(method === 'GET' ? undefined : valid, { method }),
        only(405, 'method-not-allowed'),
      );
    for (const suffix of ['/extra', '-x', 'x/..x'])
      add(
        `unknown path ${op.path}${suffix}`,
        request(valid, { url: ctx.server.replace(/\/+$/, '') + op.path + suffix }),
        only(404, 'not-found'),
      );
  }
  const rnd = random(ctx.seed);
  for (let i = inputs.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [inputs[i], inputs[j]] = [inputs[j]!, inputs[i]!];
  }
  return inputs;
}

const batch = 50;
const selected = perRun((ctx) => badInputs(ctx).filter((input) => runs(ctx, input.expectation.kind)));

export const badInputStage: Stage = {
  name: 'bad-input',
  description:
    'malformed JSON, bodies that are no object, other content types, unknown paths and methods: each gets an error the document allows, as a problem body, and the server still answers after each batch; a valid request with its media type written otherwise (a charset, another case) is accepted',
  count: (ctx) => {
    const n = selected(ctx).length;
    return n + Math.ceil(n / batch);
  },
  async run(ctx: SuiteContext): Promise<CheckResult[]> {
    const inputs = selected(ctx);
    const results: CheckResult[] = [];
    for (let start = 0; start < inputs.length; start += batch) {
      for (const input of inputs.slice(start, start + batch)) {
        const { expectation, operation } = input;
        const single = expectation.allowed.length === 1 ? expectation.allowed[0]! : undefined;
        const covers = {
          operationId: operation.operationId,
          ...(single ? { status: single.status } : {}),
          ...(single?.code ? { code: single.code } : {}),
        };
        results.push(
          await check(
            ctx,
            { stage: 'bad-input', name: input.name, kind: expectation.kind, basis: expectation.basis, covers },
            () => sendCase(ctx, { operation, request: input.request, expectation }),
          ),
        );
      }
      // The server must still answer a valid request after each batch.
      const probe = probeExamples()[0]!;
      const spec = {
        stage: 'bad-input',
        name: `server still answers after ${Math.min(start + batch, inputs.length)} bad inputs`,
        kind: 'described' as const,
        basis: `${probe.operation.pointer}/responses/${probe.status}`,
      };
      results.push(
        await check(ctx, spec, async () => {
          const request = pairRequest(ctx.server, probe, ctx.credentials, () => prepare(probe, ctx.values).body);
          const { answer, error } = await send(ctx, request);
          return {
            ok: answer?.status === probe.status,
            request,
            expected: String(probe.status),
            actual: answer ? `${answer.status}` : `no answer: ${error}`,
            answer: answerOf(answer?.status),
          };
        }),
      );
    }
    return results;
  },
};
