// @messaging-contract/client: the typed client, its errors, and the contract's named types.
export { createMessagingClient } from './client.ts';
export type {
  MessagingClient,
  MessagingClientOptions,
  CallOptions,
  OperationMethods,
  ScheduleCascadeInput,
  ScheduleCascadeResult,
  RetryOptions,
} from './client.ts';
export {
  ApiError,
  MessagingError,
  NetworkError,
  TimeoutError,
  MissingCredentialError,
  ResponseTooLargeError,
} from './errors.ts';
export { isKnownErrorCode, normalizeErrorCode } from '../core/error-codes.ts';
export { parseCascadeViolations, type CascadeViolation } from '../core/cascade-violations.ts';
export type * from '../core/types.ts';
// In place of the document's types of the same names: int64 identifiers as `Int64` (number | bigint).
export type {
  Int64,
  ThreadId,
  CascadeId,
  CloseThreadsRequest,
  CloseThreadsResult,
  CascadeScheduleRequest,
  StatusCallback,
} from './types.ts';
export type { KnownErrorCodeSpelling } from '../core/error-code-spellings.ts';
