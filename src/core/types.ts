// The API's types, all from generated/schema.d.ts (never restated by hand).
import type { components, paths } from '../../generated/schema.d.ts';

export type { paths };
type Schemas = components['schemas'];

export type CloseThreadsRequest = Schemas['CloseThreadsRequest'];
/**
 * The result of closeThreads (component `ThreadsCloseResult`: no component name starts with an operationId, which
 * generators use for their own names).
 */
export type CloseThreadsResult = Schemas['ThreadsCloseResult'];
export type CreateSubscriberRequest = Schemas['CreateSubscriberRequest'];
/** The result of createSubscriber (component `SubscriberCreateResult`). */
export type CreateSubscriberResult = Schemas['SubscriberCreateResult'];
export type CascadeScheduleRequest = Schemas['CascadeScheduleRequest'];
export type CascadeScheduleResult = Schemas['CascadeScheduleResult'];
export type StatusCallback = Schemas['StatusCallback'];
export type Problem = Schemas['Problem'];
export type ChannelType = Schemas['ChannelType'];
export type KnownErrorCode = Schemas['KnownErrorCode'];
export type KnownDeliveryStatus = Schemas['KnownDeliveryStatus'];
export type KnownDeliveryErrorCode = Schemas['KnownDeliveryErrorCode'];
/** A known code, or any other string: the set of codes may be extended. */
export type ErrorCode = KnownErrorCode | (string & {});
