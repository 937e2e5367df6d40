// Writes generated/client-meta.json: the few facts of the document the client needs at run time
// (operation routes and credentials, error code aliases; the known codes in a file of their own),
// so the client does not ship the whole document.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolvePointer } from './index.ts';
import { operations } from './examples.ts';

export function clientMeta() {
  const known = resolvePointer('#/components/schemas/KnownErrorCode') as { enum: string[]; 'x-aliases': Record<string, string> };
  return {
    operations: Object.fromEntries(
      operations().map((op) => {
        const success = resolvePointer(`${op.pointer}/responses/200/content/application~1json/schema`) as { $ref?: string };
        const schema = (success.$ref ? resolvePointer(success.$ref) : success) as { required?: string[] };
        return [op.operationId, { method: op.method, path: op.path, security: op.security, successBodyRequired: (schema.required ?? []).length > 0 }];
      }),
    ),
    securitySchemes: Object.fromEntries(
      Object.entries(resolvePointer('#/components/securitySchemes') as Record<string, Record<string, unknown>>).map(
        ([name, { description: _, ...scheme }]) => [name, scheme],
      ),
    ),
    errorCodeAliases: known['x-aliases'],
  };
}

/** The known error codes, kept apart so the core client does not carry the list. */
export function knownErrorCodes(): string[] {
  return (resolvePointer('#/components/schemas/KnownErrorCode') as { enum: string[] }).enum;
}

export const clientMetaPath = fileURLToPath(new URL('../../generated/client-meta.json', import.meta.url));
export const errorCodesPath = fileURLToPath(new URL('../../generated/error-codes.json', import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(clientMetaPath, `${JSON.stringify(clientMeta(), null, 2)}\n`);
  writeFileSync(errorCodesPath, `${JSON.stringify(knownErrorCodes(), null, 2)}\n`);
  console.log(`wrote ${clientMetaPath} and ${errorCodesPath}`);
}
