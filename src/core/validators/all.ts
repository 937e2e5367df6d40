// Precompiled: every schema of the document, every request and response, and the sandbox fixtures.
import { validators } from '../../../generated/validators/all.js';
import { lookup } from '../validation.ts';

export const { validator, rawErrors } = lookup(validators);

/** The validator of a component schema by name, e.g. "Problem". */
export const schemaValidator = (name: string) => validator(`#/components/schemas/${name}`);
