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

export interface ParseStatusCallbackOptions {
  /**
   * Largest body accepted, in bytes (a string counts its UTF-16 units); default 1 MiB. A callback is well under 2 kB.
   */
  maxBytes?: number;
}

/**
 * Parses a callback body (a string, a Buffer or an already parsed value) and returns it typed.
 * Statuses and error codes the contract does not know are accepted as strings. Whatever goes
 * wrong, input that throws included, ends as a StatusCallbackError.
 */
export function parseStatusCallback(body: unknown, options: ParseStatusCallbackOptions = {}): StatusCallback {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  let value = body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const size = typeof body === 'string' ? body.length : body.byteLength;
    if (size > maxBytes) throw new StatusCallbackError([`(body): ${size} bytes; expected at most ${maxBytes}`]);
    try {
      value = JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body));
    } catch (error) {
      throw new StatusCallbackError([`(body): not valid JSON (${(error as Error).message})`]);
    }
  }
  let result: ReturnType<typeof validate>;
  try {
    result = validate(value);
  } catch (error) {
    // A Proxy or a getter of the caller's object threw while it was read.
    throw new StatusCallbackError([`(body): could not be read (${(error as Error)?.message ?? String(error)})`]);
  }
  if (!result.valid) throw new StatusCallbackError(result.errors);
  return value as StatusCallback;
}
