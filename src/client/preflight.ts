// An optional check of each request against the bundled schemas before it is sent. It is a
// separate entry point because it carries the JSON Schema validator, which the core client does not.
import { operations } from '../schema/examples.ts';
import { validator } from '../schema/index.ts';
import { allRowsButtonErrors } from '../schema/violation-codes.ts';
import { createMessagingClient, type MessagingClient, type MessagingClientOptions } from './index.ts';
import { MessagingError } from './errors.ts';

export class RequestValidationError extends MessagingError {
  override name = 'RequestValidationError';
  constructor(operation: string, readonly errors: string[]) {
    super(operation, `the request breaks the contract and was not sent: ${errors.join('; ')}`);
  }
}

const requestValidators = new Map(
  operations().map((op) => [op.operationId, validator(op.requestSchemaPointer!)]),
);

/** Field errors of `body` for `operationId`; empty when the request is valid. */
export function validateRequest(operationId: string, body: unknown): string[] {
  const validate = requestValidators.get(operationId);
  if (!validate) throw new Error(`unknown operation ${operationId}`);
  return [...validate(body).errors, ...allRowsButtonErrors(body)];
}

/** createMessagingClient whose methods reject with RequestValidationError instead of sending a request that breaks the contract. */
export function createValidatingClient(options: MessagingClientOptions): MessagingClient {
  const client = createMessagingClient(options);
  const checked = <B, R>(id: string, send: (body: B, o?: { signal?: AbortSignal }) => Promise<R>) =>
    async (body: B, o?: { signal?: AbortSignal }): Promise<R> => {
      const sample = id === 'scheduleCascade' ? { requestId: crypto.randomUUID(), ...(body as object) } : body;
      const errors = validateRequest(id, sample);
      if (errors.length) throw new RequestValidationError(id, errors);
      return send(body, o);
    };
  return {
    raw: client.raw,
    closeThreads: checked('closeThreads', client.closeThreads),
    createSubscriber: checked('createSubscriber', client.createSubscriber),
    scheduleCascade: checked('scheduleCascade', client.scheduleCascade),
  };
}
