// npm run build:generated: writes what the packages need of the document at run time, so none of
// them parses the whole document or compiles a schema when it starts:
//   generated/client-meta.json   operation routes and credentials, error code aliases
//   generated/error-codes.json   the known error codes (apart, so the core client does not carry them)
//   generated/validators/*.js    JSON Schema 2020-12 validators as ajv standalone code (ESM), one
//                                module per audience so a bundle takes only what it uses
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { _ } from 'ajv/dist/compile/codegen/index.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import equalModule from 'ajv/dist/runtime/equal.js';
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import { deref, documentId, openapi, resolvePointer } from '../core/document.ts';
import { examplePairs, documentOperations } from '../core/examples.ts';
import { fixturesSchema, fixturesSchemaId } from '../sandbox/fixtures-schema.ts';
import { callable, documentAjv } from './ajv.ts';

const standaloneCode = callable(standaloneModule as never) as typeof standaloneModule.default;

const generated = new URL('../../generated/', import.meta.url);
export const generatedPath = (name: string) => fileURLToPath(new URL(name, generated));

export function clientMeta() {
  const known = resolvePointer('#/components/schemas/KnownErrorCode') as {
    enum: string[];
    'x-aliases': Record<string, string>;
  };
  return {
    operations: Object.fromEntries(
      documentOperations().map((op) => {
        type Node = { required?: string[]; properties?: Record<string, unknown>; type?: string };
        const schema = deref<Node>(resolvePointer(`${op.pointer}/responses/200/content/application~1json/schema`));
        // The success body's required fields and the JSON type of each (null where the schema gives none).
        const successRequired = Object.fromEntries(
          (schema.required ?? []).map((field) => [field, deref<Node>(schema.properties?.[field] ?? {}).type ?? null]),
        );
        return [op.operationId, { method: op.method, path: op.path, security: op.security, successRequired }];
      }),
    ),
    securitySchemes: Object.fromEntries(
      Object.entries(resolvePointer('#/components/securitySchemes') as Record<string, Record<string, unknown>>).map(
        ([name, { description: _description, ...scheme }]) => [name, scheme],
      ),
    ),
    errorCodeAliases: known['x-aliases'],
  };
}

/** The known error codes, kept apart so the core client does not carry the list. */
export function knownErrorCodes(): string[] {
  return (resolvePointer('#/components/schemas/KnownErrorCode') as { enum: string[] }).enum;
}

const componentPointers = () =>
  Object.keys((openapi.components as { schemas: object }).schemas).map((name) => `#/components/schemas/${name}`);
const requestPointers = () => documentOperations().map((op) => op.requestSchemaPointer!);

/** Which validators each generated module holds, by JSON Pointer into the document (or id). */
export const validatorModules: Record<string, { keys: () => string[]; verbose: boolean }> = {
  // @messaging-contract/client/webhooks
  'status-callback': { keys: () => ['#/components/schemas/StatusCallback'], verbose: false },
  // @messaging-contract/client/preflight and the sandbox's button rule
  requests: { keys: () => [...requestPointers(), '#/components/schemas/KeyboardButtons'], verbose: true },
  // the sandbox and the conformance suite: every schema, request and response, and the fixtures
  all: {
    keys: () => [
      ...new Set([
        ...componentPointers(),
        ...requestPointers(),
        ...examplePairs().map((p) => p.responseSchemaPointer),
        fixturesSchemaId,
      ]),
    ],
    verbose: true,
  },
};

// ajv's standalone code `require`s its runtime helpers; the functions are self-contained, so they
// are written into the module instead, which then runs unbundled under ESM and bundles anywhere.
const inlineRuntime: Record<string, string> = {
  'require("ajv/dist/runtime/ucs2length").default': callable(
    ucs2lengthModule as never as { default: () => number },
  ).toString(),
  'require("ajv/dist/runtime/equal").default': callable(equalModule as never as { default: () => boolean }).toString(),
};

