// Stage bad-input: the protocol around the schemas (the stage's description says what is sent), each answer one the
// document allows (expectations.ts). The order is shuffled by --seed, so a run can be repeated exactly. (Bodies broken
// in one place against the schema are the boundaries stage's: one walker, core/edges.ts, makes them.)
import fc from 'fast-check';
import { openapi } from '../../core/document.ts';
import { documentOperations, responseKind, successExamples } from '../../core/examples.ts';
import { caseCheck, planStage, runs, type Planned, type SuiteContext } from '../suite/context.ts';
import {
  acceptedExpectation,
  anyError,
  documentsDefault,
  missingCredential,
  statusExpectation,
} from '../document/expectations.ts';
import { credentialHeader } from '../document/route.ts';
import type { Expectation } from '../ground/model.ts';
import { pairRequest, type PairRequest } from '../document/pairs.ts';
import { prepare } from '../suite/vars.ts';
import { serialize, type Json } from '../../core/digits.ts';
import { probeExamples } from '../document/policy.ts';

/** Where the document decides what a request that is not JSON by its Content-Type gets: the Errors tag. */
const errorsTag = (openapi.tags as Array<{ name: string }>).findIndex((t) => t.name === 'Errors');
const contentTypeDecision = `#/tags/${errorsTag}/description ([contract decision]: a request whose Content-Type is not application/json gets an error)`;

/** Bodies that are not JSON, or JSON that is no object. */
const notObjects = {
  'malformed JSON': '{"',
  'truncated JSON': '{"threadIds": [1,',
  'not JSON': 'hello',
  'an empty body': '',
  'JSON null': 'null',
  'a JSON string': '"text"',
  'a JSON array': '[]',
  'a JSON number': '42',
};

/** How many bad inputs are sent before a valid request the server must still answer. */
const batch = 50;

/** The bad inputs in an order --seed shuffles, and after each batch of them, a check that the server still answers. */
export function badInputs(ctx: SuiteContext): Planned[] {
  const inputs: Planned[] = [];
  const seen = new Set<string>();
  for (const op of documentOperations()) {
    const template = successExamples(op)[0]!;
    const base = pairRequest(ctx.server, template, ctx.credentials, null);
    const request = (body: string | undefined, extra: Partial<PairRequest> = {}) => ({ ...base, body, ...extra });
    const typed = (body: string, type: string) => request(body, { headers: { ...base.headers, 'content-type': type } });
    const add = (name: string, r: PairRequest, e: Expectation) => {
      const key = `${r.method} ${r.url} ${JSON.stringify(r.headers)} ${r.body}`;
      if (seen.has(key)) return;
      seen.add(key);
      // One allowed answer is the one this check covers.
      const covers = { operationId: op.operationId, ...(e.allowed.length === 1 ? e.allowed[0] : {}) };
      inputs.push(caseCheck(ctx, `${op.operationId}: ${name}`, { operation: op, request: r, expectation: e }, covers));
    };
    const malformed = anyError(op, `${op.pointer}/responses/500 (a body that is not JSON: any documented error)`);
    for (const [name, body] of Object.entries(notObjects)) add(name, request(body), malformed);
    // Each valid body with values taken once of its own (prepare makes them new).
    const fresh = () => serialize(prepare(template, ctx.values).body as Json);
    const valid = fresh();
    // The same media type written otherwise is the same request (many clients send the charset): it must be accepted.
    const basis = `${op.pointer}/requestBody/content/application~1json (RFC 9110 8.3.1: the media type is case-insensitive and takes parameters)`;
    const sameType = acceptedExpectation(op, [], basis);
    for (const type of ['application/json; charset=utf-8', 'Application/JSON'])
      add(`a valid request with Content-Type ${type}`, typed(fresh(), type), sameType);
    // "Gets an error": any error, where the operation documents `default` (a 415 too).
    const otherType = { ...anyError(op, contentTypeDecision, 'decision'), otherErrors: documentsDefault(op) };
    add('Content-Type text/plain', typed(valid, 'text/plain'), otherType);
    add('Content-Type form', typed('a=1', 'application/x-www-form-urlencoded'), otherType);
    // Each credential the operation needs left out (Schemathesis's ignored_auth): never accepted.
    for (const scheme of op.security) {
      const { [credentialHeader(scheme)]: _, ...headers } = base.headers;
      add(
        `a valid request without its ${scheme} credential`,
        request(fresh(), { headers }),
        missingCredential(op, ctx.profile),
      );
    }
    const only = (status: number, code: string): Expectation => ({
      allowed: [{ status, code }],
      kind: responseKind(op, status),
      basis: `${op.pointer}/responses/${status}`,
    });
    const notAllowed = only(405, 'method-not-allowed');
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH'])
      add(`method ${method}`, request(method === 'GET' ? undefined : valid, { method }), notAllowed);
    for (const suffix of ['/extra', '-x', 'x/..x']) {
      const url = ctx.server.replace(/\/+$/, '') + op.path + suffix;
      add(`unknown path ${op.path}${suffix}`, request(valid, { url }), only(404, 'not-found'));
    }
  }
  // In the order the seed gives (fast-check's shuffle), so a run repeats exactly.
  const shuffle = fc.shuffledSubarray(inputs, { minLength: inputs.length });
  const [shuffled] = fc.sample(shuffle, { seed: ctx.seed, numRuns: 1 });
  // Those of the profile, and after each batch of them a valid request the server must still answer.
  const probe = probeExamples()[0]!;
  const still = (n: number) =>
    caseCheck(ctx, `server still answers after ${n} bad inputs`, {
      operation: probe.operation,
      request: pairRequest(ctx.server, probe, ctx.credentials, prepare(probe, ctx.values).body),
      expectation: statusExpectation(probe.operation, probe.status),
    });
  const selected = shuffled!.filter((input) => runs(ctx, input.kind));
  const last = (i: number) => (i + 1) % batch === 0 || i === selected.length - 1;
  return selected.flatMap((input, i) => (last(i) ? [input, still(i + 1)] : [input]));
}

export const badInputStage = planStage(
  'bad-input',
  'malformed JSON, bodies that are no object, other content types, unknown paths and methods, a credential left out: each gets an error the document allows, as a problem body, and the server still answers after each batch; a valid request with its media type written otherwise (a charset, another case) is accepted',
  badInputs,
);
