// Error codes: the documented spellings, which codes list cascade violations, and whether a code
// is one the contract documents. The list of known codes is read only by `isKnownErrorCode`, so a
// bundle that does not call it drops the list.
import knownCodes from '../../generated/error-codes.json' with { type: 'json' };
import { errorCodeAliases as aliases } from './meta.ts';
import type { ErrorCode } from './types.ts';

/** Codes whose `detail` lists cascade violations. */
const violationCodes = new Set([
  'cascade-scheduling-request-is-not-valid',
  'request-doesn’t-contain-content-for-all-cascade-stages',
]);

/** The canonical form of a code: another spelling of a known code becomes that code. */
export function normalizeErrorCode(code: string): ErrorCode {
  return Object.hasOwn(aliases, code) ? aliases[code]! : code;
}

/** Whether `title` (an answer's, whatever its type) is `code`, in any of their spellings. */
export const sameErrorCode = (title: unknown, code: string) =>
  typeof title === 'string' && normalizeErrorCode(title) === normalizeErrorCode(code);

/** True when `code` (any spelling) is one whose `detail` lists cascade violations. */
export function listsViolations(code: string): boolean {
  return violationCodes.has(normalizeErrorCode(code));
}

/** True when `code` (in any documented spelling) is a code of the contract. */
export function isKnownErrorCode(code: string | null | undefined): boolean {
  return typeof code === 'string' && knownCodes.includes(normalizeErrorCode(code));
}
