// createMessagingClient: a thin client over openapi-fetch, typed by generated/schema.d.ts.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import meta from '../../generated/client-meta.json' with { type: 'json' };
import { ApiError, MessagingError, MissingCredentialError, NetworkError, TimeoutError, normalizeErrorCode } from './errors.ts';
import { retryDelay, retryPolicy, type RetryOptions, type RetryPolicy } from './retry.ts';
import type {
  CascadeScheduleRequest,
  CascadeScheduleResult,
  CloseThreadsRequest,
  CloseThreadsResult,
  CreateSubscriberRequest,
  CreateSubscriberResult,
  paths,
} from './types.ts';

export interface MessagingClientOptions {
  /** The service's base URL, e.g. https://app.edna.io or the sandbox's http://127.0.0.1:8080. */
  baseUrl: string;
  /** Sent as `x-api-key` (create subscriber, schedule cascade). */
  apiKey?: string;
  /** Token of a user with the INTEGRATOR permission, sent as `Authorization: Bearer` (close threads). */
  integratorToken?: string;
  fetch?: typeof globalThis.fetch;
  /** Per attempt, including reading the body (default 30 000 ms). */
  timeoutMs?: number;
  /** Retry policy for the calls that are safe to repeat; `false` for none. */
  retry?: RetryOptions | false;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export type ScheduleCascadeInput = Omit<CascadeScheduleRequest, 'requestId'> & { requestId?: string };

export interface ScheduleCascadeResult extends CascadeScheduleResult {
  /**
   * True when a retry (after a lost response) was answered `requestId-is-not-unique`: the earlier
   * attempt was accepted and the message is scheduled once. A duplicate on the first attempt is an
   * ApiError instead.
   */
  acceptedOnEarlierAttempt: boolean;
}

export interface MessagingClient {
  closeThreads(body: CloseThreadsRequest, options?: CallOptions): Promise<CloseThreadsResult>;
  createSubscriber(body: CreateSubscriberRequest, options?: CallOptions): Promise<CreateSubscriberResult>;
  scheduleCascade(body: ScheduleCascadeInput, options?: CallOptions): Promise<ScheduleCascadeResult>;
  /** The openapi-fetch client, with the same credentials and timeout. */
  raw: Client<paths>;
}

type OperationId = keyof typeof meta.operations;
type Scheme = 'apiKey' | 'integratorToken';

/** How far a call may be repeated: `always` where repeating is harmless; `unsent` only when the request never left. */
const repeatable: Record<OperationId, 'always' | 'unsent'> = {
  closeThreads: 'always', // closing a closed thread only reports it as already resolved
  scheduleCascade: 'always', // the requestId makes a repeat detectable
  createSubscriber: 'unsent', // a second create may act twice
};

const operationByRoute = new Map(
  Object.entries(meta.operations).map(([id, op]) => [`${op.method} ${op.path}`, { id: id as OperationId, security: op.security as Scheme[] }]),
);

function credentialsMiddleware(options: MessagingClientOptions): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      const operation = operationByRoute.get(`${request.method} ${schemaPath}`);
      for (const scheme of operation?.security ?? []) {
        const value = options[scheme];
        if (!value) throw new MissingCredentialError(operation!.id, scheme);
        const definition = meta.securitySchemes[scheme] as { type: string; name?: string };
        if (definition.type === 'apiKey') request.headers.set(definition.name!, value);
        else request.headers.set('authorization', `Bearer ${value}`);
      }
      return request;
    },
  };
}

/** A fetch that gives up after `timeoutMs` and reports transport failures as NetworkError or TimeoutError. */
function transportFetch(baseFetch: typeof fetch, timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      return await baseFetch(new Request(request, { signal: AbortSignal.any([request.signal, timeout]) }));
    } catch (error) {
      throw transportError(error, operationFor(request), timeoutMs, timeout);
    }
  };
}

function operationFor(request: Request): string {
  const path = new URL(request.url).pathname;
  for (const [id, op] of Object.entries(meta.operations)) if (op.method === request.method && path.endsWith(op.path)) return id;
  return `${request.method} ${path}`;
}

