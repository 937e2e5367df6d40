// The package's public API.
export { createMessagingClient } from './client/index.ts';
export type { MessagingClient, MessagingClientOptions, CallOptions, ScheduleCascadeInput, ScheduleCascadeResult, RetryOptions } from './client/index.ts';
export { ApiError, MessagingError, NetworkError, TimeoutError, MissingCredentialError, normalizeErrorCode } from './client/errors.ts';
export { isKnownErrorCode } from './client/codes.ts';
export { parseCascadeViolations, type CascadeViolation } from './client/violations.ts';
export { createValidatingClient, validateRequest, RequestValidationError } from './client/preflight.ts';
export { parseStatusCallback, StatusCallbackError } from './webhooks/index.ts';
export type * from './client/types.ts';
