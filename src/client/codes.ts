// Whether a code is one the contract documents. Apart from errors.ts so the core client does not
// carry the list of codes.
import knownCodes from '../../generated/error-codes.json' with { type: 'json' };
import { normalizeErrorCode } from './errors.ts';

const known = new Set<string>(knownCodes);

/** True when `code` (in any documented spelling) is a code of the contract. */
export function isKnownErrorCode(code: string | null | undefined): boolean {
  return typeof code === 'string' && known.has(normalizeErrorCode(code));
}
