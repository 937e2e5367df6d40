// The callbacks stage (--callbacks) against an implementation that posts status callbacks: it
// passes unbroken, and fails when a forwarder between the implementation and the suite's receiver
// breaks the callbacks one way (a missing field, a lower-case status, a wrong requestId, no retry).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { callbacksStage } from '../../src/conformance/stages/callbacks.ts';
import { runSuite, suiteContext } from '../../src/conformance/suite/suite.ts';
import { summary } from '../../src/conformance/report.ts';
import type { Credentials } from '../../src/conformance/document/pairs.ts';
import { freePort } from '../../src/util/wait.ts';

export interface CallbackImplementation {
  name: string;
  /** Starts one that posts its status callbacks to `callbackUrl`, retrying after `retryMs`. */
  start(callbackUrl: string, retryMs: number): Promise<{ url: string; close(): Promise<void> }>;
  credentials: Credentials;
  values: Record<string, unknown>;
}

/**
 * Rewrites a callback on its way (undefined: pass it on; 'swallow': answer 200 and pass nothing on). `unheardIsOk`: a
 * post the receiver never answered (the connection dropped) is answered 200, as a service that counts it delivered.
 */
type Break = () => ((body: any) => any | 'swallow' | undefined) & {
  unheardIsOk?: boolean;
  alsoPost?: (body: any) => any;
};

/** A forwarder: posts to it go on to `target` as the break leaves them; the target's answer comes back. */
async function forwarder(target: string, make: Break) {
  const change = make();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const changed = change(JSON.parse(text));
      if (changed === 'swallow') return res.writeHead(200).end();
      try {
        const answer = await fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: changed === undefined ? text : JSON.stringify(changed),
        });
        res.writeHead(answer.status).end(await answer.text());
        // A second post the break makes of this one (the service went on), after the first was answered.
        const also = change.alsoPost?.(JSON.parse(text));
        if (also !== undefined)
          await fetch(target, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(also),
          });
      } catch {
        // The break's second post may fail after the first was answered: that answer stands.
        if (!res.headersSent) res.writeHead(change.unheardIsOk ? 200 : 502).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const schema = 'every callback is a status callback';
/** Each break, and the check that must fail on it. */
export const breaks: Array<[string, Break, string, ('strict' | 'described')?]> = [
  // `messageId` is required by this contract's decision (the description shows no payload): strict holds it.
  ['a callback without its messageId', () => (body) => ({ ...body, messageId: undefined }), schema, 'strict'],
  ['a status in lower case', () => (body) => ({ ...body, status: String(body.status).toLowerCase() }), schema],
  [
    'UNDELIVERED reported without its error code',
    () => (body) => ({ ...body, status: 'UNDELIVERED', error: null }),
    schema,
  ],
  // Section 6: a failed delivery is UNDELIVERED with a code of 7.3; here a status misspelled, a code on every callback.
  [
    'a delivery error code under another status',
    () => (body) => ({
      ...body,
      status: body.status === 'UNDELIVERED' ? 'NOT_DELIVERED' : body.status,
      error: body.error ?? 'too-long-message',
    }),
    schema,
  ],
  // Section 8: "an identical message within 5 minutes is reported as duplicated".
  [
    'a duplicate reported delivered',
    () => (body) =>
      body.error === 'duplicated' ? { ...body, status: 'DELIVERED', error: null, comment: null } : undefined,
    'is reported as duplicated',
  ],
  // Section 7.3: the outcome the webhook's examples give (a malformed number, a text over the limit), reported otherwise.
  [
    'a malformed number reported delivered',
    () => (body) =>
      body.error === 'error-address-format' ? { ...body, status: 'DELIVERED', error: null, comment: null } : undefined,
    'is reported so',
  ],
  [
    'a text over the limit reported delivered',
    () => (body) =>
      body.error === 'too-long-message' ? { ...body, status: 'DELIVERED', error: null, comment: null } : undefined,
    'is reported so',
  ],
  [
    'a file that cannot be loaded reported delivered',
    () => (body) =>
      body.error === 'media-request-failed' ? { ...body, status: 'DELIVERED', error: null, comment: null } : undefined,
    'is reported so',
  ],
  [
    'every message reported not-template-match',
    () => (body) => ({ ...body, status: 'UNDELIVERED', error: 'not-template-match' }),
    'is reported so',
  ],
  [
    'a callback its receiver never answered counted as delivered',
    () => Object.assign(() => undefined, { unheardIsOk: true }),
    'or dropped unanswered, is posted again',
  ],
  // This contract's decision (the description shows no transition of a delivered message): strict holds it.
  [
    'a delivered message sent on at a later stage',
    () =>
      Object.assign(() => undefined, {
        alsoPost: (body: any) =>
          body.status === 'DELIVERED' ? { ...body, cascadeStageUUID: `${body.cascadeStageUUID}-later` } : undefined,
      }),
    'reported at no later stage',
    'strict',
  ],
  [
    'a callback naming another requestId',
    () => (body) => ({ ...body, requestId: `other-${body.requestId}` }),
    'every accepted message gets a callback naming its requestId',
  ],
  [
    'a callback reporting another cascade',
    () => (body) => ({ ...body, cascadeId: 987654 }),
    'a callback reports the cascade',
  ],
  [
    'no retry after the receiver answers 500',
    () => {
      const seen = new Set<string>();
      return (body) => {
        const key = `${body.requestId} ${body.messageId} ${body.status}`;
        if (seen.has(key)) return 'swallow';
        seen.add(key);
        return undefined;
      };
    },
    'a callback the receiver answered with 500, or dropped unanswered, is posted again',
  ],
];

/** The callbacks test against `impl`: unbroken it passes, and it fails on each break (those named in `only`). */
export function callbackTest(impl: CallbackImplementation, only?: string[]): void {
  const run = async (make?: Break, profile: 'strict' | 'described' = 'described') => {
    const port = await freePort();
    const receiver = `http://127.0.0.1:${port}/`;
    const forward = make ? await forwarder(receiver, make) : undefined;
    const server = await impl.start(forward?.url ?? receiver, 100);
    try {
      const options = {
        server: server.url,
        credentials: impl.credentials,
        values: impl.values,
        seed: 1,
        mock: false,
        log: () => {},
        profile,
      };
      return await runSuite(suiteContext({ ...options, callbacks: { host: '127.0.0.1', port, windowMs: 1_500 } }), [
        callbacksStage,
      ]);
    } finally {
      await server.close();
      await forward?.close();
    }
  };

  describe(`the callbacks stage against ${impl.name}`, () => {
    it('passes unbroken: every callback valid, linked, and posted again after a 500', async () => {
      const report = await run();
      expect(report.ok, summary(report)).toBe(true);
      expect(report.results.map((r) => r.name)).toHaveLength(7);
    }, 30_000);

    it('a break of a decision only (no messageId) passes the default profile, which holds the description alone', async () => {
      const report = await run(breaks[0]![1]);
      expect(report.ok, summary(report)).toBe(true);
    }, 30_000);

    // One after another: side by side, two runs could be given the same free port for their receivers.
    it.each(breaks.filter(([name]) => !only || only.includes(name)))(
      'fails on: %s',
      async (_name, make, failing, profile) => {
        const report = await run(make, profile);
        expect(report.ok, summary(report)).toBe(false);
        expect(
          report.results
            .filter((r) => !r.ok)
            .map((r) => r.name)
            .join('\n'),
        ).toContain(failing);
      },
      30_000,
    );
  });
}
