import { Client } from 'openapi-fetch';
import { d as CloseThreadsRequest, f as CreateSubscriberRequest, a as CascadeScheduleRequest, e as CloseThreadsResult, g as CreateSubscriberResult, b as CascadeScheduleResult, p as paths, i as KnownErrorCode, c as ChannelType, E as ErrorCode } from './types-Cedj8JC-.js';

declare namespace operations {
    namespace closeThreads {
        let method: string;
        let path: string;
        let security: string[];
        namespace successRequired {
            let resolved_threads: string;
            let not_existing_threads: string;
            let already_resolved_threads: string;
            let not_resolved_due_to_system_error: string;
        }
    }
    namespace createSubscriber {
        let method_1: string;
        export { method_1 as method };
        let path_1: string;
        export { path_1 as path };
        let security_1: string[];
        export { security_1 as security };
        let successRequired_1: {};
        export { successRequired_1 as successRequired };
    }
    namespace scheduleCascade {
        let method_2: string;
        export { method_2 as method };
        let path_2: string;
        export { path_2 as path };
        let security_2: string[];
        export { security_2 as security };
        export namespace successRequired_2 {
            let requestId: string;
        }
        export { successRequired_2 as successRequired };
    }
}
declare namespace securitySchemes {
    namespace apiKey {
        export let type: string;
        let _in: string;
        export { _in as in };
        export let name: string;
    }
    namespace integratorToken {
        let type_1: string;
        export { type_1 as type };
        export let scheme: string;
    }
}
declare let errorCodeAliases: {
    "cascade-scheduling-request-not-valid": string;
    "request-doesn't-contain-content-for-all-cascade-stages": string;
};


declare const export_default: {
  operations: typeof operations;
  securitySchemes: typeof securitySchemes;
  errorCodeAliases: typeof errorCodeAliases;
};

type OperationId = keyof typeof export_default.operations;

interface RetryOptions {
    /** Further attempts after the first (default 2). */
    retries?: number;
    /** First backoff step (default 200 ms); it doubles each attempt. */
    baseDelayMs?: number;
    /** Cap on any wait, backoff or Retry-After (default 5000 ms). A longer Retry-After ends the retries. */
    maxDelayMs?: number;
    /** Full jitter: wait a random time up to the backoff step (default true). */
    jitter?: boolean;
    /** For tests: how to wait, and the random source. */
    sleep?: (ms: number) => Promise<void>;
    random?: () => number;
}

interface MessagingClientOptions {
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
interface CallOptions {
    signal?: AbortSignal;
    /**
     * Headers sent with this call, e.g. `{ prefer: 'code=400, example=outOfBalance' }` to pick an
     * example of the mock. They never replace the credentials (a header of the same name, in any
     * case, is left out).
     */
    headers?: Record<string, string>;
}
/** The scheduleCascade body as the method takes it: without a `requestId`, the client fills in a new UUID. */
interface ScheduleCascadeInput extends Omit<CascadeScheduleRequest, 'requestId'> {
    requestId?: string;
}
interface ScheduleCascadeResult extends CascadeScheduleResult {
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
type OperationMethods = {
    [K in OperationId]: (body: Bodies[K], options?: CallOptions) => Promise<Results[K]>;
};
interface MessagingClient extends OperationMethods {
    /**
     * The openapi-fetch client with the same credentials middleware; it has no retries, and takes a `signal` for a
     * timeout.
     */
    raw: Client<paths>;
}
declare function createMessagingClient(options: MessagingClientOptions): MessagingClient;

/**
 * A known code, or another documented spelling of one: both spellings of the cascade validation
 * code (`cascade-scheduling-request-is-not-valid`, `cascade-scheduling-request-not-valid`), and the
 * missing-content code with either apostrophe.
 */
type KnownErrorCodeSpelling = KnownErrorCode | keyof (typeof export_default)['errorCodeAliases'];

type CascadeViolation = {
    kind: 'no-stage-for-content';
    cascadeTemplateId: number | string;
    channel: ChannelType;
    text: string;
} | {
    kind: 'no-content-for-stage';
    cascadeTemplateId: number | string;
    stageId: string;
    channel: ChannelType;
    text: string;
} | {
    kind: 'unknown';
    text: string;
};
declare function parseCascadeViolations(detail: string | null | undefined): CascadeViolation[];

declare class MessagingError extends Error {
    readonly operation: string;
    name: string;
    /** The `requestId` the request carried (scheduleCascade), to find it in the service's logs. */
    requestId: string | undefined;
    constructor(operation: string, message: string, options?: ErrorOptions);
    /** What a log needs of it, in one line of JSON: no response object, no body. */
    toJSON(): Record<string, unknown>;
}
/** The server answered with an error status (or a success body that could not be read). */
declare class ApiError extends MessagingError {
    readonly response: Response;
    name: string;
    /**
     * The problem's `title` in the contract's spelling (`normalizeErrorCode`): the service writes two codes two ways, and
     * `code` is one of each, so one comparison holds for both. Null when the body is not a problem.
     */
    readonly code: ErrorCode | null;
    /** `title` exactly as it came; where it differs from `code`, the message gives both. */
    readonly title: string | null;
    readonly status: number;
    readonly detail: string | undefined;
    /** The violations of a cascade validation error's `detail`; empty for other codes. */
    readonly violations: CascadeViolation[];
    /** The parsed body (or its text when it was not JSON); an integer past 2^53 - 1 in it is a bigint. */
    readonly body: unknown;
    constructor(operation: string, response: Response, body: unknown, reason?: string);
    toJSON(): Record<string, unknown>;
    /**
     * Whether the answer's code is `code`, in any documented spelling (both spellings of the cascade
     * validation code are one code). Only known codes compile, so a misspelt one is caught by `tsc`;
     * compare `code` with a string for a code the contract does not know yet.
     */
    is(code: KnownErrorCodeSpelling): boolean;
}
/** The request may or may not have reached the server: the connection failed or broke. */
declare class NetworkError extends MessagingError {
    name: string;
    /** True when the failure happened before the request could be sent (refused, unresolvable host, a port fetch bars). */
    readonly notSent: boolean;
    /** The system's code of the failure (ECONNREFUSED, ENOTFOUND, ...), when it gave one. */
    readonly code: string | undefined;
    constructor(operation: string, cause: unknown);
    toJSON(): Record<string, unknown>;
}
/** No complete answer within `timeoutMs`. */
declare class TimeoutError extends MessagingError {
    readonly timeoutMs: number;
    name: string;
    constructor(operation: string, timeoutMs: number, options?: ErrorOptions);
}
/** The response body was larger than the client's `maxResponseBytes`; it was not read further. */
declare class ResponseTooLargeError extends MessagingError {
    readonly maxBytes: number;
    name: string;
    constructor(operation: string, maxBytes: number, declaredBytes?: number);
}
/** The operation needs a credential the client was not given; nothing was sent. */
declare class MissingCredentialError extends MessagingError {
    readonly option: 'apiKey' | 'integratorToken';
    name: string;
    constructor(operation: string, option: 'apiKey' | 'integratorToken');
}

export { ApiError as A, NetworkError as N, ResponseTooLargeError as R, TimeoutError as T, MessagingError as c, MissingCredentialError as d, createMessagingClient as g, parseCascadeViolations as p };
export type { CallOptions as C, KnownErrorCodeSpelling as K, MessagingClient as M, OperationMethods as O, ScheduleCascadeInput as S, CascadeViolation as a, MessagingClientOptions as b, RetryOptions as e, ScheduleCascadeResult as f };
