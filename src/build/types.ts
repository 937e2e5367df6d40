// npm run build:types: generated/schema.d.ts from generated/openapi.json with openapi-typescript,
// where an open set (`anyOf: [Known..., {type: string}]`) keeps its known values for an editor's
// completion: `KnownX | (string & {})`, which `KnownX | string` would collapse into `string`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, oapiRef, STRING, tsUnion } from 'openapi-typescript';
import ts from 'typescript';
import { bundledDocumentPath, projectRoot } from '../paths.ts';

export const schemaTypesPath = join(projectRoot, 'generated', 'schema.d.ts');

type Member = { $ref?: unknown; type?: unknown; [key: string]: unknown };

/** `anyOf: [{$ref: Known...}, {type: string, minLength?, pattern?}]`: the open sets of the document. */
function openSet(schema: { anyOf?: unknown }): string | undefined {
  if (!Array.isArray(schema.anyOf) || schema.anyOf.length !== 2) return undefined;
  const [known, other] = schema.anyOf as [Member, Member];
  const plainString =
    other.type === 'string' && Object.keys(other).every((k) => ['type', 'minLength', 'pattern'].includes(k));
  return typeof known.$ref === 'string' && /\/Known[A-Za-z]+$/.test(known.$ref) && plainString ? known.$ref : undefined;
}

export async function schemaTypes(): Promise<string> {
  const ast = await openapiTS(JSON.parse(readFileSync(bundledDocumentPath, 'utf8')), {
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
    transform(schema) {
      const known = openSet(schema as { anyOf?: unknown });
      if (!known) return undefined;
      const anyOtherString = ts.factory.createParenthesizedType(
        ts.factory.createIntersectionTypeNode([STRING, ts.factory.createTypeLiteralNode([])]),
      );
      return tsUnion([oapiRef(known), anyOtherString]);
    },
  });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(schemaTypesPath, await schemaTypes());
  console.log(`wrote ${schemaTypesPath}`);
}
