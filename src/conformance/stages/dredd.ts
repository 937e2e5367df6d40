// Stage dredd: Dredd over generated/openapi.json, one transaction per path, method and documented
// status. The hooks (dredd-hooks.cjs) send each transaction as planned here (credentials, fresh
// requestIds, the request that triggers each non-2xx status) and check every body against its
// schema. Every transaction Dredd runs must be planned and every planned one must run.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { assetPath } from '../../core/assets.ts';
import { aliasesOf } from '../../core/codes.ts';
import { openapi, resolvePointer } from '../../core/document.ts';
import { examplePairs, operations, type ExamplePair, type ExpectationKind } from '../../core/examples.ts';
import { validator } from '../../core/validators/all.ts';
import { runs, type CheckResult, type Stage, type SuiteContext } from '../context.ts';
import { pairRequest } from '../pairs.ts';
import { prepare } from '../vars.ts';

interface Step {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  status: number;
  title?: string;
  titles: string[];
  schemaPointer: string;
  freshRequestId: boolean;
  freshExtUserId: boolean;
  example: string;
  kind: ExpectationKind;
  operationId: string;
  skip: boolean;
}

/** The example whose request Dredd's transaction for `status` sends: one that needs no state. */
function exampleFor(pairs: ExamplePair[], status: number): ExamplePair | undefined {
  const candidates = pairs.filter((p) => p.status === status);
  if (status !== 400) return candidates[0];
  // A 400 whose trigger breaks the schema answers the same on any deployment.
  return candidates.find((p) => p.trigger.body !== undefined && !validator(p.operation.requestSchemaPointer!)(p.trigger.body).valid) ?? candidates[0];
}

export function dreddPlan(ctx: SuiteContext): Record<string, Step> {
  const transactions: Record<string, Step> = {};
  for (const op of operations()) {
    const summary = (resolvePointer(op.pointer) as { summary: string }).summary;
    const pairs = examplePairs().filter((p) => p.operation.operationId === op.operationId);
    const statuses = Object.keys((resolvePointer(op.pointer) as { responses: object }).responses).map(Number);
    for (const status of statuses) {
      const pair = exampleFor(pairs, status);
      if (!pair) continue;
      const { body } = prepare(pair, ctx.values);
      const request = pairRequest(ctx.server, pair, ctx.credentials, () => body);
      const title = (pair.response as { title?: string }).title;
      transactions[`${op.path} > ${summary} > ${status} > application/json`] = {
        method: request.method,
        path: request.url.slice(ctx.server.replace(/\/+$/, '').length),
        headers: request.headers,
        body: request.body,
        status,
        title,
        titles: title ? aliasesOf(title) : [],
        schemaPointer: pair.responseSchemaPointer,
        freshRequestId: op.operationId === 'scheduleCascade' && title !== 'requestId-is-not-unique',
        freshExtUserId: op.operationId === 'createSubscriber' && status === 200,
        example: pair.name,
        kind: pair.kind,
        operationId: op.operationId,
        // Out of the profile: Dredd skips it, and it is no check of this run.
        skip: !runs(ctx, pair.kind),
      };
    }
  }
  return transactions;
}

const hooksPath = assetPath(import.meta.url, { bundled: './dredd-hooks.cjs', source: '../dredd-hooks.cjs' });

function dreddBin(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('dredd/package.json');
  return join(dirname(pkg), (require(pkg) as { bin: { dredd: string } }).bin.dredd);
}

export const dreddStage: Stage = {
  name: 'dredd',
  description: 'Dredd over the bundled document, every transaction planned, every body checked against its schema',
  run: (ctx: SuiteContext) => runDredd(ctx, dreddPlan(ctx)),
};

/** What the hooks saw of one transaction's answer, judged here: status, body against its schema, title. */
function judge(step: Step, real: { status: number; body: string | null }): string[] {
  const problems: string[] = [];
  let body: unknown;
  try {
    body = JSON.parse(real.body ?? '');
  } catch {
    problems.push(`body is not JSON: ${String(real.body).slice(0, 120)}`);
  }
  if (body !== undefined) {
    problems.push(...validator(step.schemaPointer)(body).errors);
    const title = (body as { title?: unknown } | null)?.title;
    if (step.title && !step.titles.includes(title as string)) problems.push(`title ${JSON.stringify(title)}, expected ${step.title}`);
  }
  if (real.status !== step.status) problems.push(`status ${real.status}, expected ${step.status}`);
  return problems;
}

/** Runs Dredd with `plan`; a transaction missing from the plan fails, and so does a planned one that did not run. */
export async function runDredd(ctx: SuiteContext, plan: Record<string, Step>): Promise<CheckResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'mc-dredd-'));
  const planPath = join(dir, 'plan.json');
  const resultsPath = join(dir, 'results.json');
  // Dredd reads the document from a file: the one this package carries, written out for the run.
  const documentPath = join(dir, 'openapi.json');
  writeFileSync(documentPath, JSON.stringify(openapi));
  writeFileSync(planPath, JSON.stringify({ transactions: plan, resultsPath }));
  const start = performance.now();
  try {
    const output = await new Promise<{ code: number; text: string }>((resolve) => {
      execFile(
        process.execPath,
        [dreddBin(), documentPath, ctx.server, `--hookfiles=${hooksPath}`, '--language=nodejs', '--loglevel=error', '--reporter=dot'],
        // Dredd has no timeout of its own: it gets what is left of the run's deadline.
        { env: { ...process.env, MESSAGING_CONFORMANCE_PLAN: planPath }, timeout: Math.max(1_000, ctx.deadlineAt - Date.now()), killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, text: `${stdout}${stderr}` }),
      );
    });
    const ms = performance.now() - start;
    let results: { ran: Record<string, { status: number; body: string | null }>; unplanned: string[] };
    try {
      results = JSON.parse(readFileSync(resultsPath, 'utf8'));
    } catch {
      return [{ stage: 'dredd', name: 'dredd ran', kind: 'described', ok: false, ms, expected: 'Dredd to run the hooks', actual: output.text.slice(-2000) }];
    }
    const checks: CheckResult[] = Object.entries(plan).filter(([, step]) => !step.skip).map(([name, step]) => {
      const real = Object.hasOwn(results.ran, name) ? results.ran[name] : undefined;
      const problems = real ? judge(step, real) : [];
      return {
        stage: 'dredd',
        name,
        kind: step.kind,
        covers: { operationId: step.operationId, status: step.status, ...(step.title ? { code: step.title } : {}) },
        ok: real !== undefined && problems.length === 0,
        ms: ms / Object.keys(plan).length,
        request: `${step.method} ${step.path} (example ${step.example})`,
        expected: `${step.status}${step.title ? ` ${step.title}` : ''}, body valid against its schema`,
        actual: !real ? 'Dredd did not run this transaction' : problems.length ? problems.join('; ') : `${step.status}`,
      };
    });
    for (const name of results.unplanned) {
      checks.push({ stage: 'dredd', name, kind: 'described', ok: false, ms: 0, expected: 'a planned handling', actual: 'Dredd ran a transaction the suite has no plan for' });
    }
    // Dredd's exit code adds a verdict only where no transaction check above explains it (a crash,
    // or Dredd's own checks failing where ours pass); a failed transaction is already a check of its kind.
    const explained = output.code === 1 && checks.some((c) => !c.ok);
    checks.push({ stage: 'dredd', name: 'dredd exit code', kind: 'described', ok: output.code === 0 || explained, ms: 0, expected: 'exit 0, or 1 for failed transactions above', actual: `exit ${output.code}${output.code ? `: ${output.text.slice(-600)}` : ''}` });
    return checks;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
