// The spellings of the known error codes, as a type: a code `ApiError.is` accepts. A misspelt code
// is none of them, so it does not compile.
import type meta from '../../generated/client-meta.json';
import type { KnownErrorCode } from './types.ts';

/**
 * A known code, or another documented spelling of one: both spellings of the cascade validation
 * code (`cascade-scheduling-request-is-not-valid`, `cascade-scheduling-request-not-valid`), and the
 * missing-content code with either apostrophe.
 */
export type KnownErrorCodeSpelling = KnownErrorCode | keyof (typeof meta)['errorCodeAliases'];
