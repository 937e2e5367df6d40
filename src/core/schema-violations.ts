// Which documented error code a request's schema violations stand for. The schema (and every limit
// in it) is the document's, and so is the code each field's violations stand for (`x-violation-codes`
// on each operation); this file applies them. A violation with no code of its own is the service's
// catch-all for a malformed request: 500 system-error.
import { buttonsInOneRow } from './button-rows.ts';
import { resolvePointer } from './document.ts';
import { documentOperations, markedFor } from './examples.ts';
import type { OperationId } from './meta.ts';
import { describeErrors, valueAt, type SchemaError } from './validation.ts';
import { rawErrors } from './validators/all.ts';

interface Violation {
  /** The field the error is about: instancePath plus a missing property, e.g. /content/smsContent/text. */
  field: string;
  keyword: string;
}

type Rule = (v: Violation) => boolean;

/**
 * Per operation, the code each field's violations stand for (`x-violation-codes` on the operation): per code, the
 * fields (a pattern of the instance path, a missing property's name appended) and the keywords that give it. Checked
 * when read: a key of the wrong form fails at once, naming where it is.
 */
export function violationCodes(pointer: string, operation: Record<string, unknown>): Array<[string, Rule[]]> {
  const where = `${pointer}/x-violation-codes`;
  const wrong = (what: string) => new Error(`${where}${what}`);
  if (!Object.hasOwn(operation, 'x-violation-codes')) return [];
  const table = operation['x-violation-codes'];
  if (table === null || typeof table !== 'object' || Array.isArray(table))
    throw wrong(': expected an object of code -> [{field, keywords}]');
  return Object.entries(table as Record<string, unknown>).map(([code, entries]) => {
    if (!precedence.includes(code)) throw wrong(`/${code}: not a code of KnownErrorCode`);
    if (!Array.isArray(entries) || entries.length === 0) throw wrong(`/${code}: expected a list of {field, keywords}`);
    return [
      code,
      entries.map((entry: { field?: unknown; keywords?: unknown }, i) => {
        const at = `/${code}/${i}`;
        if (typeof entry?.field !== 'string') throw wrong(`${at}/field: expected a pattern of the field`);
        let field: RegExp;
        try {
          field = new RegExp(entry.field);
        } catch (error) {
          throw wrong(`${at}/field: not a pattern (${(error as Error).message})`);
        }
        const given = entry.keywords ?? [];
        const keywords: string[] = Array.isArray(given) ? given : [];
        const unknown = Array.isArray(given) ? keywords.filter((k) => !schemaKeywords.has(k)) : [given];
        if (unknown.length) throw wrong(`${at}/keywords: ${JSON.stringify(unknown)} are no schema keywords`);
        return (v: Violation) => field.test(v.field) && (keywords.length === 0 || keywords.includes(v.keyword));
      }),
    ];
  });
}

/** The keywords a schema error may name (JSON Schema 2020-12, as Ajv reports them). */
const schemaKeywords = new Set([
  'type',
  'enum',
  'const',
  'format',
  'pattern',
  'required',
  'dependentRequired',
  'additionalProperties',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'contains',
  'minContains',
  'maxContains',
  'uniqueItems',
  'not',
  'oneOf',
  'anyOf',
  'if',
  'dependentSchemas',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
]);

/** The document's order of known codes: when several apply, the first in this order is answered. */
const precedence = (resolvePointer('#/components/schemas/KnownErrorCode') as { enum: string[] }).enum;

function violationOf(e: SchemaError): Violation {
  const missing = (e.params as { missingProperty?: string }).missingProperty;
  return { field: missing ? `${e.instancePath}/${missing}` : e.instancePath, keyword: e.keyword };
}

export interface SchemaOutcome {
  code: string;
  /** Every code of its own a violation of the request has, `code` first (the document's order of known codes). */
  codes: string[];
  status: number;
  detail: string;
  /**
   * True when some violation is a value of the wrong type, a missing property or an empty one:
   * a malformed request, for which the description allows 500 `system-error` too ("It may also
   * occur on a malformed request (wrong placement, missing or empty properties)").
   */
  malformed: boolean;
  /**
   * True when every violation passes a limit of a schema node marked [contract decision]: the
   * description states the field but not that limit (its type and presence stay the description's,
   * unless the mark names the type: `x-decided: [type]`).
   */
  decided: boolean;
}

