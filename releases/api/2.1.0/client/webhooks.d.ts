import { S as StatusCallback } from './types-Cedj8JC-.js';
export { I as Int64 } from './types-Cedj8JC-.js';

declare class StatusCallbackError extends Error {
    readonly errors: string[];
    name: string;
    constructor(errors: string[]);
}
interface ParseStatusCallbackOptions {
    /**
     * Largest body accepted, in bytes (a string counts its UTF-16 units); default 1 MiB. A callback is well under 2 kB.
     */
    maxBytes?: number;
}
/**
 * Parses a callback body (a string, a Buffer or an already parsed value) and returns it typed.
 * Statuses and error codes the contract does not know are accepted as strings. An integer past
 * 2^53 - 1 (`messageId`, `subjectId`, `cascadeId`, or any other) is read as a bigint of its exact
 * digits; one outside int64 where the contract says int64 is refused, and so is a number past
 * 2^53 - 1 in an already parsed value (it may have been rounded: pass the text, or bigints).
 * Whatever goes wrong, input that throws included, ends as a StatusCallbackError.
 */
declare function parseStatusCallback(body: unknown, options?: ParseStatusCallbackOptions): StatusCallback;

export { StatusCallback, StatusCallbackError, parseStatusCallback };
export type { ParseStatusCallbackOptions };
