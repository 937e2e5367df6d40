// What the document allows as the answer to a request, and which part of it says so. Where the description allows
// several answers, the default profile accepts each; the contract's own choice among them is a decision, held only
// under --profile strict.
import { sameErrorCode } from '../../core/error-codes.ts';
import { examplePairs, responseKind, successExamples } from '../../core/examples.ts';
import { resolvePointer } from '../../core/document.ts';
import type { ExamplePair, ExpectationKind, Operation } from '../../core/examples.ts';
import { escapePointer } from '../../core/pointers.ts';
import { documentViolation, schemaViolation } from '../../core/schema-violations.ts';
import { openPoint, pointAt, pointBasis, type OpenPoint } from '../../core/open-points.ts';
import { pattern, uuidShaped, type Path } from '../../core/edges.ts';
import { parsed, type Json } from '../../core/digits.ts';
import type { Allowed, Expectation, Profile } from '../ground/model.ts';
import { businessAnswers, documentedStatuses, documentsDefault, responsePointer } from './policy.ts';
import { otherReadings } from './readings.ts';

export { documentedStatuses, documentsDefault } from './policy.ts';

const titleOf = (pair: ExamplePair) => (pair.response as { title?: string } | undefined)?.title;
const unique = (allowed: Allowed[]) =>
  allowed.filter((a, i) => allowed.findIndex((b) => b.status === a.status && b.code === a.code) === i);

/** `decision` when any of the statuses allowed is one the description does not state for the operation. */
const kindOf = (op: Operation, allowed: Allowed[]): ExpectationKind =>
  allowed.some((a) => responseKind(op, a.status) === 'decision') ? 'decision' : 'described';

/** Any error status the document lists for the operation, as a problem body. */
export function anyError(op: Operation, basis: string, kind?: ExpectationKind): Expectation {
  const allowed = documentedStatuses(op).flatMap((status) => (status >= 400 ? [{ status }] : []));
  return { allowed, kind: kind ?? kindOf(op, allowed), basis };
}

/** One field's code, or the 500 the open point `malformed-property` allows too: strict holds its decision alone. */
function codeOr500(op: Operation, exact: Allowed, basis: string, profile: Profile): Expectation {
  const point = openPoint('malformed-property', ['property-code', 'system-error'] as const);
  const allowed = (profile === 'strict' ? [point.decision] : point.answers).map((a) =>
    a === 'property-code' ? exact : { status: 500, code: 'system-error' },
  );
  const kind = profile === 'strict' ? 'decision' : kindOf(op, allowed);
  const others = allowedBesides(point, [exact], [{ status: 500, code: 'system-error' }], profile);
  return { allowed, kind, basis: `${basis}; ${pointBasis(point)}`, ...others };
}

/**
 * Under strict, what the open point's other answers allow besides its decision's (`decided`; `other` is the other
 * answer's), so that an answer among them is named as breaking that decision alone.
 */
function allowedBesides(
  point: OpenPoint,
  decided: Allowed[],
  other: Allowed[],
  profile: Profile,
  otherErrors = false,
): Pick<Expectation, 'openAnswers'> {
  if (profile !== 'strict') return {};
  const allowed = other.filter((o) => !decided.some((d) => d.status === o.status && d.code === o.code));
  return allowed.length || otherErrors ? { openAnswers: [{ point: point.id, allowed, otherErrors }] } : {};
}

/** A refusal whose code the description leaves open (an `any-error` open point): any error, strict its decision. */
function refusal(op: Operation, exact: Allowed, basis: string, profile: Profile): Expectation | undefined {
  const at = pointAt(responsePointer(op, exact.status), 'any-error');
  if (!at) return undefined;
  const point = openPoint(at.id, ['documented-code', 'any-error'] as const);
  // Any error: the statuses too are not shown, so any error status where the operation documents `default`.
  const any = { ...anyError(op, pointBasis(point), 'described'), otherErrors: documentsDefault(op) };
  if (profile !== 'strict') return any;
  if (point.decision === 'any-error') return { ...any, kind: 'decision' };
  const others = allowedBesides(point, [exact], any.allowed, profile, any.otherErrors);
  return { allowed: [exact], kind: 'decision', basis: `${basis}; ${pointBasis(point)}`, ...others };
}

/**
 * A request without a credential its operation's security names: refused (no success). Which error is the open point
 * `missing-credential`: any error, strict its decision (401 auth-error).
 */
