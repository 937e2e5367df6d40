// Type-level tests: `npm run typecheck` compiles them, so a wrong body or an unknown path that
// compiles would fail the build through an unused @ts-expect-error.
import { describe, expectTypeOf, it } from 'vitest';
import {
  createMessagingClient,
  type ApiError,
  type CascadeScheduleRequest,
  type CloseThreadsRequest,
  type CloseThreadsResult,
  type ErrorCode,
  type Int64,
  type ScheduleCascadeResult,
  type StatusCallback,
} from '../../src/client/index.ts';
import type { StatusCallback as WebhookStatusCallback } from '../../src/client/webhooks.ts';
import type { components } from '../../generated/schema.d.ts';
import type { ChannelType, CreateSubscriberResult } from '../../src/core/types.ts';

/** An intersection written out as one object type, as the client's types are. */
type Flat<T> = { [K in keyof T]: T[K] };

const client = createMessagingClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', integratorToken: 't' });

describe('types', () => {
  it("methods take the document's request bodies and return its results", () => {
    // The document's request, its int64 identifiers widened: every other field as the generated types give it.
    type Generated = components['schemas']['CloseThreadsRequest'];
    expectTypeOf(client.closeThreads)
      .parameter(0)
      .toEqualTypeOf<Flat<Omit<Generated, 'threadIds'> & { threadIds: Array<number | bigint> }>>();
    expectTypeOf(client.closeThreads).parameter(0).toEqualTypeOf<CloseThreadsRequest>();
    expectTypeOf(client.closeThreads).returns.resolves.toEqualTypeOf<CloseThreadsResult>();
    expectTypeOf(client.createSubscriber).returns.resolves.toEqualTypeOf<CreateSubscriberResult>();
    expectTypeOf(client.scheduleCascade).returns.resolves.toEqualTypeOf<ScheduleCascadeResult>();
    expectTypeOf<ScheduleCascadeResult['acceptedOnEarlierAttempt']>().toEqualTypeOf<boolean>();
  });

  it('int64 identifiers are number | bigint wherever the client takes or gives them, and nothing else is', () => {
    expectTypeOf<Int64>().toEqualTypeOf<number | bigint>();
    // The four lists of the description are int64; whatever else the document adds keeps its generated type.
    type Lists =
      | 'resolved_threads'
      | 'not_existing_threads'
      | 'already_resolved_threads'
      | 'not_resolved_due_to_system_error';
    expectTypeOf<Pick<CloseThreadsResult, Lists>>().toEqualTypeOf<Record<Lists, Array<number | bigint>>>();
    expectTypeOf<Omit<CloseThreadsResult, Lists>>().toEqualTypeOf<
      Omit<components['schemas']['ThreadsCloseResult'], Lists>
    >();
    expectTypeOf<CascadeScheduleRequest['cascadeId']>().toEqualTypeOf<number | bigint>();
    expectTypeOf(client.scheduleCascade).parameter(0).toHaveProperty('cascadeId').toEqualTypeOf<number | bigint>();
    expectTypeOf<StatusCallback['messageId']>().toEqualTypeOf<number | bigint>();
    expectTypeOf<StatusCallback['subjectId']>().toEqualTypeOf<number | bigint | undefined>();
    expectTypeOf<StatusCallback['cascadeId']>().toEqualTypeOf<number | bigint | string | undefined>();
    expectTypeOf<WebhookStatusCallback>().toEqualTypeOf<StatusCallback>();
    // The other fields keep the document's types, optional ones optional.
    expectTypeOf<StatusCallback['status']>().toEqualTypeOf<components['schemas']['DeliveryStatus']>();
    expectTypeOf<StatusCallback['requestId']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<CloseThreadsRequest['comment']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Omit<CascadeScheduleRequest, 'cascadeId'>>().toEqualTypeOf<
      Omit<components['schemas']['CascadeScheduleRequest'], 'cascadeId'>
    >();
    // A result id is no plain number: code that does arithmetic on it has to decide.
    const never = async () => {
      const closed = await client.closeThreads({ threadIds: [9007199254740993n, 101] });
      // @ts-expect-error an int64 may be a bigint
      const first: number = closed.resolved_threads[0]!;
      void first;
    };
    expectTypeOf(never).toBeFunction();
  });

  it('error.is takes the known codes in either spelling, and a misspelt code does not compile', () => {
    expectTypeOf<ApiError['is']>().returns.toEqualTypeOf<boolean>();
    const never = (error: ApiError) => {
      error.is('cascade-not-found');
      error.is('cascade-scheduling-request-is-not-valid');
      error.is('cascade-scheduling-request-not-valid');
      error.is('request-doesn’t-contain-content-for-all-cascade-stages');
      error.is("request-doesn't-contain-content-for-all-cascade-stages");
      // @ts-expect-error a misspelt code
      error.is('cascade-not-fuond');
      // @ts-expect-error a code the contract does not know: compare error.code instead
      error.is('a-new-code');
      // ... while error.code stays a string for codes the contract does not know yet.
      return error.code === 'cascade-not-fuond';
    };
    expectTypeOf(never).toBeFunction();
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
      // @ts-expect-error threadIds are numbers (or bigints)
      await client.closeThreads({ threadIds: ['1'] });
      // @ts-expect-error threadIds is required
      await client.closeThreads({ comment: 'x' });
      // @ts-expect-error an address type outside the enum
      await client.createSubscriber({ addresses: [{ address: 'a', type: 'FAX' }] });
      // @ts-expect-error cascadeId is a number (or a bigint)
      await client.scheduleCascade({ cascadeId: '1', subscriberFilter: { address: 'a', type: 'PHONE' }, content: {} });
      // @ts-expect-error no such path
      await client.raw.POST('/api/threads/close', { body: { threadIds: [1] } });
      // @ts-expect-error GET is not an operation of this path
      await client.raw.GET('/api/v1/threads/close');
    };
    expectTypeOf(never).toBeFunction();
  });
});
