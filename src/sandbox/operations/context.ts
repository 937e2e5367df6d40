// What an operation's handler gets besides the state and the body, and what it must be.
import type { SchemeName } from '../../core/meta.ts';
import type { Reply } from '../reply.ts';
import type { SandboxState } from '../state.ts';
import type { Accepted } from '../delivery.ts';

export interface OperationContext {
  /** The body with int64 identifiers past 2^53 as BigInts of the digits sent (the body itself when it has none). */
  exact: unknown;
  /** The secret each of the operation's security schemes matched. */
  credentials: Partial<Record<SchemeName, string>>;
  /** Hands an accepted message to the delivery simulation. */
  accept(accepted: Accepted): void;
  /** The sandbox clock's time, in ms. */
  now: number;
}

/**
 * One operation's rules on the state: a body valid against the request schema in, the answer out; no I/O, nothing
 * awaited.
 */
export type Handler = (state: SandboxState, body: unknown, context: OperationContext) => Reply;

/** A thread or cascade identifier as sent: a number, or a BigInt past 2^53 (see http/json.ts). */
export type Id = number | bigint;