export function missingCredential(op: Operation, profile: Profile): Expectation {
  const point = openPoint('missing-credential', ['auth-error', 'any-error'] as const);
  const basis = `${op.pointer}/security; ${pointBasis(point)}`;
  const any = { ...anyError(op, basis, 'described'), otherErrors: documentsDefault(op) };
  if (profile !== 'strict' || point.decision !== 'auth-error') return any;
  const decided = [{ status: 401, code: 'auth-error' }];
  const others = allowedBesides(point, decided, any.allowed, profile, any.otherErrors);
  return { allowed: decided, kind: 'decision', basis, ...others };
}

/** The open point on the size of the operation's request lists (`array-sizes`), where its request schema has one. */
export function listSizesPoint(op: Operation) {
  const ref = op.requestSchemaPointer && (resolvePointer(op.requestSchemaPointer) as { $ref?: string }).$ref;
  return ref ? pointAt(ref, 'client-error') : undefined;
}

/** A valid request whose list holds many items: accepted, or (the open point) refused with a client error; strict accepted. */
export function manyItemsExpectation(op: Operation, accepted: Expectation, profile: Profile): Expectation {
  const point = listSizesPoint(op)!;
  const basis = `${accepted.basis}; ${pointBasis(point)}`;
  const refusal = refusable.find((r) => r.id === point.id)!.allowed;
  if (profile === 'strict')
    return { ...accepted, kind: 'decision', basis, ...allowedBesides(point, accepted.allowed, refusal, profile) };
  // Any 400 covers a business answer this contract decides: what stays is the description's (no 5xx, no success lost).
  const allowed = unique([...accepted.allowed, ...refusal]);
  return { ...accepted, allowed, kind: 'described', basis };
}

/**
 * A probe of a value an open point is about (a requestId that is no UUID, many threadIds), accepted as this contract's
 * decision: the points in its basis, and what their other answer (a refusal) allows.
 */
export function probeExpectation(accepted: Expectation, ids: string[], profile: Profile): Expectation {
  const points = ids.map((id) => openPoint(id));
  const basis = [accepted.basis, ...points.map(pointBasis)].join('; ');
  const refusals = points.flatMap((p) => {
    const allowed = refusable.find((r) => r.id === p.id)?.allowed ?? [{ status: 400 }];
    return allowedBesides(p, accepted.allowed, allowed, profile).openAnswers ?? [];
  });
  const openAnswers = [...(accepted.openAnswers ?? []), ...refusals];
  return { ...accepted, kind: 'decision', basis, ...(openAnswers.length ? { openAnswers } : {}) };
}

type Body = Record<string, unknown> | null | undefined;
/**
 * The open points under which a request the document takes may still be refused, where it holds what the point is
 * about (a form or a count the description does not show): the point, whose other answer refuses it, and what that
 * refusal may be. The live stages probe these with a check of their own (edges.ts); a log's requests meet them anywhere.
 */
const refusable: Array<{ id: string; answer: string; allowed: Allowed[]; holds: (op: Operation, b: Body) => boolean }> =
  [
    {
      id: 'request-id-form',
      answer: 'uuid-only',
      allowed: [{ status: 400 }],
      holds: (_op, b) => typeof b?.requestId === 'string' && !uuidShaped.test(b.requestId),
    },
    {
      id: 'thread-ids-count',
      answer: 'a-limit',
      allowed: [{ status: 400 }],
      holds: (op, b) => pastExamples(op, b, 'threadIds'),
    },
    {
      id: 'array-sizes',
      answer: 'client-error',
      allowed: [{ status: 400 }, { status: 413 }],
      holds: (op, b) => listSizesPoint(op) !== undefined && Object.keys(b ?? {}).some((k) => pastExamples(op, b, k)),
    },
  ];
/**
 * Whether the request's list at `field` is longer than any of the operation's success examples has it: a service's own
 * limit must let the document's examples through (they are test cases), so only a longer list may meet it.
 */
function pastExamples(op: Operation, body: Body, field: string): boolean {
  const list = body?.[field];
  if (!Array.isArray(list)) return false;
  const lengths = successExamples(op).map((p) => (p.requestBody as Body)?.[field]);
  return list.length > Math.max(0, ...lengths.map((v) => (Array.isArray(v) ? v.length : 0)));
}

function openRefusals(op: Operation, body: unknown) {
  const b = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : undefined;
  return refusable.flatMap((r) => {
    const point = openPoint(r.id);
    return point.answers.includes(r.answer) && r.holds(op, b) ? [{ point, allowed: r.allowed }] : [];
  });
}

