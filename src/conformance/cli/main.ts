// messaging-conformance as a function of arguments, streams and environment, for tests to call; bin.ts is the command.
import { asksForHelp, CannotRunError, type CliIo, httpUrl, parse, reportError, UsageError } from '../../core/cli.ts';
import { redactor } from '../ground/redaction.ts';
import { checkWebhookReceiver } from '../stages/webhook.ts';
import { conformanceStages, OptionError, runConformance, selectStages } from '../suite/suite.ts';
import { failedRun, UnreachableError } from '../suite/run-checks.ts';
import { loadVars, type Vars } from '../suite/vars.ts';
import { stopLine, summary as formatSummary } from '../report.ts';
import * as cli from './shared.ts';
import { finish, reporter } from './reports.ts';
import { proxyCommand, trafficCommand, trafficUsage } from './traffic.ts';
import { varsCommand, varsUsage } from './vars.ts';

export { newRunState, type RunState } from './shared.ts';

const name = 'messaging-conformance';

const usage = `usage: messaging-conformance --server <url> [--api-key K] [--api-key-no-balance K] [--integrator-token T]
         [--vars <file>] [--profile described|strict] [--reset-url <url>] [--reset-command <cmd>]
         [--only <stage>]... [--skip <stage>]... [--seed N] [--generated N] [--bail] [--mock] [--list]
         [--reporter junit|json|markdown --output <file>]... [--record <file>] [--rate N]
         [--callbacks --callback-listen HOST:PORT [--callback-url URL] [--callback-window S]]

  Checks a live implementation of the messaging service against the contract.
  Exit 0 only when every selected check ran and passed, 1 when a check failed, 2 for bad
  arguments, a server that does not answer, credentials it rejects, or a run that could not
  finish. Credentials are written as *** in everything the suite prints or writes.

  --server              base URL of the implementation
  --api-key             an API key of an account with balance       (or env MESSAGING_API_KEY)
  --api-key-no-balance  an API key of an account without balance    (or env MESSAGING_API_KEY_NO_BALANCE)
  --integrator-token    a token of a user with the INTEGRATOR permission (or env MESSAGING_INTEGRATOR_TOKEN)
  --timeout             seconds to wait for one answer, body included (default 10)
  --deadline            seconds for the whole run (default 300); past it the run stops: exit 2
  --vars                a JSON file: credentials and deployment values for the examples' values
                        (\`messaging-conformance vars --init\` writes a starter one)
  --callbacks           also check the service's own status callbacks (stage callbacks): a receiver
                        listens at --callback-listen HOST:PORT, where the service must post them
                        (register that address, or --callback-url, the public URL leading there,
                        as the account's callback URL); the suite schedules the success examples
                        and waits --callback-window seconds (default the first retry delay + 10)
  --profile             described (default): only what the service's description states, every
                        answer it allows accepted; strict: this contract's decisions too (what
                        its sandbox is held to)
  --reset-url           POSTed before each stage to put the service back in the examples' state
                        (the sandbox's: <sandbox>/_sandbox/reset); must answer 2xx
  --reset-command       a shell command run before each stage for the same purpose; must exit 0.
                        Without a reset hook every check holds whatever state the service is in
  --only, --skip        stage names (repeat them or separate with commas)
  --seed                seed of the generated requests and the order of the bad inputs
                        (default 1); a failure prints the seed that replays it
  --generated           generated requests per operation (default 25)
  --rate                requests a second the whole run keeps to (default: no pace), below the
                        service's rate limit; a 429 is waited out either way (Retry-After, else a
                        back-off) and sent again, up to 5 times: one still 429 is not judged
  --bail                stop at the first failed check (exit 1); the stages after it do not run
  --mock                the server is a mock: ask for each example by name
  --list                print the stages and exit
  --reporter junit|json|markdown
                        also write JUnit XML, the whole report as JSON, or a Markdown summary for a CI
                        job's page ($GITHUB_STEP_SUMMARY) to --output (on every exit once the options
                        are read, with the reason when the run could not finish); repeat the pair
                        for several: --reporter junit --output a.xml --reporter markdown --output a.md
  --record              write every exchange the run sends (credentials as ***) to this file:
                        NDJSON, or HAR for a .har name; \`traffic\` judges it again
  --help                this text

  stages: ${conformanceStages.map((s) => (s.needsCallbacks ? `${s.name} (with --callbacks)` : s.name)).join(', ')}

usage: messaging-conformance webhook --url <receiver> [--profile described|strict] [--timeout S]
         [--reporter junit|json|markdown --output <file>]...

  Checks your status-callback receiver: every documented callback (each status and delivery
  code), values this contract does not know yet, extra fields, a duplicate and out-of-order
  events must get 200 (the service retries anything else). With --profile strict, also this
  contract's expectation that malformed JSON, a wrong content type and an oversized body get
  anything but a 5xx or a hang. Exit 0 when all hold, 1 when one does not.

${trafficUsage}
${varsUsage}`;

