// parseStatusCallback: validates a delivery-status callback against the document's webhook schema.
import { schemaValidator } from '../schema/index.ts';
import type { StatusCallback } from '../client/types.ts';

export class StatusCallbackError extends Error {
  override name = 'StatusCallbackError';
  constructor(readonly errors: string[]) {
    super(`invalid status callback: ${errors.join('; ')}`);
  }
}

const validate = schemaValidator('StatusCallback');

/**
 * Parses a callback body (a string, a Buffer or an already parsed value) and returns it typed.
 * Statuses and error codes the contract does not know are accepted as strings.
 */
export function parseStatusCallback(body: unknown): StatusCallback {
  let value = body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new StatusCallbackError([`(body): not valid JSON (${(error as Error).message})`]);
    }
  }
  const result = validate(value);
  if (!result.valid) throw new StatusCallbackError(result.errors);
  return value as StatusCallback;
}
