// The sandbox's operations, one handler per operationId of the document: a new operation in the
// document makes `tsc` ask for its handler here.
import type { OperationId } from '../../core/meta.ts';
import { closeThreads } from './close-threads.ts';
import type { Handler } from './context.ts';
import { createSubscriber } from './create-subscriber.ts';
import { scheduleCascade } from './schedule-cascade.ts';

export type { Handler, OperationContext } from './context.ts';

export const handlers: Record<OperationId, Handler> = { closeThreads, createSubscriber, scheduleCascade };
