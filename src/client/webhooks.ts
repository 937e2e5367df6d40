// @messaging-contract/client/webhooks: parseStatusCallback validates a delivery-status callback
// against the document's webhook schema (precompiled; no schema compiler at run time).
import type { StatusCallback } from '../core/types.ts';
import { validator } from '../core/validators/status-callback.ts';

export type { StatusCallback };

export class StatusCallbackError extends Error {
  override name = 'StatusCallbackError';
  constructor(readonly errors: string[]) {
    super(`invalid status callback: ${errors.join('; ')}`);
  }
}

const validate = validator('#/components/schemas/StatusCallback');

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