/** A wrong type, a missing property, or an empty value (a `min...` limit of 1). */
const isMalformed = (e: SchemaError) =>
  ['type', 'required', 'dependentRequired'].includes(e.keyword) ||
  (['minLength', 'minItems', 'minProperties'].includes(e.keyword) && (e.params as { limit?: unknown }).limit === 1);

const limitKeywords = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'contains',
  'minContains',
  'maxContains',
]);

/**
 * Whether the error passes a limit of a node the document marks as this contract's decision, or breaks a type the mark
 * names (`x-decided: [type]`: a field no source types).
 */
function isDecided(e: SchemaError, body: unknown): boolean {
  if (!(limitKeywords.has(e.keyword) || e.keyword === 'type') || !e.schemaPath.startsWith('#/')) return false;
  try {
    const node = resolvePointer(e.schemaPath.slice(0, e.schemaPath.lastIndexOf('/'))) as Record<string, any>;
    if (e.keyword === 'type' && !node['x-decided']?.includes('type')) return false;
    return markedFor(node, e.keyword === 'contains' ? containsLimit(node, valueAt(body, e.instancePath)) : e.keyword);
  } catch {
    return false;
  }
}

/**
 * Which count a `contains` error passes (Ajv names both `contains`): `minContains` where fewer items than it asks are
 * of the kind the `contains` schema fixes by its `const` properties, `maxContains` otherwise.
 */
function containsLimit(node: Record<string, any>, items: unknown): 'minContains' | 'maxContains' {
  const fixed = Object.entries<Record<string, unknown>>(node.contains?.properties ?? {}).filter(
    ([, p]) => 'const' in p,
  );
  const ofKind = (Array.isArray(items) ? items : []).filter((item) =>
    fixed.every(([k, p]) => (item as Record<string, unknown> | null)?.[k] === p.const),
  ).length;
  return ofKind < (node.minContains ?? 1) ? 'minContains' : 'maxContains';
}

const requestSchemas = new Map(documentOperations().map((op) => [op.operationId, op.requestSchemaPointer!]));
const rulesOf = new Map(
  documentOperations().map((op) => [
    op.operationId,
    violationCodes(op.pointer, resolvePointer(op.pointer) as Record<string, unknown>),
  ]),
);
/** A detail names at most this many problems, then counts the rest. */
const detailLines = 20;

/** Null when `body` is valid against the operation's request schema; otherwise the code to answer. */
export function schemaViolation(operationId: OperationId, body: unknown): SchemaOutcome | null {
  const schemaPointer = requestSchemas.get(operationId);
  if (!schemaPointer) throw new Error(`unknown operation ${operationId}`);
  // Errors of items that merely do not match a `contains` pattern, and of `if`, are not violations.
  const errors = rawErrors(schemaPointer, body).filter(
    (e) => e.keyword !== 'if' && !e.schemaPath.includes('/contains/'),
  );
  if (errors.length === 0) return null;
  const byCode = new Map<string, SchemaError[]>();
  const codes = rulesOf.get(operationId) ?? [];
  for (const e of errors) {
    const v = violationOf(e);
    const code = codes.find(([, tests]) => tests.some((t) => t(v)))?.[0] ?? 'system-error';
    const group = byCode.get(code);
    if (group) group.push(e);
    else byCode.set(code, [e]);
  }
  const specific = [...byCode.keys()]
    .filter((c) => c !== 'system-error')
    .sort((a, b) => precedence.indexOf(a) - precedence.indexOf(b));
  const code = specific[0] ?? 'system-error';
  // Only the first problems are described: a request with a million bad identifiers gets a
  // readable answer, in time linear in its size.
  const group = byCode.get(code)!;
  const lines = describeErrors(group.slice(0, detailLines), body);
  if (group.length > detailLines) lines.push(`and ${group.length - detailLines} more`);
  return {
    code,
    codes: specific.length ? specific : [code],
    malformed: errors.some(isMalformed),
    decided: errors.every((e) => isDecided(e, body)),
    status: code === 'system-error' ? 500 : 400,
    detail: code === 'system-error' ? `The request is malformed: ${lines.join('; ')}` : lines.join('; '),
  };
}

/**
 * What the document refuses in `body`: its schema, and the button limits, which hold for all rows
 * of a template together (the schema checks them row by row), judged as one row holding every button.
 */
export function documentViolation(operationId: OperationId, body: unknown): SchemaOutcome | null {
  return schemaViolation(operationId, body) ?? schemaViolation(operationId, buttonsInOneRow(body));
}
