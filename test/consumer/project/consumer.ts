// Type-checked by test/consumer under moduleResolution nodenext and bundler, in a project that has
// only the installed tarballs: every public name resolves with its types.
import {
  ApiError,
  createMessagingClient,
  isKnownErrorCode,
  MessagingError,
  MissingCredentialError,
  NetworkError,
  normalizeErrorCode,
  parseCascadeViolations,
  TimeoutError,
  type CascadeScheduleRequest,
  type CascadeViolation,
  type CloseThreadsResult,
  type CreateSubscriberRequest,
  type ErrorCode,
  type MessagingClient,
  type ScheduleCascadeResult,
  type StatusCallback,
} from '@messaging-contract/client';
import { parseStatusCallback, StatusCallbackError } from '@messaging-contract/client/webhooks';
import { createValidatingClient, RequestValidationError, validateRequest } from '@messaging-contract/client/preflight';
import document from '@messaging-contract/client/openapi.json' with { type: 'json' };
import { startSandbox, type CallbackRecord, type RunningSandbox, type SandboxClock } from '@messaging-contract/sandbox';
import { runConformance, type ConformanceReport } from '@messaging-contract/conformance';

export async function main(): Promise<void> {
  await using sandbox: RunningSandbox = await startSandbox({ port: 0 });
  const client: MessagingClient = createMessagingClient({
    baseUrl: sandbox.url,
    apiKey: 'sandbox-api-key',
    integratorToken: 'sandbox-integrator-token',
  });
  const closed: CloseThreadsResult = await client.closeThreads({ threadIds: [101], comment: 'Done' });
  const ids: Array<number | bigint> = closed.resolved_threads;
  const request: Omit<CascadeScheduleRequest, 'requestId'> = {
    cascadeId: 1001,
    subscriberFilter: { address: '79001234567', type: 'PHONE' },
    content: { smsContent: { contentType: 'TEXT', text: 'Hi' } },
  };
  const scheduled: ScheduleCascadeResult = await client.scheduleCascade(request);
  const accepted: boolean = scheduled.acceptedOnEarlierAttempt;
  const subscriber: CreateSubscriberRequest = { addresses: [{ address: 'crm-9', type: 'EXT_USER_ID' }] };
  try {
    await createValidatingClient({ baseUrl: sandbox.url, apiKey: 'k' }).createSubscriber(subscriber);
  } catch (error) {
    if (error instanceof RequestValidationError) console.log(error.errors.join('; '));
    if (error instanceof ApiError) {
      const code: ErrorCode | null = error.code;
      const violations: CascadeViolation[] = error.violations;
      const isValidation: boolean = error.is('cascade-scheduling-request-not-valid');
      // @ts-expect-error a misspelt code does not compile
      error.is('cascade-not-fuond');
      console.log(code, violations, error.status, isValidation);
    }
    if (
      error instanceof NetworkError ||
      error instanceof TimeoutError ||
      error instanceof MissingCredentialError ||
      error instanceof MessagingError
    )
      throw error;
  }
  const errors: string[] = validateRequest('closeThreads', { threadIds: [] });
  const callbacks: CallbackRecord[] = sandbox.callbacks();
  const first: StatusCallback | undefined = callbacks[0]?.payload;
  const parsed: StatusCallback = parseStatusCallback(JSON.stringify(first));
  const status: string = parsed.status;
  const known: boolean = isKnownErrorCode(normalizeErrorCode('out-of-balance'));
  const violations = parseCascadeViolations('Violations: x');
  const report: ConformanceReport = await runConformance({
    server: sandbox.url,
    apiKey: 'sandbox-api-key',
    integratorToken: 'sandbox-integrator-token',
    only: ['examples'],
  });
  const ok: boolean = report.ok;
  const title: string = (document as { info: { title: string } }).info.title;
  console.log(ids, accepted, errors, status, known, violations, ok, title, StatusCallbackError.name);

  // @ts-expect-error threadIds are numbers
  await client.closeThreads({ threadIds: ['101'] });
  // @ts-expect-error no such option
  await startSandbox({ prot: 1 });

  await using timed = await startSandbox({ clock: 'manual' });
  const drive: SandboxClock = timed.clock;
  const moved: Date = await drive.advance(1_000);
  const mode: 'manual' | 'real' = drive.mode;
  console.log(moved, mode, await drive.set(new Date(moved.getTime() + 1)));
  // @ts-expect-error the clock is 'manual' or 'real'
  await startSandbox({ clock: 'fast' });
}
