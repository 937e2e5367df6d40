// Type-level tests: `npm run typecheck` compiles them, so a wrong body or an unknown path that
// compiles would fail the build through an unused @ts-expect-error.
import { describe, expectTypeOf, it } from 'vitest';
import {
  createMessagingClient,
  type ApiError,
  type ErrorCode,
  type ScheduleCascadeResult,
} from '../../src/client/index.ts';
import type { components } from '../../generated/schema.d.ts';
import type {
  CascadeScheduleRequest,
  ChannelType,
  CloseThreadsResult,
  CreateSubscriberResult,
} from '../../src/core/types.ts';

const client = createMessagingClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', integratorToken: 't' });

describe('types', () => {
  it("methods take the document's request bodies and return its results", () => {
    expectTypeOf(client.closeThreads).parameter(0).toEqualTypeOf<{ threadIds: number[]; comment?: string }>();
    expectTypeOf(client.closeThreads).returns.resolves.toEqualTypeOf<CloseThreadsResult>();
    expectTypeOf(client.createSubscriber).returns.resolves.toEqualTypeOf<CreateSubscriberResult>();
    expectTypeOf(client.scheduleCascade).returns.resolves.toEqualTypeOf<ScheduleCascadeResult>();
    expectTypeOf<ScheduleCascadeResult['acceptedOnEarlierAttempt']>().toEqualTypeOf<boolean>();
  });

  it('error codes are the known ones plus any string', () => {
    expectTypeOf<'out-of-balance'>().toMatchTypeOf<ErrorCode>();
    expectTypeOf<'a-new-code'>().toMatchTypeOf<ErrorCode>();
    expectTypeOf<ApiError['code']>().toEqualTypeOf<ErrorCode | null>();
  });

  it("open sets keep their known values for an editor's completion (Known | (string & {}), not string)", () => {
    // With `Known | string` the union collapses into string, and nothing of it is the literal.
    expectTypeOf<Extract<ErrorCode, 'out-of-balance'>>().toEqualTypeOf<'out-of-balance'>();
    expectTypeOf<
      Extract<NonNullable<CascadeScheduleRequest['content']['viberContent']>['contentType'], 'IMAGE'>
    >().toEqualTypeOf<'IMAGE'>();
    expectTypeOf<
      Extract<NonNullable<CascadeScheduleRequest['content']['whatsappContent']>['contentType'], 'DOCUMENT'>
    >().toEqualTypeOf<'DOCUMENT'>();
    // ... and contentType stays required.
    // @ts-expect-error contentType is required
    const noType: NonNullable<CascadeScheduleRequest['content']['smsContent']> = { text: 'Hi' };
    void noType;
    expectTypeOf<Extract<ChannelType, 'VIBER'>>().toEqualTypeOf<'VIBER'>();
    expectTypeOf<Extract<components['schemas']['DeliveryStatus'], 'UNDELIVERED'>>().toEqualTypeOf<'UNDELIVERED'>();
  });

  it('open sets take values the contract does not know yet: content types, channels, button types', () => {
    expectTypeOf<{ contentType: 'RICH_CARD'; text: string }>().toMatchTypeOf<
      NonNullable<CascadeScheduleRequest['content']['smsContent']>
    >();
    expectTypeOf<'TELEGRAM'>().toMatchTypeOf<ChannelType>();
    expectTypeOf<{ buttonType: 'COPY_CODE' }>().toMatchTypeOf<components['schemas']['KeyboardButton']>();
  });

  it('wrong bodies and unknown paths do not compile', () => {
    const never = async () => {
      // @ts-expect-error threadIds are numbers
      await client.closeThreads({ threadIds: ['1'] });
      // @ts-expect-error threadIds is required
      await client.closeThreads({ comment: 'x' });
      // @ts-expect-error an address type outside the enum
      await client.createSubscriber({ addresses: [{ address: 'a', type: 'FAX' }] });
      // @ts-expect-error cascadeId is a number
      await client.scheduleCascade({ cascadeId: '1', subscriberFilter: { address: 'a', type: 'PHONE' }, content: {} });
      // @ts-expect-error no such path
      await client.raw.POST('/api/threads/close', { body: { threadIds: [1] } });
      // @ts-expect-error GET is not an operation of this path
      await client.raw.GET('/api/v1/threads/close');
    };
    expectTypeOf(never).toBeFunction();
  });
});
