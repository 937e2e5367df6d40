// The contract's types as the client takes and gives them: each int64 identifier as an `Int64`, a
// number up to 2^53 - 1 and a bigint past it, so that no identifier is ever rounded. The other
// named types are the document's own (src/core/types.ts); these take their place in the client's
// exports. test/client/int64.test.ts fails when the document gains an int64 field not widened here.
import type * as Contract from '../core/types.ts';

/**
 * An int64 identifier. The client gives a `number` when it is within ±(2^53 - 1) and a `bigint`
 * of its exact digits past that; it takes either, and writes a bigint into the JSON as its digits.
 */
export type Int64 = number | bigint;

/** `T` with the fields of `W` typed as `W` has them (optional fields stay optional). */
type Widened<T, W extends { [K in keyof W]: K extends keyof T ? unknown : never }> = {
  [K in keyof T]: K extends keyof W ? W[K] : T[K];
};

export type ThreadId = Int64;
export type CascadeId = Int64;
export type CloseThreadsRequest = Widened<Contract.CloseThreadsRequest, { threadIds: ThreadId[] }>;
/** The result of closeThreads (component `ThreadsCloseResult`); every list holds `ThreadId`s. */
export type CloseThreadsResult = { [K in keyof Contract.CloseThreadsResult]: ThreadId[] };
export type CascadeScheduleRequest = Widened<Contract.CascadeScheduleRequest, { cascadeId: CascadeId }>;
export type StatusCallback = Widened<
  Contract.StatusCallback,
  { messageId: Int64; subjectId: Int64; cascadeId: CascadeId | string }
>;
