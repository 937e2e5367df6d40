// The few facts of the document the client needs at run time (generated/client-meta.json), so that
// it does not carry the whole document.
import meta from '../../generated/client-meta.json' with { type: 'json' };

/** The operations' routes and credentials, and the security schemes, as the document gives them. */
export const operationMeta = meta.operations;
export type OperationId = keyof typeof meta.operations;
export const securitySchemes = meta.securitySchemes;
export type SchemeName = keyof typeof meta.securitySchemes;
/** The header that carries the API key (`x-api-key`). */
export const apiKeyHeader = meta.securitySchemes.apiKey.name;
/** The sandbox's reset hook (POST): its state is the fixtures' again, and the suite's rules over time start again. */
export const sandboxResetPath = '/_sandbox/reset';
/** Other spellings of known codes -> the code. */
export const errorCodeAliases: Record<string, string> = meta.errorCodeAliases;
