// The errors a client call can end with. Every one names the operation it came from.
import { listsViolations, normalizeErrorCode } from '../core/error-codes.ts';
import type { KnownErrorCodeSpelling } from '../core/error-code-spellings.ts';
import { toJson } from '../core/json-int64.ts';
import type { ErrorCode } from '../core/types.ts';
import { parseCascadeViolations, type CascadeViolation } from '../core/cascade-violations.ts';

export class MessagingError extends Error {
  override name = 'MessagingError';
  /** The `requestId` the request carried (scheduleCascade), to find it in the service's logs. */
  requestId: string | undefined;
  constructor(
    readonly operation: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(`${operation}: ${message}`, options);
  }

  /** What a log needs of it, in one line of JSON: no response object, no body. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, operation: this.operation, message: this.message, requestId: this.requestId };
  }
}

// Node's hook for `util.inspect` (and so `console.log` and an uncaught error), set on the prototype
// rather than declared: a member keyed by a unique symbol would be a new symbol in every build of
// the declarations, which the packages' types gate cannot match. The stack, then the fields of
// toJSON but the message: a few lines, never the response object.
Object.defineProperty(MessagingError.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value(this: MessagingError): string {
    const { name: _name, message: _message, ...fields } = this.toJSON();
    const shown = Object.entries(fields).filter(([, v]) => v !== undefined && v !== null);
    const stack = this.stack ?? `${this.name}: ${this.message}`;
    return shown.length ? `${stack}\n  ${shown.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ')}` : stack;
  },
});

/** The server answered with an error status (or a success body that could not be read). */
export class ApiError extends MessagingError {
  override name = 'ApiError';
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

  constructor(
    operation: string,
    readonly response: Response,
    body: unknown,
    reason?: string,
  ) {
    const problem = asProblem(body);
    const code = problem ? normalizeErrorCode(problem.title) : null;
    const detail = problem?.detail;
    super(
      operation,
      reason ??
        (problem
          ? `${response.status} ${code}${code === problem.title ? '' : ` (the service wrote ${JSON.stringify(problem.title)})`}${detail ? `: ${detail}` : ''}`
          : `${response.status} with a body that is not a problem: ${preview(body)}`),
    );
    this.code = code;
    this.title = problem?.title ?? null;
    this.status = response.status;
    this.detail = detail;
    this.violations = code !== null && listsViolations(code) ? parseCascadeViolations(detail) : [];
    this.body = body;
    // Reachable, but not printed with the error (an undici Response is dozens of lines).
    Object.defineProperty(this, 'response', { enumerable: false });
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), status: this.status, code: this.code, detail: this.detail };
  }

  /**
   * Whether the answer's code is `code`, in any documented spelling (both spellings of the cascade
   * validation code are one code). Only known codes compile, so a misspelt one is caught by `tsc`;
   * compare `code` with a string for a code the contract does not know yet.
   */
  is(code: KnownErrorCodeSpelling): boolean {
    return this.code === normalizeErrorCode(code);
  }
}

/** The request may or may not have reached the server: the connection failed or broke. */
export class NetworkError extends MessagingError {
  override name = 'NetworkError';
  /** True when the failure happened before the request could be sent (refused, unresolvable host, a port fetch bars). */
  readonly notSent: boolean;
  /** The system's code of the failure (ECONNREFUSED, ENOTFOUND, ...), when it gave one. */
  readonly code: string | undefined;
  constructor(operation: string, cause: unknown) {
    // fetch says only "fetch failed"; what failed is its cause ("connect ECONNREFUSED 127.0.0.1:1", "bad port").
    const inner = (cause as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
    const code = typeof inner?.code === 'string' ? inner.code : undefined;
    const said = typeof inner?.message === 'string' && inner.message ? inner.message : undefined;
    const outer = (cause as Error | undefined)?.message ?? String(cause);
    super(operation, `network failure: ${said ? `${outer}: ${said}` : outer}`, { cause });
    this.code = code;
    // A port fetch refuses to use (6000, 6667, ...) says "bad port": nothing left the process either.
    this.notSent = code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || said === 'bad port';
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), code: this.code, notSent: this.notSent };
  }
}

/** No complete answer within `timeoutMs`. */
export class TimeoutError extends MessagingError {
  override name = 'TimeoutError';
  constructor(
    operation: string,
    readonly timeoutMs: number,
    options?: ErrorOptions,
  ) {
    super(operation, `no complete answer within ${timeoutMs} ms`, options);
  }
}

/** The response body was larger than the client's `maxResponseBytes`; it was not read further. */
export class ResponseTooLargeError extends MessagingError {
  override name = 'ResponseTooLargeError';
  constructor(
    operation: string,
    readonly maxBytes: number,
    declaredBytes?: number,
  ) {
    super(
      operation,
      `response body ${declaredBytes === undefined ? '' : `of ${declaredBytes} bytes `}exceeds maxResponseBytes (${maxBytes})`,
    );
  }
}

/** The operation needs a credential the client was not given; nothing was sent. */
export class MissingCredentialError extends MessagingError {
  override name = 'MissingCredentialError';
  constructor(
    operation: string,
    readonly option: 'apiKey' | 'integratorToken',
  ) {
    super(operation, `needs the "${option}" option of createMessagingClient; the request was not sent`);
  }
}

function asProblem(body: unknown): { title: string; detail: string | undefined } | null {
  if (body === null || typeof body !== 'object') return null;
  const { title, detail } = body as { title?: unknown; detail?: unknown };
  if (typeof title !== 'string' || title === '') return null;
  return { title, detail: typeof detail === 'string' ? detail : undefined };
}

function preview(body: unknown): string {
  if (body === undefined || body === '') return '(empty)';
  const text = typeof body === 'string' ? body : toJson(body);
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > 120 ? `${flat.slice(0, 117)}...` : flat);
}
