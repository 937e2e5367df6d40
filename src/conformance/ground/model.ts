// The case model, the suite's lowest layer: a case is one request, the answers the document allows for it, what else
// its answer must hold, and where it came from. Every stage makes cases, the runner (runner.ts) sends them, and
// the checks (checks.ts) judge their answers. This module imports no other module of the suite.
import type { ExpectationKind, Operation } from '../../core/examples.ts';
import type { HttpRequest } from './transport.ts';

/**
 * `described` (the default): only checks whose expectation the service's description (or its
 * public docs) states. `strict`: the contract's own decisions too (this repository's sandbox).
 */
export type Profile = 'described' | 'strict';

export interface Credentials {
  /** An API key of an account with balance (`x-api-key`). */
  apiKey: string;
  /** An API key of an account without balance, for `out-of-balance`. */
  apiKeyNoBalance?: string;
  /** A token of a user with the INTEGRATOR permission (close threads). */
  integratorToken: string;
}

/** One answer the document allows: a status, and the `title` it carries (none: any problem body). */
export interface Allowed {
  status: number;
  code?: string;
}

export interface Expectation {
  /** Any of these answers passes. */
  allowed: Allowed[];
  /** Any other error status passes too, as a problem body (the operation's `default`: "an error", whichever). */
  otherErrors?: boolean;
  kind: ExpectationKind;
  /** Where in the document it comes from. */
  basis: string;
}

/** A case: the request, what the document allows as its answer, and what else that answer must hold. */
export interface Case {
  operation: Operation;
  request: HttpRequest;
  expectation: Expectation;
  /** A success's fields as the document gives them for this request (lists compare as sets). */
  fields?: Record<string, unknown>;
  /** A validation error's expected `detail`: the answer's must name each violation it names. */
  detail?: string;
  /** The checks whose expectation here is this contract's decision, where the rest of the answer is described. */
  decided?: string[];
}

/** What a check found wrong with one answer: which check, the fault as causes are grouped by it, and this answer's instance. */
export interface Fault {
  check: string;
  /** The fault, in words ("a problem body: `status` expected to be present"). */
  fault: string;
  /** What causes are grouped by, when not the fault's words: the rule of the document it breaks. */
  key?: string;
  /** This answer's instance of it (the field and value). */
  detail: string;
  /** `decision` where the check's expectation for this case is this contract's own (Case.decided). */
  kind?: ExpectationKind;
}

/** A fault before the registry names its check. */
export type Found = Omit<Fault, 'check'>;

/** A check of the registry as the root-cause walk reads it: checks run in order, one whose `after` found a fault skipped. */
interface Ordered<A extends unknown[]> {
  id: string;
  after?: string[];
  concerns?(...args: A): boolean;
  faults(...args: A): Found[];
}

/**
 * Every fault the checks find in what `args` are (an answer, a request, a callback), root causes only: a check is
 * skipped when a check it comes after found one, so each names its own cause.
 */
export function rootFaults<A extends unknown[]>(checks: Array<Ordered<A>>, ...args: A): Fault[] {
  const faults: Fault[] = [];
  const failed = new Set<string>();
  for (const check of checks) {
    if (check.after?.some((id) => failed.has(id)) || check.concerns?.(...args) === false) continue;
    const found = check.faults(...args);
    if (found.length === 0) continue;
    failed.add(check.id);
    faults.push(...found.map((f) => ({ check: check.id, ...f })));
  }
  return faults;
}

/** "400 text-not-specified or 500 system-error" (", or another error status" where any error passes). */
export const describeAllowed = (allowed: Allowed[], otherErrors = false) =>
  `${allowed.map((a) => `${a.status}${a.code ? ` ${a.code}` : ''}`).join(' or ')}${otherErrors ? ', or another error status' : ''}`;
