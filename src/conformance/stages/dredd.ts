// Stage dredd: the transactions Dredd compiles from the document (one per path, method and
// documented status), each a case of the suite's own runner and checks. Dredd compiles them
// through its API when the document is built (`npm run build:generated`, into
// generated/dredd-transactions.json, which npm test holds to the document); its HTTP runner does
// not run here. Each transaction is sent by the runner every stage uses (timeout, deadline,
// fail-fast, --bail, redaction, the curl replay) with the request that triggers its status
// (dredd/plan.ts: credentials, fresh values), and its answer is judged by the registry of checks.
// A transaction without a plan fails, and so does a planned one Dredd did not compile.
import { readFileSync } from 'node:fs';
import { assetPath } from '../../core/assets.ts';
import { openapi } from '../../core/document.ts';
import { dreddPlan } from '../dredd/plan.ts';
import { check, sendCase, type CheckResult, type Stage, type SuiteContext } from '../stage-runtime.ts';

export { dreddPlan } from '../dredd/plan.ts';

const transactionsPath = assetPath(import.meta.url, {
  bundled: './dredd-transactions.json',
  source: '../../../generated/dredd-transactions.json',
});

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

export const dreddStage: Stage = {
  name: 'dredd',
  description:
    "the transactions Dredd compiles from the document, one per path, method and documented status, each sent with the request that triggers its status and judged by the suite's checks",
  count: (ctx) => {
    const plan = dreddPlan(ctx);
    const names = dreddTransactions();
    return (
      names.filter((name) => !Object.hasOwn(plan, name) || !plan[name]!.skip).length +
      Object.entries(plan).filter(([name, step]) => !step.skip && !names.includes(name)).length
    );
  },
  run: (ctx: SuiteContext) => runDredd(ctx, dreddPlan(ctx)),
};

/** Each of Dredd's transactions in the profile through the runner; one without a plan, or a plan without one, fails. */
export async function runDredd(
  ctx: SuiteContext,
  plan: ReturnType<typeof dreddPlan>,
  names: string[] = dreddTransactions(),
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const failing = (name: string, actual: string) =>
    check(ctx, { stage: 'dredd', name, kind: 'described', basis: '#/paths' }, async () => ({
      ok: false,
      expected: 'a transaction Dredd compiles and the suite plans',
      actual,
    }));
  for (const name of names) {
    const step = Object.hasOwn(plan, name) ? plan[name]! : undefined;
    if (!step) {
      results.push(await failing(name, 'Dredd compiled a transaction the suite has no plan for'));
      continue;
    }
    if (step.skip) continue; // out of the profile
    const expectation = {
      allowed: [{ status: step.status, ...(step.title ? { code: step.title } : {}) }],
      kind: step.kind,
      basis: step.basis,
    };
    const spec = {
      stage: 'dredd',
      name,
      kind: step.kind,
      basis: step.basis,
      covers: {
        operationId: step.operation.operationId,
        status: step.status,
        ...(step.title ? { code: step.title } : {}),
      },
    };
    results.push(
      await check(ctx, spec, () => sendCase(ctx, { operation: step.operation, request: step.request(), expectation })),
    );
  }
  for (const [name, step] of Object.entries(plan))
    if (!step.skip && !names.includes(name))
      results.push(await failing(name, 'Dredd compiled no such transaction: the plan names one the document lacks'));
  return results;
}
