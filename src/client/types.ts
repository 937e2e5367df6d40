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

/** The widened fields `W` of the contract's type `T`: each must be a field of `T` (one renamed is a `tsc` error). */
type FieldsOf<T, W extends { [K in keyof W]: K extends keyof T ? unknown : never }> = W;

export type ThreadId = Int64;
export type CascadeId = Int64;
// Each type is its own mapped type (optional fields stay optional), not an alias of a generic one:
// tsc then names it in its messages ("'threadId' does not exist in type 'CloseThreadsRequest'"),
// not the instantiation of the generic (`Widened<{ threadIds: number[]; ... }, ...>`).
type CloseIds = FieldsOf<Contract.CloseThreadsRequest, { threadIds: ThreadId[] }>;
export type CloseThreadsRequest = {
  [K in keyof Contract.CloseThreadsRequest]: K extends keyof CloseIds ? CloseIds[K] : Contract.CloseThreadsRequest[K];
};
type ResultIds = FieldsOf<
  Contract.CloseThreadsResult,
  {
    [K in
      | 'resolved_threads'
      | 'not_existing_threads'
      | 'already_resolved_threads'
      | 'not_resolved_due_to_system_error']: ThreadId[];
  }
>;
/** The result of closeThreads (component `ThreadsCloseResult`); its four lists hold `ThreadId`s. */
export type CloseThreadsResult = {
  [K in keyof Contract.CloseThreadsResult]: K extends keyof ResultIds ? ResultIds[K] : Contract.CloseThreadsResult[K];
};
type ScheduleIds = FieldsOf<Contract.CascadeScheduleRequest, { cascadeId: CascadeId }>;
export type CascadeScheduleRequest = {
  [K in keyof Contract.CascadeScheduleRequest]: K extends keyof ScheduleIds
    ? ScheduleIds[K]
    : Contract.CascadeScheduleRequest[K];
};
type CallbackIds = FieldsOf<
  Contract.StatusCallback,
  { messageId: Int64; subjectId: Int64; cascadeId: CascadeId | string }
>;
export type StatusCallback = {
  [K in keyof Contract.StatusCallback]: K extends keyof CallbackIds ? CallbackIds[K] : Contract.StatusCallback[K];
};
