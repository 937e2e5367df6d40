// messaging-conformance traffic and proxy: the commands that judge exchanges nobody in this suite sent. Exit 0 when
// every exchange judged is allowed, 1 when one breaks the contract, 2 when a file cannot be read or an option is wrong.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CannotRunError, httpUrl, port, signalled, UsageError, type CliIo } from '../../core/cli.ts';
import * as cli from './shared.ts';
import { finish, reporter } from './reports.ts';
import { redactor } from '../ground/redaction.ts';
import { TrafficError } from '../traffic/readers/format.ts';
import type { Judged } from '../traffic/judge.ts';
import { startProxy } from '../traffic/proxy.ts';
import { findingLine, judgeTraffic } from '../traffic/run.ts';

export const trafficUsage = `usage: messaging-conformance traffic <file>... [--format har|ndjson] [--judge service|caller|both]
         [--base-path P] [--callback-path P] [--reset-url U]... [--profile described|strict]
         [--reporter junit|json|markdown --output <file>]...

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
         [--profile described|strict] [--reporter junit|json|markdown --output <file>]...

  Forwards every request to --target unchanged and judges each exchange both ways (--judge both by
  default): your app's requests and the service's answers. Prints each failure as it is found,
  and the whole report on Ctrl-C or SIGTERM (and writes --reporter's file then, and every
  --report-every N exchanges). --record writes what it saw (credentials as ***) as NDJSON, or HAR
  for a .har name, to judge again with traffic (the bodies of exchanges outside the document's
  paths, such as a docs page, are left out). Exit as for traffic.
`;

/** The options traffic and the proxy share; `own`, the command's. */
const shared = {
  ...cli.strings('judge', 'base-path', 'callback-path', 'profile'),
  ...cli.repeated('reset-url', 'reporter', 'output'),
};
const parse = <O extends NonNullable<ParseArgsConfig['options']>>(args: string[], own: O) =>
  cli.asUsageError(() => parseArgs({ args, options: { ...shared, ...own }, strict: true, allowPositionals: true }));
type Shared = ReturnType<typeof parse<typeof shared>>['values'];

function pathOption(flag: string, value: string | undefined): string | undefined {
  if (value !== undefined && !value.startsWith('/'))
    throw new UsageError(`--${flag} must be a path starting with /, got "${value}"`);
  return value;
}

/** What traffic and the proxy judge by, and their report's writer; the env's credentials in an exchange become ***. */
function judging(o: Shared, io: CliIo, run: cli.RunState, judged: Judged) {
  const write = reporter(o, run);
  const secrets = cli.credentialOptions.map(([, , v]) => io.env[v]).filter((s): s is string => typeof s === 'string');
  run.redact = redactor(secrets);
  const options = {
    judge: cli.oneOf('judge', ['service', 'caller', 'both'], o.judge) ?? judged,
    basePath: pathOption('base-path', o['base-path']),
    callbackPath: pathOption('callback-path', o['callback-path']),
    // A POST to a --reset-url (a URL or a path) is a reset, after which the rules over time start again.
    resetPaths: (o['reset-url'] ?? []).map((u) =>
      u.startsWith('/') ? u : new URL(httpUrl('--reset-url', u)).pathname,
    ),
    profile: cli.profileOption(o.profile),
    secrets,
  };
  return { write, options };
}

export async function trafficCommand(args: string[], io: CliIo, say: cli.Say, run: cli.RunState) {
  const { values: o, positionals: files } = parse(args, cli.strings('format'));
  if (files.length === 0)
    throw new UsageError('traffic needs one or more files: messaging-conformance traffic <file>...');
  const format = cli.oneOf('format', ['har', 'ndjson'], o.format);
  const { write, options } = judging(o, io, run, 'service');
  const { report, judge } = await judgeTraffic(files, { format, ...options }).catch((error) => {
    throw error instanceof TrafficError ? new CannotRunError(error.message) : error;
  });
  return finish(run, report, write, say, judge);
}

/** Runs the proxy until SIGINT or SIGTERM, or npm ending (or `stop` resolving, in tests); resolves with the exit code. */
export async function proxyCommand(args: string[], io: CliIo, say: cli.Say, run: cli.RunState, stop = signalled()) {
  const { values: o, positionals } = parse(args, cli.strings('target', 'port', 'host', 'record', 'report-every'));
  if (positionals.length) throw new UsageError(`proxy takes no file: ${positionals.join(' ')}`);
  if (o.target === undefined) throw new UsageError('proxy needs --target <url>, the service to forward to');
  const every = cli.numberOption('report-every', o['report-every'], /^[1-9]\d*$/, 'a whole number above 0');
  const { write, options } = judging(o, io, run, 'both');
  const proxy = await startProxy({
    target: httpUrl('--target', o.target),
    port: port(o.port, 0),
    host: o.host ?? '127.0.0.1',
    ...options,
    ...(o.record ? { record: cli.writable('record', o.record) } : {}),
    finding: (r) => say(run.redact(findingLine(r))),
    judged: (n) => every !== undefined && n % every === 0 && write(proxy.judge.report(), undefined, proxy.judge),
  }).catch((error: Error) => {
    throw new CannotRunError(`the proxy cannot listen: ${error.message}`);
  });
  const side = proxy.judge.judged === 'both' ? 'both sides' : `the ${proxy.judge.judged}'s side`;
  say(`messaging-conformance proxy: ${proxy.url} -> ${o.target} (judging ${side}; Ctrl-C prints the report)`);
  await stop;
  await proxy.close();
  return finish(run, proxy.judge.report(), write, say, proxy.judge);
}
