// createMessagingClient: a thin client over openapi-fetch, typed by generated/schema.d.ts.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { normalizeErrorCode } from '../core/error-codes.ts';
import { isHttpUrl } from '../core/http-url.ts';
import { mayHoldBigIntegers, parseJson, roundedNumberAt, toJson } from '../core/json-int64.ts';
import { operationMeta, securitySchemes, type OperationId } from '../core/meta.ts';
import {
  ApiError,
  MessagingError,
  MissingCredentialError,
  NetworkError,
  ResponseTooLargeError,
  TimeoutError,
} from './errors.ts';
import { retryDelay, retryPolicy, type RetryOptions } from './retry.ts';
import type { CascadeScheduleResult, CreateSubscriberRequest, CreateSubscriberResult, paths } from '../core/types.ts';
import type { CascadeScheduleRequest, CloseThreadsRequest, CloseThreadsResult } from './types.ts';

export interface MessagingClientOptions {
  /** The service's base URL, e.g. https://app.edna.io or the sandbox's http://127.0.0.1:8080. */
  baseUrl: string;
  /** Sent as `x-api-key` (create subscriber, schedule cascade). */
  apiKey?: string;
  /** Token of a user with the INTEGRATOR permission, sent as `Authorization: Bearer` (close threads). */
  integratorToken?: string;
  /** The fetch every call goes through (default: the global one): a proxy's, undici's with an agent, a test double. */
  fetch?: typeof globalThis.fetch;
  /**
   * Per attempt of a method call, including reading the body (default 30 000 ms). `raw` calls take a `signal` instead.
   */
  timeoutMs?: number;
  /** Retry policy for the calls that are safe to repeat; `false` for none. */
  retry?: RetryOptions | false;
  /** Largest response body read (default 10 MB); a larger one rejects with ResponseTooLargeError. */
  maxResponseBytes?: number;
}

/** The values of the options left out (the README names each). */
export const clientDefaults = { timeoutMs: 30_000, maxResponseBytes: 10_000_000 } as const;

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * Headers sent with this call, e.g. `{ prefer: 'code=400, example=outOfBalance' }` to pick an
   * example of the mock. They never replace the credentials (a header of the same name, in any
   * case, is left out).
   */
  headers?: Record<string, string>;
}

/** The scheduleCascade body as the method takes it: without a `requestId`, the client fills in a new UUID. */
export interface ScheduleCascadeInput extends Omit<CascadeScheduleRequest, 'requestId'> {
  requestId?: string;
}

export interface ScheduleCascadeResult extends CascadeScheduleResult {
  /**
   * True when a retry (after a lost response) was answered `requestId-is-not-unique`: the earlier
   * attempt was accepted and the message is scheduled once. A duplicate on the first attempt is an
   * ApiError instead.
   */
  acceptedOnEarlierAttempt: boolean;
}

/** A type with an entry for every operation (one missing is a `tsc` error naming it). */
type PerOperation<T extends Record<OperationId, unknown>> = T;

/**
 * Each operation's body and result as the client's methods take and give them. A new operation in
 * the document (generated/client-meta.json) makes `tsc` ask for its entry here and in `operationRules`.
 */
type Bodies = PerOperation<{
  closeThreads: CloseThreadsRequest;
  createSubscriber: CreateSubscriberRequest;
  scheduleCascade: ScheduleCascadeInput;
}>;
type Results = PerOperation<{
  closeThreads: CloseThreadsResult;
  createSubscriber: CreateSubscriberResult;
  scheduleCascade: ScheduleCascadeResult;
}>;

/** One method per operation of the document, named by its operationId. */
export type OperationMethods = { [K in OperationId]: (body: Bodies[K], options?: CallOptions) => Promise<Results[K]> };

export interface MessagingClient extends OperationMethods {
  /**
   * The openapi-fetch client with the same credentials middleware; it has no retries, and takes a `signal` for a
   * timeout.
   */
  raw: Client<paths>;
}

interface OperationRules {
  /**
   * How far a call may be repeated: `always` where repeating is harmless; `unsent` only when the request never left.
   */
  repeatable: 'always' | 'unsent';
  /** The body as sent, from the body the method takes. */
  fill?(body: object): object;
  /** The result, when an error on a retry says an earlier attempt went through. */
  recover?(error: ApiError, sent: object): object | undefined;
  /** The result as the method gives it. */
  finish?(result: object): object;
}