/** A request that breaks rules of several codes (`error-precedence`): any one passes, strict its decision alone. */
function otherCodes(others: string[], expectation: Expectation, profile: Profile): Expectation {
  const point = openPoint('error-precedence', ['listed-first', 'any-that-applies'] as const);
  if (others.length === 0) return expectation;
  const basis = `${expectation.basis}; ${pointBasis(point)}`;
  const any = { ...expectation, allowed: [...expectation.allowed, ...others.map((code) => ({ status: 400, code }))] };
  const taken = (profile === 'strict' ? [point.decision] : point.answers).includes('any-that-applies');
  const besides = taken ? {} : allowedBesides(point, expectation.allowed, any.allowed, profile);
  const openAnswers = [...(expectation.openAnswers ?? []), ...(besides.openAnswers ?? [])];
  return {
    ...(taken ? any : expectation),
    basis,
    ...(openAnswers.length ? { openAnswers } : {}),
    ...(profile === 'strict' ? { kind: 'decision' as const } : {}),
  };
}

/**
 * What a body that breaks the operation's request schema, or the button limits across rows, may get (undefined for a
 * valid body): a decision where this contract decides the limit.
 */
export function invalidBodyExpectation(op: Operation, body: unknown, profile: Profile): Expectation | undefined {
  const outcome = documentViolation(op.operationId, body);
  if (!outcome) return undefined;
  const exact = { status: outcome.status, code: outcome.code };
  // The named example of that code, where one is: its words are the code's condition.
  const example = examplePairs().find(
    (p) => p.operation === op && p.status === exact.status && sameErrorCode(titleOf(p), exact.code),
  );
  const basis = example ? examplePointer(example) : `${op.pointer}/responses/${outcome.status}`;
  const plain: Expectation = { allowed: [exact], kind: responseKind(op, outcome.status), basis };
  const expectation =
    // No code names the broken property: any documented error, as a problem body.
    outcome.code === 'system-error'
      ? anyError(op, `${op.pointer}/responses/500 (a malformed request: any documented error)`)
      : (refusal(op, exact, basis, profile) ?? (outcome.malformed ? codeOr500(op, exact, basis, profile) : plain));
  const decided = outcome.decided ? { ...expectation, kind: 'decision' as const } : expectation;
  return otherCodes(outcome.codes.slice(1), decided, profile);
}

export const examplePointer = (pair: ExamplePair) =>
  pair.responseSchemaPointer.replace(/\/schema$/, `/examples/${escapePointer(pair.name)}`);

export const statusExpectation = (op: Operation, status: number): Expectation => ({
  allowed: [{ status }],
  kind: 'described',
  basis: `${op.pointer}/responses/${status}`,
});

/** The named example's response: its status, and its title as the code. */
export function exampleExpectation(pair: ExamplePair): Expectation {
  const { status, kind } = pair;
  const code = titleOf(pair);
  return { allowed: [{ status, ...(code ? { code } : {}) }], kind, basis: examplePointer(pair) };
}

/** What a named example's request may get: its response, and 500 where the description allows it for its trigger. */
export function pairExpectation(pair: ExamplePair, profile: Profile): Expectation {
  const title = titleOf(pair);
  const exact = exampleExpectation(pair);
  const { status, trigger, operation: op } = pair;
  if (status < 400 || title === undefined || trigger.rawBody !== undefined || !op.requestSchemaPointer) return exact;
  // The codes of other rules the example's request meets (`x-request: {otherCodes}`), whichever answers it.
  const also = trigger.otherCodes ?? [];
  const outcome = schemaViolation(op.operationId, pair.requestBody);
  if (!outcome || !sameErrorCode(title, outcome.code)) return otherCodes(also, exact, profile);
  const answer = outcome.malformed ? codeOr500(op, exact.allowed[0]!, exact.basis, profile) : exact;
  return otherCodes([...outcome.codes.slice(1), ...also], answer, profile);
}

/** Whether the document says a request with this body is valid: its schema, and the button limits across rows. */
export const isAccepted = (op: Operation, body: Json) => documentViolation(op.operationId, parsed(body)) === null;

/**
 * What a request the document accepts may get, given every reading of it the description allows (readings.ts): under
 * strict the decided reading's answer alone (a decision where another reading refuses it); else any reading's answer,
 * unless another reading takes it past a limit this contract decides (then no answer is described: a decision).
 */
