import { c as MessagingError, b as MessagingClientOptions, M as MessagingClient } from './errors-BomQOsVK.js';
import 'openapi-fetch';
import './types-Cedj8JC-.js';

declare class RequestValidationError extends MessagingError {
    readonly errors: string[];
    name: string;
    constructor(operation: string, errors: string[]);
}
/**
 * Field errors of `body` for `operationId`, as the client's method takes it (a scheduleCascade
 * needs no `requestId`: the client fills one in; an int64 may be a bigint, and a number past
 * 2^53 - 1 is an error, as the client refuses to send one); empty when the request is valid.
 */
declare function validateRequest(operationId: string, body: unknown): string[];
/**
 * createMessagingClient whose methods reject with RequestValidationError instead of sending a request that breaks the
 * contract.
 */
declare function createValidatingClient(options: MessagingClientOptions): MessagingClient;

export { RequestValidationError, createValidatingClient, validateRequest };
