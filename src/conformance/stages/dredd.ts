// Stage dredd: the transactions Dredd compiles from the document, one per path, method and documented status (by its
// API in `npm run build:generated`, into generated/dredd-transactions.json, which npm test holds to the document; its
// HTTP runner does not run here). Each is sent by the suite's runner (timeout, deadline, --bail, redaction, replay) as
// the example request that triggers its status (the plan below) and judged here and, as its example's, by the examples
// stage, which does not send it again. A transaction without a plan fails, as does a planned one Dredd did not compile.
import { readFileSync } from 'node:fs';
import { assetPath } from '../../core/assets.ts';
import { openapi, resolvePointer } from '../../core/document.ts';
import { documentOperations, examplePairs, type ExamplePair } from '../../core/examples.ts';
import { validator } from '../../core/validators/all.ts';
import type { Expectation } from '../ground/model.ts';
import { documentedStatuses, exampleExpectation, pairExpectation } from '../document/expectations.ts';
import { planStage, runPlanned, runs, type Planned, type SuiteContext } from '../suite/context.ts';
import { missingFixtures, preparedRequest } from '../suite/vars.ts';

const transactionsPath = assetPath(import.meta.url, {
  bundled: './dredd-transactions.json',
  source: '../../../generated/dredd-transactions.json',
});

/** What a transaction sends (its example's request, fresh values each send) and must get (its status, the code). */
export type Step = { pair: ExamplePair; expectation: Expectation };

// A 400 example whose trigger breaks the schema answers the same on any deployment; a transaction has one status, so
// the trigger must be one the description allows no other answer for.
const breaksSchema = (p: ExamplePair) =>
  p.trigger.body !== undefined &&
  !validator(p.operation.requestSchemaPointer!)(p.trigger.body).valid &&
  pairExpectation(p, 'described').allowed.length === 1;

/** The plan: for each transaction Dredd compiles (path, method, documented status), the request to send and the answer. */
export function dreddPlan(): Record<string, Step> {
  const plan: Record<string, Step> = {};
  for (const op of documentOperations()) {
    const { summary } = resolvePointer(op.pointer) as { summary: string };
    const pairs = examplePairs().filter((p) => p.operation.operationId === op.operationId);
    for (const status of documentedStatuses(op)) {
      // The example whose request triggers the status: one that needs no state.
      const candidates = pairs.filter((p) => p.status === status);
      const pair = (status === 400 ? candidates.find(breaksSchema) : undefined) ?? candidates[0];
      const name = `${op.path} > ${summary} > ${status} > application/json`;
      if (pair) plan[name] = { pair, expectation: exampleExpectation(pair) };
    }
  }
  return plan;
}

/**
 * The names of Dredd's transactions in its order, as its runner names them without the API's title (one document).
 * Dredd compiles an operation's `default` as a second "200": it stands for any other status, no request triggers it.
 */
export function dreddTransactions(): string[] {
  const compiled: Array<{ transactions: Array<{ name: string }> }> = JSON.parse(readFileSync(transactionsPath, 'utf8'));
  const title = `${(openapi.info as { title: string }).title} > `;
  const names = compiled.flatMap((d) => d.transactions.map((t) => t.name));
  return [...new Set(names.map((name) => (name.startsWith(title) ? name.slice(title.length) : name)))];
}

/** A check per transaction of Dredd's, sent as planned; one without a plan, or a plan without one, fails. */
function dreddChecks(ctx: SuiteContext, plan = dreddPlan(), names = dreddTransactions()): Planned[] {
  const failing = (name: string, actual: string): Planned => ({
    name,
    kind: 'described',
    basis: '#/paths',
    run: async () => ({ expected: 'a transaction Dredd compiles and the suite plans', failed: actual }),
  });
  const planned = names.flatMap((name): Planned[] => {
    if (!Object.hasOwn(plan, name)) return [failing(name, 'Dredd compiled a transaction the suite has no plan for')];
    const { pair, expectation } = plan[name]!;
    // A transaction whose example needs a fixture the deployment lacks is not exercised.
    if (missingFixtures(pair, ctx.values).length) return [];
    const { status, code } = expectation.allowed[0]!;
    const covers = { operationId: pair.operation.operationId, status, ...(code ? { code } : {}) };
    const run = async () => {
      const { request, expected } = preparedRequest(ctx, pair);
      const sent = await ctx.send(request);
      // The examples stage judges this answer as its example's: the request is sent once.
      if (sent.answer) ctx.sentExamples.set(pair, { request, expected, answer: sent.answer });
      return ctx.judged({ operation: pair.operation, request, expectation }, sent);
    };
    return [{ name, kind: expectation.kind, basis: expectation.basis, covers, run }];
  });
  const uncompiled = Object.keys(plan).filter((name) => !names.includes(name));
  const lacking = 'Dredd compiled no such transaction: the plan names one the document lacks';
  return [...planned, ...uncompiled.map((name) => failing(name, lacking))];
}

export const dreddStage = planStage(
  'dredd',
  "the transactions Dredd compiles from the document, one per path, method and documented status, each sent with the request that triggers its status and judged by the suite's checks",
  (ctx) => dreddChecks(ctx),
);

/** The dredd stage's checks of the run's profile, for this plan and these transactions. */
export function runDredd(ctx: SuiteContext, plan: Record<string, Step>, names?: string[]) {
  const profiled = dreddChecks(ctx, plan, names).filter((p) => runs(ctx, p.kind));
  return runPlanned(ctx, 'dredd', profiled);
}