const operationRules: Record<OperationId, OperationRules> = {
  closeThreads: { repeatable: 'always' }, // closing a closed thread only reports it as already resolved
  createSubscriber: { repeatable: 'unsent' }, // a second create may act twice
  scheduleCascade: {
    repeatable: 'always', // the requestId makes a repeat detectable
    fill: (body) =>
      (body as { requestId?: unknown }).requestId === undefined ? { ...body, requestId: crypto.randomUUID() } : body,
    recover: (error, sent) =>
      error.code === normalizeErrorCode('requestId-is-not-unique')
        ? { requestId: (sent as { requestId: string }).requestId, acceptedOnEarlierAttempt: true }
        : undefined,
    finish: (result) => ({
      ...result,
      acceptedOnEarlierAttempt: (result as { acceptedOnEarlierAttempt?: boolean }).acceptedOnEarlierAttempt ?? false,
    }),
  },
};

type Scheme = 'apiKey' | 'integratorToken';

const operationByRoute = new Map(Object.entries(operationMeta).map(([id, op]) => [`${op.method} ${op.path}`, id]));

/** The credential headers of each operation, or the error to throw when one is missing. */
function credentialHeaders(
  options: MessagingClientOptions,
): Map<string, Record<string, string> | MissingCredentialError> {
  const result = new Map<string, Record<string, string> | MissingCredentialError>();
  for (const [id, op] of Object.entries(operationMeta)) {
    const headers: Record<string, string> = {};
    let missing: MissingCredentialError | undefined;
    for (const scheme of op.security as Scheme[]) {
      const value = options[scheme];
      const definition = securitySchemes[scheme] as { type: string; name?: string };
      if (!value) missing ??= new MissingCredentialError(id, scheme);
      else if (definition.type === 'apiKey') headers[definition.name!] = value;
      else headers.authorization = `Bearer ${value}`;
    }
    result.set(id, missing ?? headers);
  }
  return result;
}

/** For `raw`: adds each operation's credentials, or rejects before sending when one is missing. */
function credentialsMiddleware(credentials: ReturnType<typeof credentialHeaders>): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      const id = operationByRoute.get(`${request.method} ${schemaPath}`);
      const headers = id === undefined ? {} : credentials.get(id)!;
      if (headers instanceof Error) throw headers;
      for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
      return request;
    },
  };
}

/**
 * An AbortSignal that fires after `timeoutMs` or when the caller's signal does; `done` clears the
 * timer. One controller and one timer per attempt: cheaper than AbortSignal.timeout plus
 * AbortSignal.any on Node 20, and nothing is left running after the call.
 */
function attemptSignal(timeoutMs: number, caller: AbortSignal | undefined): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')),
    timeoutMs,
  );
  const onAbort = () => controller.abort(caller!.reason);
  if (caller?.aborted) onAbort();
  else caller?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onAbort);
    },
  };
}

function transportError(error: unknown, operation: string, timeoutMs: number, signal?: AbortSignal): unknown {
  if (error instanceof MessagingError) return error;
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError' || (signal?.reason as { name?: string } | undefined)?.name === 'TimeoutError') {
    return new TimeoutError(operation, timeoutMs, { cause: error });
  }
  if (name === 'AbortError') return error; // the caller's own signal
  return new NetworkError(operation, error);
}

/** The requestId a body carries, if any. */
const sentRequestId = (body: unknown): string | undefined => {
  const id = (body as { requestId?: unknown } | null)?.requestId;
  return typeof id === 'string' ? id : undefined;
};

/** A call's own headers with the credentials, which they cannot replace (header names are case-insensitive). */
function withCallHeaders(credentials: Record<string, string>, own: Record<string, string>): Record<string, string> {
  const taken = new Set(Object.keys(credentials).map((name) => name.toLowerCase()));
  const kept = Object.entries(own).filter(([name]) => !taken.has(name.toLowerCase()));
  return { ...Object.fromEntries(kept), ...credentials };
}