export const reportFailure = (error: unknown, stderr: (text: string) => void, run: cli.RunState): number =>
  reportError(name, usage, error, stderr, run.redact);

async function webhook(args: string[], say: cli.Say, run: cli.RunState): Promise<number> {
  const o = parse(args, { ...cli.strings('url', 'profile', 'timeout'), ...cli.repeated('reporter', 'output') });
  if (o.url === undefined) throw new UsageError('webhook needs --url <receiver>');
  const write = reporter(o, run);
  const report = await checkWebhookReceiver({
    url: httpUrl('--url', o.url),
    profile: cli.profileOption(o.profile),
    timeoutMs: cli.seconds('timeout', o.timeout),
    log: say,
  });
  return finish(run, report, write, say);
}

const callbackFlags = ['callback-listen', 'callback-url', 'callback-window'] as const;
const suiteOptions = {
  ...cli.strings('server', 'vars', 'seed', 'generated', 'rate', 'timeout', 'deadline', 'profile'),
  ...cli.strings('record', 'reset-url', 'reset-command', ...callbackFlags),
  ...cli.strings(...cli.credentialOptions.map(([, flag]) => flag)),
  ...cli.booleans('mock', 'bail', 'list', 'callbacks'),
  ...cli.repeated('only', 'skip', 'reporter', 'output'),
};
type Options = ReturnType<typeof parse<typeof suiteOptions>>;

/** Writes what the command prints to `io`, returns its exit code; `run`: the bin passes its own, for its guards. */
export async function conformanceMain(args: string[], io: CliIo, run = cli.newRunState()): Promise<number> {
  if (asksForHelp(args)) {
    io.stdout(usage);
    return 0;
  }
  const say = (line: string) => io.stdout(`${line}\n`);
  try {
    if (args[0] === 'webhook') return await webhook(args.slice(1), say, run);
    if (args[0] === 'traffic') return await trafficCommand(args.slice(1), io, say, run);
    if (args[0] === 'proxy') return await proxyCommand(args.slice(1), io, say, run);
    if (args[0] === 'vars') return varsCommand(args.slice(1), say, run);
    const o = parse(args, suiteOptions);
    const write = reporter(o, run);
    return await conformance(o, write, io, say, run).catch((error) => {
      // Once the report's file is known, every exit writes it, with the reason.
      const reason = String(error?.message ?? error);
      if (!run.finished) write(failedRun(reason, o.profile === 'strict' ? 'strict' : 'described'));
      throw error;
    });
  } catch (error) {
    return reportFailure(error, io.stderr, run);
  }
}

/** --callbacks with --callback-listen HOST:PORT, [--callback-url URL] and [--callback-window S]. */
function callbackOptions(o: Options) {
  const given = callbackFlags.find((f) => o[f] !== undefined);
  if (!o.callbacks && given) throw new UsageError(`--${given} needs --callbacks`);
  if (!o.callbacks) return undefined;
  const listen = /^(.+):(\d{1,5})$/.exec(o['callback-listen'] ?? '');
  if (!listen || Number(listen[2]) > 65535)
    throw new UsageError(
      `--callbacks needs --callback-listen HOST:PORT (where the service's status callbacks arrive), got ${JSON.stringify(o['callback-listen'] ?? null)}`,
    );
  return {
    host: listen[1]!.replace(/^\[(.*)\]$/, '$1'),
    port: Number(listen[2]),
    publicUrl: o['callback-url'] === undefined ? undefined : httpUrl('--callback-url', o['callback-url']),
    windowMs: cli.seconds('callback-window', o['callback-window']),
  };
}