export function readingsExpectation(op: Operation, body: unknown, profile: Profile, decided: Expectation): Expectation {
  const others = otherReadings(op, body).flatMap((r) => {
    const refused = invalidBodyExpectation(op, r.body, 'described');
    return refused ? [{ ...r, refused }] : [];
  });
  if (others.length === 0) return decided;
  const basis = [decided.basis, ...new Set(others.flatMap((o) => o.answers.map(pointBasis)))].join('; ');
  if (profile === 'strict' || others.some((o) => o.refused.kind === 'decision')) {
    const besides = others.flatMap((o) =>
      o.answers.flatMap((p) => allowedBesides(p, decided.allowed, o.refused.allowed, profile).openAnswers ?? []),
    );
    const openAnswers = [...(decided.openAnswers ?? []), ...besides];
    return { ...decided, kind: 'decision', basis, ...(openAnswers.length ? { openAnswers } : {}) };
  }
  const allowed = unique([...decided.allowed, ...others.flatMap((o) => o.refused.allowed)]);
  return { allowed, kind: decided.kind, basis };
}

/** What a valid request may get: 200, or a business answer a value changed at one of `changed` may cause. */
export function acceptedExpectation(
  op: Operation,
  changed: Path[],
  basis: string,
  kind: ExpectationKind = 'described',
): Expectation {
  // An answer about a field changed, about a field under one changed, or about one holding it.
  const under = businessAnswers(op).filter((b) =>
    changed.map(pattern).some((p) => `${p}.`.startsWith(`${b.field}.`) || `${b.field}.`.startsWith(`${p}.`)),
  );
  // A business answer this contract decides makes the check one of its decisions.
  return {
    allowed: [{ status: 200 }, ...under.map((b) => ({ status: 400, code: b.code }))],
    kind: under.some((b) => b.kind === 'decision') ? 'decision' : kind,
    basis: [basis, ...under.map((b) => b.basis)].join('; '),
  };
}

/**
 * The answers a request the document accepts may get whatever the service's state: each documented error whose named
 * example sends a valid body to the operation's own path and method (a value taken before, a cascade not found, no
 * balance, an unknown credential); never a 500, the service's fault. Found once: the examples do not change in a run.
 */
const stateAnswersOf = new Map<string, Allowed[]>();
function stateAnswers(op: Operation): Allowed[] {
  if (stateAnswersOf.has(op.operationId)) return stateAnswersOf.get(op.operationId)!;
  const found = examplePairs()
    .filter((p) => p.operation === op && p.status >= 400 && p.trigger.rawBody === undefined)
    .filter((p) => p.trigger.method === undefined && p.trigger.path === undefined)
    .filter((p) => documentViolation(op.operationId, p.requestBody) === null)
    .map((p) => ({ status: p.status, code: titleOf(p) }));
  stateAnswersOf.set(op.operationId, found);
  return found;
}

/**
 * What a recorded request may get when the state it met is unknown (traffic, a proxy): a refused body, its refusal; an
 * accepted one, a success or any answer of the state (`stateAnswers`) or of another reading. A credential present may
 * be unknown to the service (401); one missing gets 401, or the body's refusal where the document orders neither first.
 */
export function recordedExpectation(op: Operation, body: unknown, credential: boolean, profile: Profile): Expectation {
  const unauthorized: Allowed = { status: 401, code: 'auth-error' };
  const basis = `${op.pointer}/responses`;
  const refused = invalidBodyExpectation(op, body, profile);
  if (refused) return { ...refused, allowed: unique([...refused.allowed, unauthorized]) };
  if (!credential) return missingCredential(op, profile);
  const successes = documentedStatuses(op).flatMap((status) => (status < 300 ? [{ status }] : []));
  // Strict holds the decision where an open point allows a refusal: accepted, as a decision.
  const open = openRefusals(op, body);
  const strict = profile === 'strict';
  const accepted: Expectation = {
    allowed: unique([
      ...successes,
      ...stateAnswers(op),
      unauthorized,
      ...(strict ? [] : open.flatMap((o) => o.allowed)),
    ]),
    otherErrors: documentsDefault(op),
    kind: strict && open.length ? 'decision' : 'described',
    ...(strict && open.length ? { openAnswers: open.map((o) => ({ point: o.point.id, allowed: o.allowed })) } : {}),
    basis: [
      `${basis}/200 (a success, or an answer the state gives: the named examples of a valid request)`,
      ...open.map((o) => pointBasis(o.point)),
    ].join('; '),
  };
  return readingsExpectation(op, body, profile, accepted);
}
