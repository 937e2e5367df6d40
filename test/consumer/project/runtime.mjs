// Run by test/consumer on each Node line, in a project that has only the installed tarballs:
// every subpath imports, the client talks to the in-process sandbox, CommonJS can require the
// client, the conformance bin passes against the sandbox bin, the checking proxy judges an app's traffic and `traffic`
// its recording, and the sandbox's manual clock moves in process and through the bin's control API. Prints one JSON
// line.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import * as client from '@messaging-contract/client';
import * as webhooks from '@messaging-contract/client/webhooks';
import * as preflight from '@messaging-contract/client/preflight';
import document from '@messaging-contract/client/openapi.json' with { type: 'json' };
import * as sandboxPackage from '@messaging-contract/sandbox';
import fixtures from '@messaging-contract/sandbox/fixtures.json' with { type: 'json' };
import * as conformance from '@messaging-contract/conformance';

const facts = { node: process.version };
const exports = (m) => Object.keys(m).sort();
facts.exports = {
  client: exports(client),
  webhooks: exports(webhooks),
  preflight: exports(preflight),
  sandbox: exports(sandboxPackage),
  conformance: exports(conformance),
};
facts.documentVersion = document.openapi;
facts.fixtureKeys = fixtures.apiKeys.map((k) => k.key);
facts.requireClient = typeof createRequire(import.meta.url)('@messaging-contract/client').createMessagingClient;

// In process: the client against startSandbox.
const sandbox = await sandboxPackage.startSandbox();
try {
  facts.asyncDispose = typeof sandbox[Symbol.asyncDispose];
  const api = client.createMessagingClient({
    baseUrl: sandbox.url,
    apiKey: 'sandbox-api-key',
    integratorToken: 'sandbox-integrator-token',
    retry: false,
  });
  facts.closed = await api.closeThreads({ threadIds: [101, 999999] });
  // Ids past 2^53 go out and come back digit for digit.
  facts.bigIds = (await api.closeThreads({ threadIds: [9007199254740993n] })).not_existing_threads.map(String);
  facts.scheduled = typeof (
    await api.scheduleCascade({
      cascadeId: 1001,
      subscriberFilter: { address: '79001234567', type: 'PHONE' },
      content: { viberContent: { contentType: 'TEXT', text: 'Hi' }, smsContent: { contentType: 'TEXT', text: 'Hi' } },
    })
  ).requestId;
  facts.apiError = await api
    .scheduleCascade({
      cascadeId: 424242,
      subscriberFilter: { address: '79001234567', type: 'PHONE' },
      content: { smsContent: { contentType: 'TEXT', text: 'Hi' } },
    })
    .then(
      () => 'resolved',
      (e) => (e instanceof client.ApiError ? `${e.status} ${e.code} ${e.is('cascade-not-found')}` : String(e)),
    );
  facts.preflight = await preflight
    .createValidatingClient({ baseUrl: sandbox.url, integratorToken: 'x' })
    .closeThreads({ threadIds: 'nope' })
    .then(
      () => 'sent',
      (e) =>
        e instanceof preflight.RequestValidationError && e instanceof client.MessagingError ? e.errors[0] : String(e),
    );
  await sandbox.idle();
  const callback = sandbox.callbacks()[0]?.payload;
  facts.callback = webhooks.parseStatusCallback(JSON.stringify(callback)).status;
  facts.bigMessageId = String(
    webhooks.parseStatusCallback('{"messageId":9223372036854775807,"status":"SENT","statusAt":"2030-01-15T09:30:04Z"}')
      .messageId,
  );
  facts.badCallback = (() => {
    try {
      webhooks.parseStatusCallback('{"status": 1}');
      return 'accepted';
    } catch (e) {
      return e instanceof webhooks.StatusCallbackError ? 'StatusCallbackError' : String(e);
    }
  })();
  const page = await fetch(`${sandbox.url}/`);
  facts.docsPage = `${page.status} ${page.headers.get('content-type')} ${(await page.text()).includes('<redoc') || undefined}`;
  const served = await (await fetch(`${sandbox.url}/openapi.json`)).json();
  facts.servedDocumentEqual = JSON.stringify(served) === JSON.stringify(document);
  facts.state = sandbox.state().threads.find((t) => t.id === 101)?.state;
  sandbox.reset();
  facts.stateAfterReset = sandbox.state().threads.find((t) => t.id === 101)?.state;
} finally {
  await sandbox.close();
}

// The bins, as a user runs them with npx. (npx marks its environment with npm_* variables; a
// nested npx would take them as its own options, so the children get the environment without them.)
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
const output = (child) => {
  let text = '';
  child.stdout.on('data', (c) => (text += c));
  child.stderr?.on('data', (c) => (text += c));
  return {
    get text() {
      return text;
    },
    exit: new Promise((resolve) => child.once('exit', resolve)),
  };
};
// The node a bin's `#!/usr/bin/env node` finds: the line under test.
const which = spawn(npx, ['--no-install', 'node', '-p', 'process.version'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
const whichOut = output(which);
await whichOut.exit;
facts.binNode = whichOut.text.trim().split('\n').at(-1);

// The sandbox bin, as a user starts it; resolves with its URL once it listens. detached: npx runs
// the bin in a child of its own, so the whole group is stopped.
async function startSandboxBin(...args) {
  const child = spawn(npx, ['--no-install', 'messaging-sandbox', '--port', '0', ...args], {
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = output(child);
  const stop = () => process.kill(-child.pid, 'SIGTERM');
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', () => {
      const found = /sandbox: (http:\/\/[^/\s]+)/.exec(out.text);
      if (found) resolve(found[1]);
    });
    child.once('exit', (code) =>
      reject(new Error(`messaging-sandbox ${args.join(' ')} exited with ${code}: ${out.text}`)),
    );
    setTimeout(
      () => reject(new Error(`messaging-sandbox ${args.join(' ')} did not start: ${out.text}`)),
      20_000,
    ).unref();
  }).catch((error) => {
    stop();
    throw error;
  });
  return { url, stop };
}

