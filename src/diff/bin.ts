// npm run diff: diffMain (cli.ts) on the process's arguments, streams and environment.
import { runCli } from '../core/cli.ts';
import { diffMain, usage } from './cli.ts';

runCli('diff', usage, diffMain);