/**
 * The document without what no validator reads, for a validator that carries a schema object (for its `enum`, or its
 * `description` in a verbose error): the `x-` keys (the description's words, open points; they are read from the
 * document itself), and in a quiet one (the client's webhooks) the descriptions too. The client's bundles need neither.
 */
function withoutProse(node: unknown, verbose: boolean): unknown {
  if (Array.isArray(node)) return node.map((v) => withoutProse(v, verbose));
  if (node === null || typeof node !== 'object') return node;
  const dropped = (k: string, v: unknown) =>
    k.startsWith('x-') || (!verbose && k === 'description' && typeof v === 'string');
  return Object.fromEntries(
    Object.entries(node).flatMap(([k, v]) => (dropped(k, v) ? [] : [[k, withoutProse(v, verbose)]])),
  );
}

/** The ESM source of one validators module. */
export function validatorModule(name: string): string {
  const { keys, verbose } = validatorModules[name]!;
  // The formats come from ajv-formats by a named import, which Node and bundlers read alike.
  const ajv = documentAjv({ verbose, code: { source: true, esm: true, lines: true, formats: _`fullFormats` } });
  ajv.addSchema(withoutProse(openapi, verbose) as typeof openapi, documentId);
  ajv.addSchema(fixturesSchema, fixturesSchemaId);
  const exports: Record<string, string> = {};
  keys().forEach((key, i) => {
    const id = `v${i}`;
    if (key !== fixturesSchemaId) ajv.addSchema({ $ref: `${documentId}${key}` }, id);
    exports[id] = key === fixturesSchemaId ? fixturesSchemaId : id;
  });
  let code = standaloneCode(ajv, exports);
  const helpers: string[] = [];
  for (const [call, source] of Object.entries(inlineRuntime)) {
    const local = `runtime${helpers.length}`;
    if (code.includes(call)) {
      code = code.split(call).join(local);
      helpers.push(`const ${local} = ${source};`);
    }
  }
  const left = code.match(/require\([^)]*\)/g);
  if (left) throw new Error(`validators ${name}: unhandled runtime import ${left[0]}`);
  const table = keys()
    .map((key, i) => `  ${JSON.stringify(key)}: v${i},`)
    .join('\n');
  return [
    `// Generated by src/build/generate.ts from generated/openapi.json: do not edit.`,
    `import { fullFormats } from "ajv-formats/dist/formats.js";`,
    ...helpers,
    code.replace(/^"use strict";/, ''),
    `export const validators = {\n${table}\n};`,
    '',
  ].join('\n');
}

/** The type of every generated validator module: a precompiled validator and the part of an ajv error this project reads. */
export const validatorTypes = `// Generated by src/build/generate.ts: do not edit.
export declare const validators: Record<string, {
  (value: unknown): boolean;
  errors?: Array<{
    keyword: string;
    instancePath: string;
    schemaPath: string;
    params: Record<string, unknown>;
    message?: string;
    /** With ajv's \`verbose\` (request validators): the failing keyword's value and its schema. */
    schema?: unknown;
    parentSchema?: unknown;
  }> | null;
}>;
`;

/** Every generated file but the bundle and the types, by path under generated/. */
export function generatedFiles(): Record<string, string> {
  const files: Record<string, string> = {
    'client-meta.json': `${JSON.stringify(clientMeta(), null, 2)}\n`,
    'error-codes.json': `${JSON.stringify(knownErrorCodes(), null, 2)}\n`,
  };
  for (const name of Object.keys(validatorModules)) {
    files[`validators/${name}.js`] = validatorModule(name);
    files[`validators/${name}.d.ts`] = validatorTypes;
  }
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(generatedPath('validators'), { recursive: true });
  const files = generatedFiles();
  for (const [name, text] of Object.entries(files)) writeFileSync(generatedPath(name), text);
  console.log(
    `wrote ${Object.keys(files)
      .map((n) => `generated/${n}`)
      .join(', ')}`,
  );
}
