#!/usr/bin/env node
// messaging-sandbox: the reference implementation as a server, with the docs page at / and the
// bundled document at /openapi.json.
import { httpUrl, parse, port, runCli, serverOptions, stopOnSignal, UsageError } from '../core/cli.ts';
import { defaultCredentials } from './fixtures.ts';
import { startSandbox } from './index.ts';

const usage = `usage: messaging-sandbox [--host 127.0.0.1] [--port 4020] [--fixtures <file>] [--callback-url <url>]
                         [--clock real|manual]

  The stateful reference implementation of the messaging service's contract: the API under /api,
  the docs page at /, the bundled OpenAPI document at /openapi.json, and a control API at
  /_sandbox/state, /_sandbox/callbacks, /_sandbox/clock and POST /_sandbox/reset.

  --host           interface to listen on (default 127.0.0.1)
  --port           port to listen on (default 4020; 0 picks a free one)
  --fixtures       a fixtures JSON file laid over the bundled ones: its entries add to them (one
                   with the key, id or name of a default replaces it), a section it leaves out
                   keeps the default's; "defaults": false in it starts from nothing
  --callback-url   where simulated delivery-status callbacks are posted
  --clock          real (default): the machine's time; manual: the sandbox's time stands still
                   until POST /_sandbox/clock moves it ({"advanceMs": 86400000} or
                   {"now": "2099-01-16T09:00:00Z"}), which answers once the deliveries, callbacks
                   and retries due by then have run; GET /_sandbox/clock shows it
  --help           this text

  Default credentials (the bundled fixtures):
${defaultCredentials.apiKeys.map(({ key, balance }) => `    x-api-key: ${key}${balance > 0 ? '' : ' (no balance: out-of-balance)'}`).join('\n')}
${defaultCredentials.integratorTokens.map((token) => `    Authorization: Bearer ${token} (close threads)`).join('\n')}

  Control API (the sandbox's own, outside the contract):
    GET  /_sandbox/state       threads (with comments), subscribers, the count of used requestIds
    GET  /_sandbox/callbacks   the last 10,000 simulated status callbacks, with each post's result
    GET  /_sandbox/clock       the sandbox's time; POST moves a manual clock (above)
    POST /_sandbox/reset       back to the fixtures (the conformance suite's --reset-url)
`;

runCli('messaging-sandbox', usage, async (args) => {
  const o = parse(args, {
    ...serverOptions,
    fixtures: { type: 'string' },
    'callback-url': { type: 'string' },
    clock: { type: 'string', default: 'real' },
  });
  const callbackUrl = o['callback-url'] === undefined ? undefined : httpUrl('--callback-url', o['callback-url']);
  if (o.clock !== 'real' && o.clock !== 'manual')
    throw new UsageError(`--clock must be real or manual, got ${JSON.stringify(o.clock)}`);
  const sandbox = await startSandbox({
    host: o.host,
    port: port(o.port, 4020),
    fixtures: o.fixtures,
    callbackUrl,
    clock: o.clock,
  });
  const { url } = sandbox;
  console.log(`sandbox: ${url}/api/...  docs: ${url}/  document: ${url}/openapi.json  control: ${url}/_sandbox/state`);
  if (callbackUrl) console.log(`status callbacks go to ${callbackUrl}`);
  if (o.clock === 'manual')
    console.log(`clock: manual, at ${sandbox.clock.now().toISOString()}; POST ${url}/_sandbox/clock moves it`);
  stopOnSignal(sandbox.close);
});
