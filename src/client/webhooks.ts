// @messaging-contract/client/webhooks: parseStatusCallback validates a delivery-status callback
// against the document's webhook schema (precompiled; no schema compiler at run time).
import { parseJson } from '../core/json-int64.ts';
import { validatable } from '../core/validation.ts';
import { validator } from '../core/validators/status-callback.ts';
import type { Int64, StatusCallback } from './types.ts';

export type { Int64, StatusCallback };

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
 * Statuses and error codes the contract does not know are accepted as strings. An integer past
 * 2^53 - 1 (`messageId`, `subjectId`, `cascadeId`, or any other) is read as a bigint of its exact
 * digits; one outside int64 where the contract says int64 is refused, and so is a number past
 * 2^53 - 1 in an already parsed value (it may have been rounded: pass the text, or bigints).
 * Whatever goes wrong, input that throws included, ends as a StatusCallbackError.
 */
export function parseStatusCallback(body: unknown, options: ParseStatusCallbackOptions = {}): StatusCallback {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  let value = body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const size = typeof body === 'string' ? body.length : body.byteLength;
    if (size > maxBytes) throw new StatusCallbackError([`(body): ${size} bytes; expected at most ${maxBytes}`]);
    try {
      value = parseJson(typeof body === 'string' ? body : new TextDecoder().decode(body));
    } catch (error) {
      throw new StatusCallbackError([`(body): not valid JSON (${(error as Error).message})`]);
    }
  }
  let errors: string[];
  try {
    // The validator knows numbers: it reads each bigint as one, and its lines give the digits back.
    const read = validatable(value);
    errors = [...read.rounded, ...read.exact(validate(read.value).errors)];
  } catch (error) {
    // A Proxy or a getter of the caller's object threw while it was read.
    throw new StatusCallbackError([`(body): could not be read (${(error as Error)?.message ?? String(error)})`]);
  }
  if (errors.length > 0) throw new StatusCallbackError(errors);
  return value as StatusCallback;
}
