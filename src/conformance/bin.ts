#!/usr/bin/env node
// The command: conformanceMain (cli/main.ts) on the process's argv, streams and env, with a whole process's guards.
import { conformanceMain, newRunState, reportFailure } from './cli/main.ts';

const run = newRunState();
const stderr = (text: string) => process.stderr.write(text);

// An error nothing awaited: its message (credentials hidden), never a stack trace.
const fail = (error: unknown) => process.exit(reportFailure(error, stderr, run));
process.on('unhandledRejection', fail);
process.on('uncaughtException', fail);
// A reader that stops early (`| head`): what is left to print has nowhere to go, which is no failure of the run.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') fail(error);
});

// A request pending on a dead connection (Dredd's, or any) keeps nothing alive: the process must not end on a quiet 0.
process.on('beforeExit', () => {
  if (run.finished || process.exitCode !== undefined) return;
  stderr(
    'messaging-conformance: the run ended before it finished (work was still pending when nothing was left to wait on); the verdict is not a pass\n',
  );
  process.exitCode = 2;
});

const io = { stdout: (text: string) => process.stdout.write(text), stderr, env: process.env };
void conformanceMain(process.argv.slice(2), io, run).then((code) => {
  process.exitCode = code;
  // A run that failed before it reported ends now: whatever it left pending must not hold the process.
  if (code !== 0 && !run.finished) process.exit(code);
});
