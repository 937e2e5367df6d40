// closeThreads: every thread of the list closed once, each id reported in one of the four lists.
import type { CloseThreadsRequest } from '../../core/types.ts';
import type { Handler, Id } from './context.ts';

/** No fixture holds an identifier past 2^53, so none matches a thread, and the answer names it as sent. */
export const closeThreads: Handler = (state, body, { exact, now }) => {
  const { comment } = body as CloseThreadsRequest;
  const threadIds = (exact as { threadIds: Id[] }).threadIds;
  const result = {
    resolved_threads: [] as Id[],
    not_existing_threads: [] as Id[],
    already_resolved_threads: [] as Id[],
    not_resolved_due_to_system_error: [] as Id[],
  };
  const closedAt = new Date(now).toISOString(); // the sandbox clock's time, manual or real
  // A repeated identifier is handled once, by its state before the call (documented on threadIds).
  for (const id of new Set(threadIds)) {
    const thread = typeof id === 'number' ? state.threads.get(id) : undefined;
    if (!thread) result.not_existing_threads.push(id);
    else if (thread.state === 'closed') result.already_resolved_threads.push(id);
    else if (thread.failOnClose) result.not_resolved_due_to_system_error.push(id);
    else {
      thread.state = 'closed';
      thread.closedAt = closedAt;
      if (comment !== undefined) thread.comment = comment;
      result.resolved_threads.push(id);
    }
  }
  return { status: 200, body: result };
};
