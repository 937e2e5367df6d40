// A value against a schema of the document, as faults: what the checks of an answer and of a callback share.
import { errorParts } from '../../core/validation.ts';
import { rawErrors } from '../../core/validators/all.ts';

/**
 * Each schema error of `value` under the schema at `pointer`, as a fault: grouped by the keyword of
 * the document it breaks (`#/components/schemas/ThreadId/type`), so the same broken rule in four
 * lists, or in every problem body, is one cause; list positions read as `[]`.
 */
export function schemaFaults(pointer: string, value: unknown, what: string) {
  // A Found of the model, written out: this module stays a leaf.
  const found = new Map<string, { fault: string; key: string; detail: string }>();
  for (const e of rawErrors(pointer, value)) {
    const parts = errorParts(e, value);
    const rule = e.schemaPath.startsWith('#/components/') ? e.schemaPath : `${pointer}${e.schemaPath.slice(1)}`;
    const missing = (e.params as { missingProperty?: string }).missingProperty;
    const key = `${rule}${missing ? `/${missing}` : ''}`;
    if (!parts || found.has(key)) continue;
    found.set(key, {
      fault: `${what}: \`${parts.field.replace(/\[\d+\]/g, '[]')}\` expected ${parts.expected} (${key})`,
      key,
      detail: `${parts.field}: ${parts.value}; expected it ${parts.expected}`,
    });
  }
  return [...found.values()];
}
