// messaging-conformance traffic and proxy: the commands that judge exchanges nobody in this suite sent. Exit 0 when
// every exchange judged is allowed, 1 when one breaks the contract, 2 when a file cannot be read or an option is wrong.
import { parseArgs } from 'node:util';
import { CannotRunError, httpUrl, port, signalled, UsageError, type CliIo } from '../../core/cli.ts';
import { credentialOptions, profileOption, reporter, writable, type RunState } from './shared.ts';
import { redactor } from '../ground/redaction.ts';
import type { CheckResult } from '../ground/model.ts';
import { TrafficError } from '../traffic/readers/format.ts';
import type { Judged } from '../traffic/judge.ts';
import { startProxy } from '../traffic/proxy.ts';
import { findingLine, judgeTraffic } from '../traffic/run.ts';
import { trafficSummary } from '../report.ts';

export const trafficUsage = `usage: messaging-conformance traffic <file>... [--format har|ndjson] [--judge service|caller|both]
         [--base-path P] [--callback-path P] [--reset-url U]... [--profile described|strict]
         [--reporter junit|json --output <file>]

  Judges recorded exchanges: HAR 1.2 files (a browser's, a proxy's, Playwright's recordHar) and
  NDJSON logs, one exchange per line:
    {"startedAt": "2026-11-20T10:00:00Z", "request": {"method", "url", "headers": {}, "body": "..."},
     "response": {"status", "headers": {}, "body": "..."}}
  Each request is judged against the document (a request it refuses is the caller's break), each
  answer against every answer the document allows that request whatever the state (the service's
  break), callbacks by the webhook's checks, and the sequence by the rules over time. Files are read
  streaming and merged in time order. Credentials in recorded headers and bodies are written as ***.

  --format              har or ndjson (default: har for a .har file, ndjson otherwise)
  --judge               whose breaks fail the run: service (default), caller or both
  --base-path           the path the document's paths start from on the recorded host (default:
                        the document's servers' paths)
  --callback-path       the path your status-callback receiver listens on (default: told by shape)
  --reset-url           a reset hook's URL or path (the suite's --reset-url): a POST there puts the
                        service back in its fixtures' state, and the rules over time start again.
                        The sandbox's /_sandbox/reset and the suite's recorded resets always are.
                        Entries that are not http(s) (a browser's blob:, data:, ws:) are counted,
                        not judged
  --profile, --reporter, --output as for the suite

usage: messaging-conformance proxy --target <url> [--port N] [--host H] [--judge service|caller|both]
         [--record <file>] [--report-every N] [--base-path P] [--callback-path P] [--reset-url U]...
         [--profile described|strict] [--reporter junit|json --output <file>]

  Forwards every request to --target unchanged and judges each exchange both ways (--judge both by
  default): your app's requests and the service's answers. Prints each failure as it is found,
  and the whole report on Ctrl-C or SIGTERM (and writes --reporter's file then, and every
  --report-every N exchanges). --record writes what it saw (credentials as ***) as NDJSON, or HAR
  for a .har name, to judge again with traffic (the bodies of exchanges outside the document's
  paths, such as a docs page, are left out). Exit as for traffic.
`;

const shared = {
  judge: { type: 'string' },
  'base-path': { type: 'string' },
  'callback-path': { type: 'string' },
  'reset-url': { type: 'string', multiple: true },
  profile: { type: 'string' },
  reporter: { type: 'string' },
  output: { type: 'string' },
} as const;

