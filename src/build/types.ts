// npm run build:types: generated/schema.d.ts from generated/openapi.json with openapi-typescript,
// where an open set (`anyOf: [Known..., {type: string}]`) keeps its known values for an editor's
// completion: `KnownX | (string & {})`, which `KnownX | string` would collapse into `string`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3, oapiRef, STRING, tsUnion } from 'openapi-typescript';
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

type Schema = Record<string, unknown>;
const isObject = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v);
/** Keywords that only state rules (which instances are valid), never a field's type. */
const ruleKeywords = new Set(['if', 'then', 'else', 'not', 'description', 'required']);

/**
 * The document as the generator should see it for types. A content schema is `allOf` of a rule
 * (TextContentRule: untyped properties, `required`, `if`/`then`), rules written inline, and one
 * bag of properties: generated as written, it is `Rule & unknown & {...}`, and tsc names
 * `{ contentType: unknown; ... } & ...` in every message. Here the rules' unconditional `required`
 * moves up, the rules go, and a lone bag of properties becomes the schema's own, so the type is
 * one object with its fields: the same instances typed, nothing loosened.
 */
export function typesView(doc: Schema): { view: Schema; lifted: Map<string, Set<string>> } {
  const view = structuredClone(doc);
  const lifted = new Map<string, Set<string>>();
  const schemas = ((view.components as Schema | undefined)?.schemas ?? {}) as Record<string, Schema>;
  const ruleOnly = (node: unknown): node is Schema => {
    if (!isObject(node)) return false;
    const target = typeof node.$ref === 'string' ? schemas[node.$ref.replace('#/components/schemas/', '')] : node;
    if (!isObject(target) || (target === node && typeof node.$ref === 'string')) return false;
    const properties = target.properties;
    const untyped =
      !isObject(properties) || Object.values(properties).every((p) => isObject(p) && Object.keys(p).length === 0);
    return untyped && Object.keys(target).every((k) => k === 'properties' || ruleKeywords.has(k));
  };
  for (const [name, schema] of Object.entries(schemas)) {
    if (!Array.isArray(schema.allOf)) continue;
    const rules = schema.allOf.filter(ruleOnly);
    if (rules.length === 0) continue;
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const fromRules = new Set<string>();
    for (const rule of rules) {
      const target = typeof rule.$ref === 'string' ? schemas[rule.$ref.replace('#/components/schemas/', '')]! : rule;
      for (const field of Array.isArray(target.required) ? (target.required as string[]) : []) fromRules.add(field);
    }
    const rest = schema.allOf.filter((m) => !rules.includes(m as Schema)) as Schema[];
    // One bag of properties left: its fields are the schema's own.
    const [only] = rest;
    if (rest.length === 1 && only && Object.keys(only).every((k) => k === 'properties' || k === 'required')) {
      delete schema.allOf;
      schema.properties = { ...(only.properties as Schema), ...(schema.properties as Schema | undefined) };
      for (const name of Array.isArray(only.required) ? (only.required as string[]) : []) required.add(name);
    } else if (rest.length) schema.allOf = rest;
    else delete schema.allOf;
    // Only a field the schema itself did not require could be undefined in the intersection.
    const own = new Set(required);
    lifted.set(name, new Set([...fromRules].filter((field) => !own.has(field))));
    for (const field of fromRules) required.add(field);
    if (required.size) schema.required = [...required];
  }
  return { view, lifted };
}

/**
 * A field a rule requires, as the intersection typed it: required, and `undefined` allowed (`unknown & (X | undefined)`),
 * so the flattened type takes every value the intersection took (the package's types gate holds it so).
 */
function withUndefined(type: ts.TypeNode, fields: Set<string>): ts.TypeNode {
  if (!ts.isTypeLiteralNode(type)) return type;
  const members = type.members.map((m) =>
    ts.isPropertySignature(m) && m.type && ts.isIdentifier(m.name) && fields.has(m.name.text)
      ? ts.factory.updatePropertySignature(
          m,
          m.modifiers,
          m.name,
          m.questionToken,
          ts.factory.createUnionTypeNode([m.type, ts.factory.createKeywordTypeNode(ts.SyntaxKind.UndefinedKeyword)]),
        )
      : m,
  );
  return ts.factory.updateTypeLiteralNode(type, ts.factory.createNodeArray(members));
}

export async function schemaTypes(): Promise<string> {
  const { view, lifted } = typesView(JSON.parse(readFileSync(bundledDocumentPath, 'utf8')));
  const ast = await openapiTS(view as unknown as OpenAPI3, {
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
    postTransform(type, options) {
      const name = /^#\/components\/schemas\/([^/]+)$/.exec(options.path ?? '')?.[1];
      const fields = name === undefined ? undefined : lifted.get(name);
      return fields?.size ? withUndefined(type, fields) : undefined;
    },
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
