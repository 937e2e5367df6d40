export { A as ApiError, C as CallOptions, a as CascadeViolation, K as KnownErrorCodeSpelling, M as MessagingClient, b as MessagingClientOptions, c as MessagingError, d as MissingCredentialError, N as NetworkError, O as OperationMethods, R as ResponseTooLargeError, e as RetryOptions, S as ScheduleCascadeInput, f as ScheduleCascadeResult, T as TimeoutError, g as createMessagingClient, p as parseCascadeViolations } from './errors-BomQOsVK.js';
import { E as ErrorCode } from './types-Cedj8JC-.js';
export { C as CascadeId, a as CascadeScheduleRequest, b as CascadeScheduleResult, c as ChannelType, d as CloseThreadsRequest, e as CloseThreadsResult, f as CreateSubscriberRequest, g as CreateSubscriberResult, I as Int64, K as KnownDeliveryErrorCode, h as KnownDeliveryStatus, i as KnownErrorCode, P as Problem, S as StatusCallback, T as ThreadId, p as paths } from './types-Cedj8JC-.js';
import 'openapi-fetch';

/** The canonical form of a code: another spelling of a known code becomes that code. */
declare function normalizeErrorCode(code: string): ErrorCode;
/** True when `code` (in any documented spelling) is a code of the contract. */
declare function isKnownErrorCode(code: string | null | undefined): boolean;

export { ErrorCode, isKnownErrorCode, normalizeErrorCode };