/**
 * The body as the client sends it (a scheduleCascade without a `requestId` gets a new UUID: the
 * client's methods take one as optional). A body that is no object, and an unknown operation, as given.
 */
export function filledByClient(operationId: string, body: unknown): unknown {
  const fill = Object.hasOwn(operationRules, operationId) ? operationRules[operationId as OperationId].fill : undefined;
  return fill && body !== null && typeof body === 'object' && !Array.isArray(body) ? fill(body) : body;
}

export function createMessagingClient(options: MessagingClientOptions): MessagingClient {
  if (!isHttpUrl(options?.baseUrl)) {
    throw new TypeError(
      `createMessagingClient: baseUrl must be an http(s) URL, got ${JSON.stringify(options?.baseUrl)}`,
    );
  }
  const timeoutMs = options.timeoutMs ?? clientDefaults.timeoutMs;
  const policy = retryPolicy(options.retry);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const baseFetch = options.fetch ?? globalThis.fetch;
  const credentials = credentialHeaders(options);
  const maxResponseBytes = options.maxResponseBytes ?? clientDefaults.maxResponseBytes;
  // Redirects are never followed: the credentials go to baseUrl's origin only, and a 3xx answer
  // is an ApiError that names where it pointed.
  const send = (request: Request, signal: AbortSignal | null | undefined, operation: string) =>
    baseFetch(request, { signal: signal ?? request.signal, redirect: 'manual' }).then((response) =>
      capped(response, maxResponseBytes, operation),
    );
  const raw = createClient<paths>({ baseUrl, fetch: (request: Request) => send(request, undefined, request.url) });
  raw.use(credentialsMiddleware(credentials));
  // The methods send through a client without middleware: they pass credentials and map errors
  // themselves. The attempt's signal rides on the Request (openapi-fetch copies unknown init keys
  // onto it) and goes to fetch, not into the Request: on Node 20 a Request that follows an outside
  // signal costs a second AbortController and listeners per call.
  // An error answer's body is read here, with its int64s exact; openapi-fetch, which would read it
  // with JSON.parse, gets an empty stand-in, which leads back to the answer and its text.
  const errorAnswers = new WeakMap<Response, [Response, string]>();
  const core = createClient<paths>({
    baseUrl,
    fetch: async (request: Request & { attemptSignal?: AbortSignal; operation?: string }) => {
      const response = await send(request, request.attemptSignal ?? null, request.operation ?? request.url);
      if (response.ok || response.body === null) return response;
      const standIn = new Response(null, { status: response.status, headers: { 'content-length': '0' } });
      errorAnswers.set(standIn, [response, await response.text()]);
      return standIn;
    },
  });

  async function call(id: OperationId, given: unknown, callOptions: CallOptions | undefined): Promise<unknown> {
    const rules = operationRules[id];
    const body = filledByClient(id, given);
    const request = core[operationMeta[id].method as 'POST'] as (
      path: keyof paths,
      init: object,
    ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    const path = operationMeta[id].path as keyof paths;
    const credentialsOf = credentials.get(id)!;
    if (credentialsOf instanceof Error) throw credentialsOf;
    const headers = callOptions?.headers ? withCallHeaders(credentialsOf, callOptions.headers) : credentialsOf;
    // Serialized once, before any attempt, each bigint as its digits: a body JSON cannot hold (a
    // cycle), or an integer a number may hold rounded, is the caller's error, not a network failure
    // to retry. Such a number has 16 digits or more, or an exponent: only then is the body walked.
    let serialized: string | undefined;
    try {
      serialized = toJson(body);
    } catch (error) {
      throw new TypeError(`${id}: the body cannot be written as JSON, nothing was sent: ${(error as Error).message}`);
    }
    const rounded = mayHoldBigIntegers(serialized) ? roundedNumberAt(body) : undefined;
    if (rounded !== undefined) {
      throw new TypeError(
        `${id}: ${rounded}, a number past 2^53 - 1, which may already be rounded; nothing was sent. Pass it as a bigint of its exact digits (9007199254740993n)`,
      );
    }
    for (let attempt = 0; ; attempt++) {
      let outcome: { value: unknown } | { error: unknown; retryAfter: string | null; retryable: boolean };
      const attempt$ = attemptSignal(timeoutMs, callOptions?.signal);
      try {
        // parseAs text: the body is parsed here, so a success body that is not JSON is an ApiError too.
        const {
          data,
          error,
          response: received,
        } = await request(path, {
          body,
          bodySerializer: () => serialized,
          headers,
          parseAs: 'text',
          attemptSignal: attempt$.signal,
          operation: id,
        });
        const [response, errorText] = errorAnswers.get(received) ?? [received, undefined];
        if (response.ok) {
          const result = parseSuccess<object>(
            id,
            response,
            data as string | undefined,
            operationMeta[id].successRequired,
          );
          outcome = { value: rules.finish ? rules.finish(result) : result };
        } else {
          const redirect =
            response.status >= 300 && response.status < 400
              ? `${response.status} redirect to ${JSON.stringify(response.headers.get('location'))} not followed`
              : undefined;
          const apiError = new ApiError(id, response, errorText === undefined ? error : readBody(errorText), redirect);
          const recovered = attempt > 0 && rules.recover ? rules.recover(apiError, body as object) : undefined;
          outcome =
            recovered !== undefined
              ? { value: rules.finish ? rules.finish(recovered) : recovered }
              : {
                  error: apiError,
                  retryAfter: response.headers.get('retry-after'),
                  retryable: response.status === 429 || (response.status >= 500 && rules.repeatable === 'always'),
                };
        }
      } catch (error) {
        const mapped = transportError(error, id, timeoutMs, attempt$.signal);
        const retryable =
          mapped instanceof NetworkError
            ? rules.repeatable === 'always' || mapped.notSent
            : mapped instanceof TimeoutError && rules.repeatable === 'always';
        outcome = { error: mapped, retryAfter: null, retryable };
      } finally {
        attempt$.done();
      }
      if ('value' in outcome) return outcome.value;
      const delay =
        outcome.retryable && attempt < policy.retries ? retryDelay(policy, attempt + 1, outcome.retryAfter) : null;
      if (delay === null || callOptions?.signal?.aborted) {
        if (outcome.error instanceof MessagingError) outcome.error.requestId ??= sentRequestId(body);
        throw outcome.error;
      }
      await policy.sleep(delay);
    }
  }

  const methods = Object.fromEntries(
    Object.keys(operationMeta).map((id) => [id, (body: unknown, o?: CallOptions) => call(id as OperationId, body, o)]),
  );
  return { raw, ...(methods as OperationMethods) };
}

/**
 * A response whose body is cut off past `maxBytes`. A declared length is checked at once; a body
 * of undeclared length is counted while it is read (undici never reads past a declared length).
 */
async function capped(response: Response, maxBytes: number, operation: string): Promise<Response> {
  const declared = response.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) {
    await response.body?.cancel();
    throw new ResponseTooLargeError(operation, maxBytes, Number(declared));
  }
  if (declared !== null || !response.body) return response;
  let seen = 0;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(new ResponseTooLargeError(operation, maxBytes));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

const jsonType = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'bigint' ? 'number' : typeof value;

/** An error answer's body: JSON with its int64s exact, or the text when it is not JSON. */
function readBody(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return text;
  }
}

function parseSuccess<T>(
  operation: string,
  response: Response,
  text: string | undefined,
  required: Record<string, string | null>,
): T {
  const fields = Object.entries(required);
  if (text === undefined || text === '') {
    // Where the contract leaves the success body open, an empty one is a success too.
    if (fields.length === 0) return {} as T;
    throw new ApiError(operation, response, text, `${response.status} with an empty body; the contract requires one`);
  }
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    throw new ApiError(
      operation,
      response,
      text,
      `${response.status} with a body that is not JSON: ${JSON.stringify(text.slice(0, 120))}`,
    );
  }
  for (const [field, type] of fields) {
    const actual =
      jsonType(value) === 'object' && Object.hasOwn(value as object, field)
        ? jsonType((value as Record<string, unknown>)[field])
        : 'missing';
    if (actual === 'missing' || (type !== null && actual !== (type === 'integer' ? 'number' : type))) {
      throw new ApiError(
        operation,
        response,
        value,
        `${response.status} with ${field} ${actual}; the contract requires it${type ? ` (${type})` : ''}`,
      );
    }
  }
  return value as T;
}

export type { RetryOptions };
