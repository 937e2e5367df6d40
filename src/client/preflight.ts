// @messaging-contract/client/preflight: an optional check of each request against the document's
// schemas before it is sent. A separate entry point because it carries the precompiled request
// validators, which the core client does not.
import { allRowsButtonErrors } from '../core/buttons.ts';
import { validatable } from '../core/validation.ts';
import { operationMeta } from '../core/meta.ts';
import { requestSchemaPointer } from '../core/pointers.ts';
import { validator } from '../core/validators/requests.ts';
import {
  createMessagingClient,
  filledByClient,
  type CallOptions,
  type MessagingClient,
  type MessagingClientOptions,
} from './client.ts';
import { MessagingError } from './errors.ts';

export class RequestValidationError extends MessagingError {
  override name = 'RequestValidationError';
  constructor(
    operation: string,
    readonly errors: string[],
  ) {
    super(operation, `the request breaks the contract and was not sent: ${errors.join('; ')}`);
  }
}

const requestValidators = new Map(
  Object.entries(operationMeta).map(([id, op]) => [id, validator(requestSchemaPointer(op.path, op.method))]),
);

/**
 * Field errors of `body` for `operationId`, as the client's method takes it (a scheduleCascade
 * needs no `requestId`: the client fills one in; an int64 may be a bigint, and a number past
 * 2^53 - 1 is an error, as the client refuses to send one); empty when the request is valid.
 */
export function validateRequest(operationId: string, body: unknown): string[] {
  const validate = requestValidators.get(operationId);
  if (!validate) throw new Error(`unknown operation ${operationId}`);
  const sent = validatable(filledByClient(operationId, body));
  return [...sent.rounded, ...sent.exact(validate(sent.value).errors), ...allRowsButtonErrors(sent.value)];
}

/**
 * createMessagingClient whose methods reject with RequestValidationError instead of sending a request that breaks the
 * contract.
 */
export function createValidatingClient(options: MessagingClientOptions): MessagingClient {
  const client = createMessagingClient(options);
  const checked = Object.entries(client).map(([id, method]) => [
    id,
    id === 'raw'
      ? method
      : async (body: unknown, o?: CallOptions) => {
          const errors = validateRequest(id, body);
          if (errors.length) throw new RequestValidationError(id, errors);
          return (method as (body: unknown, o?: CallOptions) => Promise<unknown>)(body, o);
        },
  ]);
  return Object.fromEntries(checked) as MessagingClient;
}