function transportError(error: unknown, operation: string, timeoutMs: number, timeout?: AbortSignal): unknown {
  if (error instanceof MessagingError) return error;
  const name = (error as { name?: string })?.name;
  if (timeout?.aborted || name === 'TimeoutError') return new TimeoutError(operation, timeoutMs, { cause: error });
  if (name === 'AbortError') return error; // the caller's own signal
  return new NetworkError(operation, error);
}

export function createMessagingClient(options: MessagingClientOptions): MessagingClient {
  if (typeof options?.baseUrl !== 'string' || !/^https?:\/\//.test(options.baseUrl)) {
    throw new TypeError(`createMessagingClient: baseUrl must be an http(s) URL, got ${JSON.stringify(options?.baseUrl)}`);
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  const policy = retryPolicy(options.retry);
  const raw = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: transportFetch(options.fetch ?? globalThis.fetch, timeoutMs),
  });
  raw.use(credentialsMiddleware(options));

  async function call<T>(id: OperationId, body: unknown, callOptions: CallOptions | undefined, onRetryError?: (e: ApiError) => T | undefined): Promise<T> {
    const path = meta.operations[id].path as keyof paths;
    for (let attempt = 0; ; attempt++) {
      let outcome: { value: T } | { error: unknown; retryAfter: string | null; retryable: boolean };
      try {
        // parseAs text: the body is parsed here, so a success body that is not JSON is an ApiError too.
        const { data, error, response } = await (raw.POST as Function)(path, { body, parseAs: 'text', signal: callOptions?.signal });
        if (response.ok) {
          outcome = { value: parseSuccess<T>(id, response, data as string | undefined, meta.operations[id].successBodyRequired) };
        } else {
          const apiError = new ApiError(id, response, error);
          const recovered = attempt > 0 && onRetryError ? onRetryError(apiError) : undefined;
          outcome = recovered !== undefined
            ? { value: recovered }
            : { error: apiError, retryAfter: response.headers.get('retry-after'), retryable: response.status === 429 || (response.status >= 500 && repeatable[id] === 'always') };
        }
      } catch (error) {
        const mapped = transportError(error, id, timeoutMs);
        const retryable = mapped instanceof NetworkError ? repeatable[id] === 'always' || mapped.notSent : mapped instanceof TimeoutError && repeatable[id] === 'always';
        outcome = { error: mapped, retryAfter: null, retryable };
      }
      if ('value' in outcome) return outcome.value;
      const delay = outcome.retryable && attempt < policy.retries ? retryDelay(policy, attempt + 1, outcome.retryAfter) : null;
      if (delay === null || callOptions?.signal?.aborted) throw outcome.error;
      await policy.sleep(delay);
    }
  }

  return {
    raw,
    closeThreads: (body, o) => call<CloseThreadsResult>('closeThreads', body, o),
    createSubscriber: (body, o) => call<CreateSubscriberResult>('createSubscriber', body, o),
    scheduleCascade(body, o) {
      const requestId = body.requestId ?? crypto.randomUUID();
      return call<ScheduleCascadeResult>('scheduleCascade', { ...body, requestId }, o, (error) =>
        error.code === normalizeErrorCode('requestId-is-not-unique') ? { requestId, acceptedOnEarlierAttempt: true } : undefined,
      ).then((result) => ({ ...result, acceptedOnEarlierAttempt: result.acceptedOnEarlierAttempt ?? false }));
    },
  };
}

function parseSuccess<T>(operation: string, response: Response, text: string | undefined, bodyRequired: boolean): T {
  if (text === undefined || text === '') {
    // Where the contract leaves the success body open, an empty one is a success too.
    if (!bodyRequired) return {} as T;
    throw new ApiError(operation, response, text, `${response.status} with an empty body; the contract requires one`);
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError(operation, response, text, `${response.status} with a body that is not JSON: ${JSON.stringify(text.slice(0, 120))}`);
  }
}

export { retryPolicy };
export type { RetryOptions, RetryPolicy };
