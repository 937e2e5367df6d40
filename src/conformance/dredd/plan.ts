// The Dredd stage's plan: for each transaction Dredd compiles from the document (path, method,
// documented status), the request to send instead (credentials, fresh identifiers, the example
// whose request triggers that status) and what the answer must be.
import { resolvePointer } from '../../core/document.ts';
import {
  documentOperations,
  examplePairs,
  type ExamplePair,
  type ExpectationKind,
  type Operation,
} from '../../core/examples.ts';
import { validator } from '../../core/validators/all.ts';
import { examplePointer, pairExpectation } from '../expectations.ts';
import { pairRequest, type PairRequest } from '../pairs.ts';
import { runs, type SuiteContext } from '../stage-runtime.ts';
import { prepare } from '../vars.ts';

export interface Step {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The request to send, made at each send: fresh identifiers every time. */
  request(): PairRequest;
  status: number;
  title?: string;
  example: string;
  /** Where the example is in the document. */
  basis: string;
  kind: ExpectationKind;
  operation: Operation;
  skip: boolean;
}

/** The example whose request Dredd's transaction for `status` sends: one that needs no state. */
function exampleFor(pairs: ExamplePair[], status: number): ExamplePair | undefined {
  const candidates = pairs.filter((p) => p.status === status);
  if (status !== 400) return candidates[0];
  // A 400 whose trigger breaks the schema answers the same on any deployment; Dredd expects one
  // status, so the trigger must be one the description allows no other answer for.
  return (
    candidates.find(
      (p) =>
        p.trigger.body !== undefined &&
        !validator(p.operation.requestSchemaPointer!)(p.trigger.body).valid &&
        pairExpectation(p, 'described').allowed.length === 1,
    ) ?? candidates[0]
  );
}

export function dreddPlan(ctx: SuiteContext): Record<string, Step> {
  const transactions: Record<string, Step> = {};
  for (const op of documentOperations()) {
    const summary = (resolvePointer(op.pointer) as { summary: string }).summary;
    const pairs = examplePairs().filter((p) => p.operation.operationId === op.operationId);
    const statuses = Object.keys((resolvePointer(op.pointer) as { responses: object }).responses).map(Number);
    for (const status of statuses) {
      const pair = exampleFor(pairs, status);
      if (!pair) continue;
      const request = () => pairRequest(ctx.server, pair, ctx.credentials, () => prepare(pair, ctx.values).body);
      const { method, url, headers } = request();
      const title = (pair.response as { title?: string }).title;
      transactions[`${op.path} > ${summary} > ${status} > application/json`] = {
        method,
        path: url.slice(ctx.server.length),
        headers,
        request,
        status,
        title,
        example: pair.name,
        basis: examplePointer(pair),
        kind: pair.kind,
        operation: op,
        // Out of the profile: Dredd skips it, and it is no check of this run.
        skip: !runs(ctx, pair.kind),
      };
    }
  }
  return transactions;
}