/** Each credential (flag, else --vars, else env), its source (said if rejected), a redactor of all given any way. */
function credentials(o: Options, vars: Vars, env: Record<string, string | undefined>) {
  const given = cli.credentialOptions.map(([key, flag, variable]) => {
    const ways = [
      [o[flag], `--${flag}`],
      [vars[key], `"${key}" in ${o.vars}`],
      [env[variable], `env ${variable}`],
    ] as const;
    const [value, source] = ways.find(([v]) => v !== undefined) ?? ways[2];
    // Every value given any way is a secret, the ones not used too.
    return { key, value, source, secrets: ways.map(([v]) => v) };
  });
  const [apiKey, apiKeyNoBalance, integratorToken] = given.map((g) => g.value);
  if (!apiKey || !integratorToken)
    throw new UsageError(
      'conformance needs credentials: --api-key and --integrator-token, "apiKey" and "integratorToken" in --vars, or MESSAGING_API_KEY and MESSAGING_INTEGRATOR_TOKEN in the environment',
    );
  return {
    keys: { apiKey, integratorToken, apiKeyNoBalance },
    sources: Object.fromEntries(given.map((g) => [g.key, g.source])),
    redact: redactor(given.flatMap((g) => g.secrets)),
  };
}

async function conformance(o: Options, write: cli.WriteReport, io: CliIo, say: cli.Say, run: cli.RunState) {
  const timeoutMs = cli.seconds('timeout', o.timeout);
  const deadlineMs = cli.seconds('deadline', o.deadline);
  const split = (v: string[] | undefined) => (v ?? []).flatMap((s) => s.split(',')).filter(Boolean);
  const only = split(o.only);
  const skip = split(o.skip);
  const selected = cli.asUsageError(() => selectStages(only, skip, o.callbacks));
  if (o.list) {
    for (const s of selected) say(`${s.name.padEnd(10)} ${s.description}`);
    const callbacks = conformanceStages.find((s) => s.needsCallbacks)!;
    // Naming callbacks in --only or --skip without --callbacks is refused above.
    if (!o.callbacks && only.length === 0)
      say(`${callbacks.name.padEnd(10)} (with --callbacks) ${callbacks.description}`);
    run.finished = true;
    return 0;
  }
  if (o.server === undefined) throw new UsageError('conformance needs --server <url>');
  const profile = cli.profileOption(o.profile);
  const seed = cli.numberOption('seed', o.seed, /^-?\d+$/, 'an integer');
  const callbacks = callbackOptions(o);
  const generated = cli.numberOption('generated', o.generated, /^\d+$/, 'a whole number');
  const rate = cli.numberOption('rate', o.rate, /^\d+(\.\d+)?$/, 'a number of requests a second above 0', 0);
  const vars: Vars = o.vars === undefined ? {} : cli.asUsageError(() => loadVars(o.vars!, io.env));
  const { keys, sources, redact } = credentials(o, vars, io.env);
  run.redact = redact;
  const report = await runConformance({
    server: o.server,
    ...keys,
    timeoutMs,
    deadlineMs,
    profile,
    values: vars.values,
    only,
    skip,
    seed,
    generated,
    rate,
    callbacks,
    mock: o.mock,
    bail: o.bail,
    resetUrl: o['reset-url'],
    resetCommand: o['reset-command'],
    record: o.record === undefined ? undefined : cli.writable('record', o.record),
    log: (line) => say(redact(line)),
  }).catch((error) => {
    // A refused option is a usage error, as the command line spells it (resetUrl: --reset-url, timeoutMs: --timeout).
    if (error instanceof OptionError) {
      const flag = error.option.replace(/Ms$/, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      throw new UsageError(`--${flag} ${error.expected}, got ${JSON.stringify(error.value)}`);
    }
    throw error instanceof UnreachableError ? new CannotRunError(error.message) : error;
  });
  // Credentials rejected or answers not the service's: one line, as an error (exit 2), the report written quietly.
  const rejected = stopLine(report, sources);
  if (!rejected) say(redact(formatSummary(report)));
  write(report, rejected ? undefined : say);
  run.finished = true;
  if (rejected) throw new CannotRunError(rejected);
  if (report.finished) return report.ok ? 0 : 1;
  io.stderr(`${name}: the run could not finish: ${redact(report.unfinished ?? '')}\n`);
  return 2;
}
