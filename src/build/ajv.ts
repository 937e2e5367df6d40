// One configuration of ajv for the document, shared by the validators built at build time and the
// breaking-change gate's witnesses: JSON Schema 2020-12 (OpenAPI 3.1), every error, the formats of
// ajv-formats, and no strict mode (the document's `x-` keys and `example`s are not JSON Schema).
import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';

// ajv and ajv-formats are CommonJS: under NodeNext their default imports type as the module
// object, whose callable is `.default`; at run time either may be the function.
export const callable = <T>(m: { default: T } | T): T => (typeof m === 'function' ? m : (m as { default: T }).default);
const addFormats = callable(formatsModule as never) as typeof formatsModule.default;

export function documentAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false, ...options });
  addFormats(ajv);
  return ajv;
}
