// The sandbox: the whole contract on node:http, stateful and in memory, plus the docs page,
// /openapi.json and a control API under /_sandbox (sandbox-only, not part of the contract). A
// request goes through small steps (http/: route, authenticate, read the JSON body; then the
// request schema) to the handler of its operation (operations/); a step that refuses it throws a Refusal.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sandboxResetPath, type SchemeName } from '../core/meta.ts';
import type { Problem } from '../core/types.ts';
import { ClockControl, ClockError, clockBody, clockMove, realClock, realClockRefused } from './clock.ts';
import { isDocsPath, serveDocs } from './docs.ts';
import { DeliverySimulator, type DeliveryOptions } from './delivery.ts';
import { checkFixtures, loadFixtures, type Fixtures } from './fixtures.ts';
import { authenticate } from './http/authenticate.ts';
import { readJsonBody, refuseBody, type JsonBody } from './http/request-body.ts';
import { requestPath, route } from './http/route.ts';
import { writeReply } from './http/write-reply.ts';
import { handlers } from './operations/index.ts';
import { schemaViolation } from '../core/schema-violations.ts';
import { problem, Refusal, type Reply } from './reply.ts';
import { SandboxState, type Thread } from './state.ts';

export interface SandboxOptions extends DeliveryOptions {
  fixtures?: Fixtures;
  /** Largest request body accepted (default 8 MiB); a larger one gets 413. */
  bodyLimitBytes?: number;
  /** Time to receive a request's headers (default 10 s) and the whole request (default 30 s). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
}

/** What the control API (`GET /_sandbox/state`) and `state()` show of the sandbox's state. */
export interface SandboxSnapshot {
  threads: Thread[];
  /** External identifiers of the subscribers. */
  subscribers: string[];
  /** How many requestIds are taken. */
  usedRequestIds: number;
}

export interface Sandbox {
  server: Server;
  state: SandboxState;
  delivery: DeliverySimulator;
  /** The one clock of everything time-based in the sandbox; a manual one is moved by a test. */
  clock: ClockControl;
  /** Back to the fixtures: state, callback log and duplicate window. */
  reset(): void;
  snapshot(): SandboxSnapshot;
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const fixtures =
    options.fixtures === undefined ? loadFixtures() : checkFixtures(options.fixtures, 'the fixtures option');
  const state = new SandboxState(fixtures, options.limits);
  const time = options.clock ?? realClock;
  const delivery = new DeliverySimulator(state, fixtures.delivery, { ...options, clock: time });
  const clock = new ClockControl(time, delivery);
  const bodyLimit = options.bodyLimitBytes ?? 8 * 1024 * 1024;

  /** The secrets each security scheme of the document is checked against. */
  const secrets: Record<SchemeName, () => Iterable<string>> = {
    apiKey: () => state.apiKeys.keys(),
    integratorToken: () => fixtures.integratorTokens,
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = requestPath(req.url);
    if (path === null) throw new Refusal(problem(404, 'not-found', 'The request target is not a path of this server.'));
    if (path.startsWith('/_sandbox/')) return control(req, res, path);
    if (isDocsPath(path) && (await serveDocs(path, req, res))) return;

    const op = route(req, path);
    const credentials = authenticate(req, op, secrets);
    const { body, exact } = await readJsonBody(req, bodyLimit);
    const invalid = schemaViolation(op.operationId, body);
    if (invalid) throw new Refusal(problem(invalid.status, invalid.code, invalid.detail));
    writeReply(
      res,
      handlers[op.operationId](state, body, { exact, credentials, accept: delivery.accept, now: time.now() }),
    );
  }

  function reset(): void {
    state.reset();
    delivery.reset();
  }

  function snapshot(): SandboxSnapshot {
    return {
      threads: [...state.threads.values()],
      subscribers: [...state.subscribers.keys()],
      usedRequestIds: state.usedRequestIds,
    };
  }

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (path === '/_sandbox/clock' && req.method === 'POST') return writeReply(res, await moveClock(req));
    req.resume();
    writeReply(res, controlReply(req.method, path));
  }

  /** POST /_sandbox/clock: `{advanceMs}` or `{now}`, answered once the work due by then has run. */
  async function moveClock(req: IncomingMessage): Promise<Reply> {
    const refused = (detail: string) => problem(400, 'clock-request-not-valid', detail);
    if (clock.mode !== 'manual') {
      req.resume();
      return refused(realClockRefused);
    }
    let read: JsonBody;
    try {
      read = await readJsonBody(req, bodyLimit);
    } catch (error) {
      // The API answers a malformed body with the contract's 500 system-error; the control API, with a 400.
      if (error instanceof Refusal && error.reply.status === 500)
        return refused(`${(error.reply.body as Problem).detail ?? 'The body is not valid.'} Expected ${clockBody}.`);
      throw error;
    }
    try {
      const move = clockMove(read.body, read.exact);
      await ('now' in move ? clock.setTo(move.now, 'now') : clock.advanceBy(move.advanceMs, 'advanceMs'));
    } catch (error) {
      if (error instanceof ClockError) return refused(error.message);
      throw error;
    }
    return { status: 200, body: clock.reading() };
  }

  function controlReply(method: string | undefined, path: string): Reply {
    if (path === sandboxResetPath && method === 'POST') {
      reset();
      return { status: 200, body: { reset: true } };
    }
    if (path === '/_sandbox/callbacks' && method === 'GET') return { status: 200, body: delivery.callbacks };
    if (path === '/_sandbox/state' && method === 'GET') return { status: 200, body: snapshot() };
    if (path === '/_sandbox/clock' && method === 'GET') return { status: 200, body: clock.reading() };
    return problem(404, 'not-found', `No sandbox control at ${method} ${path}.`);
  }

  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const server = createServer(
    {
      headersTimeout,
      requestTimeout: options.requestTimeoutMs ?? 30_000,
      connectionsCheckingInterval: Math.min(1_000, headersTimeout),
    },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        if (error instanceof Refusal) {
          if (error.drainLimit !== undefined) return refuseBody(req, res, error.reply, error.drainLimit);
          req.resume(); // the body is not read: let it flow past
          return writeReply(res, error.reply, error.headers);
        }
        // Never crash and never echo headers (they hold credentials): one log line, and the documented catch-all.
        process.stderr.write(
          `sandbox: ${req.method} ${JSON.stringify(req.url?.split('?')[0]?.slice(0, 200))}: ${String((error as Error)?.message ?? error).split('\n')[0]}\n`,
        );
        writeReply(res, problem(500, 'system-error', 'The sandbox failed to handle the request.'));
      });
    },
  );
  server.keepAliveTimeout = 5_000;

  return {
    server,
    state,
    delivery,
    clock,
    reset,
    snapshot,
    listen: (port = 0, host = '127.0.0.1') =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve(`http://${host}:${(server.address() as AddressInfo).port}`));
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
