// npm run diff: diffMain (cli.ts) on the process's arguments, streams and environment.
import { reportError } from '../core/cli.ts';
import { diffMain } from './cli.ts';

const fail = (error: unknown) => process.exit(reportError('diff', '', error, (text) => process.stderr.write(text)));
process.on('unhandledRejection', fail);
process.on('uncaughtException', fail);
process.exitCode = await diffMain(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
});
