// Runs the selected stages against a server and collects every check.
import { badInputStage } from './stages/bad-input.ts';
import { dreddStage } from './stages/dredd.ts';
import { examplesStage } from './stages/examples.ts';
import { statefulStage } from './stages/stateful.ts';
import type { CheckResult, Stage, SuiteContext } from './context.ts';

export const stages: Stage[] = [dreddStage, examplesStage, statefulStage, badInputStage];

export class UnreachableError extends Error {}

export interface SuiteReport {
  results: CheckResult[];
  stageMs: Record<string, number>;
  ok: boolean;
}

export function selectStages(only: string[] = [], skip: string[] = []): Stage[] {
  const names = stages.map((s) => s.name);
  for (const name of [...only, ...skip]) {
    if (!names.includes(name)) throw new Error(`unknown stage "${name}"; the stages are ${names.join(', ')}`);
  }
  const selected = stages.filter((s) => (only.length === 0 || only.includes(s.name)) && !skip.includes(s.name));
  if (selected.length === 0) throw new Error(`no stage is left to run: --only ${only.join(',') || '(all)'} and --skip ${skip.join(',')}`);
  return selected;
}

/** Resets the sandbox when the server is one (it answers POST /_sandbox/reset); a no-op elsewhere. */
async function resetIfSandbox(ctx: SuiteContext): Promise<void> {
  try {
    const res = await fetch(`${ctx.server.replace(/\/+$/, '')}/_sandbox/reset`, { method: 'POST', signal: AbortSignal.timeout(5_000) });
    await res.body?.cancel();
    if (res.status === 200) ctx.log('  (the server is a sandbox: its state was reset)');
  } catch {
    // not a sandbox
  }
}

export async function runSuite(ctx: SuiteContext, selected: Stage[] = stages): Promise<SuiteReport> {
  try {
    const res = await fetch(ctx.server, { signal: AbortSignal.timeout(10_000) });
    await res.body?.cancel();
  } catch (error) {
    throw new UnreachableError(`the server ${ctx.server} does not answer: ${(error as { cause?: Error }).cause?.message ?? (error as Error).message}`);
  }
  const results: CheckResult[] = [];
  const stageMs: Record<string, number> = {};
  for (const stage of selected) {
    ctx.log(`stage ${stage.name}: ${stage.description}`);
    await resetIfSandbox(ctx);
    const start = performance.now();
    const stageResults = await stage.run(ctx);
    stageMs[stage.name] = performance.now() - start;
    const failed = stageResults.filter((r) => !r.ok).length;
    ctx.log(`  ${stageResults.length - failed} passed, ${failed} failed (${(stageMs[stage.name]! / 1000).toFixed(1)} s)`);
    results.push(...stageResults);
  }
  return { results, stageMs, ok: results.length > 0 && results.every((r) => r.ok) };
}