function parse<T extends Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>>(
  args: string[],
  options: T,
) {
  try {
    return parseArgs({ args, options: { ...shared, ...options }, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function judgedOption(value: string | undefined, fallback: Judged): Judged {
  if (value === undefined) return fallback;
  if (value === 'service' || value === 'caller' || value === 'both') return value;
  throw new UsageError(`--judge must be service, caller or both, got "${value}"`);
}

function pathOption(flag: string, value: string | undefined): string | undefined {
  if (value !== undefined && !value.startsWith('/'))
    throw new UsageError(`--${flag} must be a path starting with /, got "${value}"`);
  return value;
}

/** The paths of --reset-url (a URL or a path): a POST there is a reset, after which the rules over time start again. */
const resetPaths = (given: string[] | undefined) =>
  (given ?? []).map((u) => (u.startsWith('/') ? u : new URL(httpUrl('--reset-url', u)).pathname));

/**
 * What traffic and the proxy judge by, from the options they share; the credentials the environment holds are written
 * as *** wherever a recorded exchange has them.
 */
function judgingOptions(o: ReturnType<typeof parse>['values'], io: CliIo, run: RunState, judged: Judged) {
  const secrets = credentialOptions.map(([, , v]) => io.env[v]).filter((s): s is string => typeof s === 'string');
  run.redact = redactor(secrets);
  return {
    judge: judgedOption(o.judge as string | undefined, judged),
    basePath: pathOption('base-path', o['base-path'] as string | undefined),
    callbackPath: pathOption('callback-path', o['callback-path'] as string | undefined),
    resetPaths: resetPaths(o['reset-url'] as string[] | undefined),
    profile: profileOption(o.profile as string | undefined),
    secrets,
  };
}

export async function trafficCommand(args: string[], io: CliIo, say: (line: string) => void, run: RunState) {
  const { values: o, positionals: files } = parse(args, { format: { type: 'string' } });
  if (files.length === 0)
    throw new UsageError('traffic needs one or more files: messaging-conformance traffic <file>...');
  if (o.format !== undefined && o.format !== 'har' && o.format !== 'ndjson')
    throw new UsageError(`--format must be har or ndjson, got "${o.format}"`);
  const write = reporter(o, run);
  try {
    const judging = judgingOptions(o, io, run, 'service');
    const { report, judge } = await judgeTraffic(files, {
      format: o.format as 'har' | 'ndjson' | undefined,
      ...judging,
    });
    say(run.redact(trafficSummary(report, judge)));
    write(report, say);
    run.finished = true;
    return report.ok ? 0 : 1;
  } catch (error) {
    if (error instanceof TrafficError) throw new CannotRunError(error.message);
    throw error;
  }
}

/** Runs the proxy until SIGINT or SIGTERM, or npm ending (or `stop` resolving, in tests); resolves with the exit code. */
export async function proxyCommand(
  args: string[],
  io: CliIo,
  say: (line: string) => void,
  run: RunState,
  stop: Promise<void> = signalled(),
) {
  const { values: o, positionals } = parse(args, {
    target: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    record: { type: 'string' },
    'report-every': { type: 'string' },
  });
  if (positionals.length) throw new UsageError(`proxy takes no file: ${positionals.join(' ')}`);
  if (o.target === undefined) throw new UsageError('proxy needs --target <url>, the service to forward to');
  const every = o['report-every'];
  if (every !== undefined && !/^[1-9]\d*$/.test(every))
    throw new UsageError(`--report-every must be a whole number above 0, got "${every}"`);
  const write = reporter(o, run);
  const judging = judgingOptions(o, io, run, 'both');
  const found = (r: CheckResult) => say(run.redact(findingLine(r)));
  const proxy = await startProxy({
    target: httpUrl('--target', o.target),
    port: port(o.port, 0),
    host: o.host ?? '127.0.0.1',
    ...judging,
    ...(o.record ? { record: writable('record', o.record) } : {}),
    finding: found,
    judged: (n) => {
      if (every !== undefined && n % Number(every) === 0) write(proxy.judge.report());
    },
  }).catch((error: Error) => {
    throw new CannotRunError(`the proxy cannot listen: ${error.message}`);
  });
  say(
    `messaging-conformance proxy: ${proxy.url} -> ${o.target} (judging ${proxy.judge.judged === 'both' ? 'both sides' : `the ${proxy.judge.judged}'s side`}; Ctrl-C prints the report)`,
  );
  await stop;
  await proxy.close();
  const report = proxy.judge.report();
  say(run.redact(trafficSummary(report, proxy.judge)));
  write(report, say);
  run.finished = true;
  return report.ok ? 0 : 1;
}
