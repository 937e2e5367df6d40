// npm test: the checks (npm run lint, typecheck, diff) and vitest side by side, not one after the
// other: tsc is one thread and vitest's workers often wait on servers and child processes, so on two
// cores the run ends seconds sooner. Vitest prints as it goes; each check's output is held and
// printed once vitest is done, then a line naming every failure. Any failure exits 1.
// Arguments go to vitest (`npm test -- test/diff`).
import { spawn } from 'node:child_process';

const checks = ['lint', 'typecheck', 'diff'];

/** Runs a command to its end; `output` is what it printed (empty when its output was not held). */
function run(command: string, args: string[], hold: boolean): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', hold ? 'pipe' : 'inherit', hold ? 'pipe' : 'inherit'] });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error) => resolve({ code: 1, output: `${command}: ${error.message}\n` }));
    // No exit code: a signal ended it.
    child.on('close', (code) => resolve({ code: code ?? 1, output: Buffer.concat(chunks).toString('utf8') }));
  });
}

const held = checks.map((name) => run('npm', ['run', name], true));
const tests = await run('vitest', ['run', ...process.argv.slice(2)], false);
const failed: string[] = [];
for (const [i, result] of (await Promise.all(held)).entries()) {
  process.stdout.write(result.output);
  if (result.code !== 0) failed.push(`npm run ${checks[i]} (exit ${result.code})`);
}
if (tests.code !== 0) failed.push(`vitest run (exit ${tests.code})`);
if (failed.length) {
  process.stderr.write(`\nnpm test failed: ${failed.join(', ')}\n`);
  process.exitCode = 1;
}
