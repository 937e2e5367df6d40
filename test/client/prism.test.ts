// Every named example of every operation, served by Prism and selected with Prefer, decodes into
// the typed result or the ApiError of its code.
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  createMessagingClient,
  isKnownErrorCode,
  normalizeErrorCode,
  type MessagingClient,
} from '../../src/client/index.ts';
import { examplePairs, validRequestBody, type ExamplePair } from '../../src/core/examples.ts';
import { usePrismMock } from '../helpers/prism.ts';

const pairs = examplePairs();
const prism = usePrismMock();

function clientFor(pair: ExamplePair): MessagingClient {
  const prefer: typeof fetch = (input, init) => {
    const request = new Request(input, init);
    request.headers.set('prefer', `code=${pair.status}, example=${pair.name}`);
    return fetch(request);
  };
  return createMessagingClient({ baseUrl: prism.url, apiKey: 'k', integratorToken: 't', fetch: prefer, retry: false });
}

describe('client against the Prism mock', () => {
  it.each(pairs.map((p) => [`${p.operation.operationId} ${p.status} ${p.name}`, p] as const))(
    '%s',
    async (_label, pair) => {
      const client = clientFor(pair);
      const id = pair.operation.operationId as 'closeThreads' | 'createSubscriber' | 'scheduleCascade';
      // Prism checks requests before it picks an example, so the request is a valid one.
      const call = client[id](validRequestBody(pair) as never);
      if (pair.status === 200) {
        const expected =
          id === 'scheduleCascade' ? { ...(pair.response as object), acceptedOnEarlierAttempt: false } : pair.response;
        await expect(call).resolves.toEqual(expected);
      } else {
        const error = await call.catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ApiError);
        const title = (pair.response as { title: string }).title;
        expect(error).toMatchObject({ status: pair.status, code: normalizeErrorCode(title), title });
        expect(isKnownErrorCode(title)).toBe(true);
      }
    },
  );
});
