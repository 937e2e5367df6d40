// The API's types, all from generated/schema.d.ts (never restated by hand).
import type { components, paths } from '../../generated/schema.d.ts';

export type { paths };
type Schemas = components['schemas'];

export type CloseThreadsRequest = Schemas['CloseThreadsRequest'];
export type CloseThreadsResult = Schemas['CloseThreadsResult'];
export type CreateSubscriberRequest = Schemas['CreateSubscriberRequest'];
export type CreateSubscriberResult = Schemas['CreateSubscriberResult'];
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
