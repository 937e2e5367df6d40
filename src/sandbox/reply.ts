// What an operation of the sandbox answers: a status and a body (the server writes it as JSON).
import type { Problem } from '../core/types.ts';

export interface Reply {
  status: number;
  body: unknown;
}

export const problem = (status: number, title: string, detail?: string): Reply => ({
  status,
  body: { title, status, ...(detail === undefined ? {} : { detail }) } satisfies Problem,
});

/** A request the server answers before it reaches an operation; thrown by a step of the pipeline. */
export class Refusal {
  constructor(
    readonly reply: Reply,
    readonly headers?: Record<string, string>,
    /** Set when the body is too large: answer at once, then read the rest of it into nothing (up to 4x this). */
    readonly drainLimit?: number,
  ) {}
}
