// Stage dredd: the transactions Dredd compiles from the document (one per path, method and documented status), each a
// case of the suite's own runner and checks. Dredd compiles them through its API when the document is built (`npm run
// build:generated`, into generated/dredd-transactions.json, which npm test holds to the document); its HTTP runner does
// not run here. Each transaction is sent by the runner every stage uses (timeout, deadline, fail-fast, --bail,
// redaction, the curl replay) with the example request that triggers its status (the plan below: credentials, fresh
// values), and its answer is judged by the registry of checks, here and, as its example's, by the examples stage, which
// does not send that request again. A transaction without a plan fails, and so does a planned one Dredd did not
// compile.
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

/** What the suite sends for one of Dredd's transactions (the example's request, fresh values each send), and what it must get. */
export interface Step {
  pair: ExamplePair;
  /** The transaction's status and the example's code. */
  expectation: Expectation;
}

/** The example whose request the transaction for `status` sends: one that needs no state. */
function exampleFor(pairs: ExamplePair[], status: number): ExamplePair | undefined {
  const candidates = pairs.filter((p) => p.status === status);
  if (status !== 400) return candidates[0];
  // A 400 whose trigger breaks the schema answers the same on any deployment; a transaction has one
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

/** The plan: for each transaction Dredd compiles (path, method, documented status), the request to send and the answer. */
export function dreddPlan(): Record<string, Step> {
  const plan: Record<string, Step> = {};
  for (const op of documentOperations()) {
    const { summary } = resolvePointer(op.pointer) as { summary: string };
    const pairs = examplePairs().filter((p) => p.operation.operationId === op.operationId);
    for (const status of documentedStatuses(op)) {
      const pair = exampleFor(pairs, status);
      if (!pair) continue;
      plan[`${op.path} > ${summary} > ${status} > application/json`] = { pair, expectation: exampleExpectation(pair) };
    }
  }
  return plan;
}

/**
 * The names of Dredd's transactions, in its order, as its runner names them (without the API's
 * title, one document being compiled). Dredd compiles an operation's `default` response as a
 * second "200": `default` stands for any other status, no request triggers it, and it is one name.
 */
export function dreddTransactions(): string[] {
  const descriptions = JSON.parse(readFileSync(transactionsPath, 'utf8')) as Array<{
    transactions: Array<{ name: string }>;
  }>;
  const title = `${(openapi.info as { title: string }).title} > `;
  return [
    ...new Set(
      descriptions.flatMap((d) =>
        d.transactions.map((t) => (t.name.startsWith(title) ? t.name.slice(title.length) : t.name)),
      ),
    ),
  ];
}

/** A check per transaction of Dredd's, sent as planned; one without a plan, or a plan without one, fails. */
export function dreddChecks(
  ctx: SuiteContext,
  plan: Record<string, Step> = dreddPlan(),
  names: string[] = dreddTransactions(),
): Planned[] {
  const failing = (name: string, actual: string): Planned => ({
    name,
    kind: 'described',
    basis: '#/paths',
    run: async () => ({ expected: 'a transaction Dredd compiles and the suite plans', failed: actual }),
  });
  const planned = names.flatMap((name): Planned[] => {
    const step = Object.hasOwn(plan, name) ? plan[name]! : undefined;
    if (!step) return [failing(name, 'Dredd compiled a transaction the suite has no plan for')];
    // A transaction whose example needs a fixture the deployment lacks is not exercised.
    if (missingFixtures(step.pair, ctx.values).length) return [];
    const { pair, expectation } = step;
    const { status, code } = expectation.allowed[0]!;
    return [
      {
        name,
        kind: expectation.kind,
        basis: expectation.basis,
        covers: { operationId: pair.operation.operationId, status, ...(code ? { code } : {}) },
        run: async () => {
          const { request, expected } = preparedRequest(ctx, pair);
          const sent = await ctx.send(request);
          // The examples stage judges this answer as its example's: the request is sent once.
          if (sent.answer) ctx.sentExamples.set(pair, { request, expected, answer: sent.answer });
          return ctx.judged({ operation: pair.operation, request, expectation }, sent);
        },
      },
    ];
  });
  const uncompiled = Object.keys(plan).filter((name) => !names.includes(name));
  return [
    ...planned,
    ...uncompiled.map((name) =>
      failing(name, 'Dredd compiled no such transaction: the plan names one the document lacks'),
    ),
  ];
}

export const dreddStage = planStage(
  'dredd',
  "the transactions Dredd compiles from the document, one per path, method and documented status, each sent with the request that triggers its status and judged by the suite's checks",
  (ctx) => dreddChecks(ctx),
);

/** The dredd stage's checks of the run's profile, for this plan and these transactions. */
export const runDredd = (ctx: SuiteContext, plan: Record<string, Step>, names?: string[]) =>
  runPlanned(
    ctx,
    'dredd',
    dreddChecks(ctx, plan, names).filter((p) => runs(ctx, p.kind)),
  );