const bin = await startSandboxBin();
try {
  const { url } = bin;
  const suite = spawn(
    npx,
    [
      '--no-install',
      'messaging-conformance',
      '--server',
      url,
      '--api-key',
      'sandbox-api-key',
      '--api-key-no-balance',
      'sandbox-api-key-no-balance',
      '--integrator-token',
      'sandbox-integrator-token',
      '--profile',
      'strict',
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const suiteOut = output(suite);
  facts.conformanceExit = await suiteOut.exit;
  facts.conformanceSummary = suiteOut.text.trim().split('\n').at(-1);
  // Dredd runs inside the suite's process: nothing of it (its reporters, its dependencies' warnings) may show.
  // (Dredd's logger colours its lines even into a pipe: the colours go before matching.)
  facts.conformanceNoise = suiteOut.text
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((l) => /\(node:\d+\)|Warning:|^(info|pass|fail|skip|complete):/.test(l));
  if (facts.conformanceExit !== 0) facts.conformanceOutput = suiteOut.text.slice(-3000);

  // The checking proxy in front of the sandbox bin, recording; then the bin's `traffic` on the recording.
  const commentLimit = document.components.schemas.CloseThreadsRequest.properties.comment.maxLength;
  const recording = join(mkdtempSync(join(tmpdir(), 'mc-traffic-')), 'traffic.ndjson');
  const proxy = await conformance.startProxy({ target: url, record: recording });
  const close = (body) =>
    fetch(`${proxy.url}/api/v1/threads/close`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sandbox-integrator-token' },
      body: JSON.stringify(body),
    }).then((r) => r.status);
  const statuses = [
    await close({ threadIds: [999999] }),
    await close({ threadIds: [999998], comment: 'x'.repeat(commentLimit + 1) }),
  ];
  await proxy.close();
  const proxied = proxy.judge.report();
  facts.proxy = {
    statuses,
    ok: proxied.ok,
    caller: proxied.traffic.caller.failed,
    service: proxied.traffic.service.failed,
  };
  const traffic = spawn(npx, ['--no-install', 'messaging-conformance', 'traffic', recording, '--judge', 'both'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const trafficOut = output(traffic);
  facts.trafficExit = await trafficOut.exit;
  facts.trafficCause = trafficOut.text.split('\n').find((l) => l.startsWith('FAIL'));
  facts.trafficHoldsToken = trafficOut.text.includes('sandbox-integrator-token');
} finally {
  bin.stop();
}
// The manual clock in process: a message for tomorrow is delivered, with its callback, when the clock gets there.
const timed = await sandboxPackage.startSandbox({ clock: 'manual' });
try {
  await timed.clock.set('2099-01-15T09:00:00Z');
  await client.createMessagingClient({ baseUrl: timed.url, apiKey: 'sandbox-api-key', retry: false }).scheduleCascade({
    cascadeId: 1003,
    subscriberFilter: { address: '79001234567', type: 'PHONE' },
    content: { smsContent: { contentType: 'TEXT', text: 'Tomorrow' } },
    startTime: '2099-01-16T09:00:00Z',
  });
  await timed.idle(); // with the manual clock: resolves while the message waits for tomorrow
  const before = timed.callbacks().length;
  const now = (await timed.clock.advance(24 * 60 * 60 * 1000)).toISOString();
  facts.manualClock = {
    mode: timed.clock.mode,
    before,
    now,
    statusAt: timed.callbacks()[0]?.payload.statusAt,
    backwards: await timed.clock.set('2099-01-01T00:00:00Z').then(
      () => 'moved',
      (e) => e.message.includes('only moves forward'),
    ),
  };
} finally {
  await timed.close();
}

// The bin with --clock manual: the control API moves its clock.
const clockBin = await startSandboxBin('--clock', 'manual');
try {
  const { url } = clockBin;
  const clock = async (body) => {
    const res = await fetch(
      `${url}/_sandbox/clock`,
      body && { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );
    return { status: res.status, body: await res.json() };
  };
  const start = (await clock()).body;
  const tomorrow = new Date(Date.parse(start.now) + 24 * 60 * 60 * 1000).toISOString();
  const scheduled = await fetch(`${url}/api/cascade/schedule`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sandbox-api-key' },
    body: JSON.stringify({
      requestId: 'clock-1',
      cascadeId: 1003,
      subscriberFilter: { address: '79001234567', type: 'PHONE' },
      content: { smsContent: { contentType: 'TEXT', text: 'Tomorrow' } },
      startTime: tomorrow,
    }),
  });
  const moved = await clock({ advanceMs: 24 * 60 * 60 * 1000 });
  const callbacks = await (await fetch(`${url}/_sandbox/callbacks`)).json();
  const refused = await clock({ now: start.now });
  facts.binClock = {
    mode: start.mode,
    scheduled: scheduled.status,
    moved: `${moved.status} ${moved.body.now === tomorrow}`,
    statusAtIsTomorrow: callbacks[0]?.payload.statusAt === tomorrow,
    refused: `${refused.status} ${refused.body.title}`,
  };
} finally {
  clockBin.stop();
}
console.log(JSON.stringify(facts));
