// The example values a deployment maps to its own in a vars file (`values`), read from the document: the identifiers
// of what the deployment has (every int64 of a request example: threads, cascades), the stages a validation error's
// `detail` names, the values an example about a used one takes before (`x-taken-once`), the names a deployment defines
// (`x-business-answers`: parameters, tags) and the state it may lack (`info.x-fixtures`). Each with a line that says
// where the examples use it. `varsKeyFor` gives the key a vars file maps an example value under.
import { parseCascadeViolations } from '../../core/cascade-violations.ts';
import { deref, flatSchema, openapi, resolvePointer } from '../../core/document.ts';
import { documentOperations, examplePairs, type ExamplePair, type Operation } from '../../core/examples.ts';
import { businessAnswers, takenOnce, valuesAt } from '../document/policy.ts';

type Obj = Record<string, any>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One example value a deployment maps: its vars key (the value's JSON), the value, and what it stands for. */
export interface DeploymentValue {
  /** The key of `values` in a vars file: the JSON of the example value (`101`, `"crm-000001"`). */
  key: string;
  value: string | number | bigint;
  /** One line: where the examples use it, and what the deployment's own value must be. */
  comment: string;
  /** The document's `info.x-fixtures` names it: state a deployment may lack (map it to null then). */
  fixture: boolean;
}

/** The JSON of an example value: the key a vars file maps it under. BigInts as their digits. */
const jsonKey = (value: unknown) => (typeof value === 'bigint' ? String(value) : JSON.stringify(value));

const isPrimitive = (v: unknown): v is string | number | bigint =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint';

/** Every value at an int64 of the schema in `value`, with its field (`threadIds[]`, `cascadeId`). */
function* identifiers(schema: unknown, value: unknown, field: string): Generator<[unknown, string]> {
  const s = flatSchema((schema ?? {}) as Obj) ?? {};
  for (const member of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) yield* identifiers(member, value, field);
  if (Array.isArray(value)) {
    if (s.items) for (const item of value) yield* identifiers(s.items, item, `${field}[]`);
  } else if (isObject(value)) {
    for (const [name, child] of Object.entries(value))
      if (isObject(s.properties) && Object.hasOwn(s.properties, name))
        yield* identifiers(s.properties[name], child, field ? `${field}.${name}` : name);
  } else if ((typeof value === 'number' || typeof value === 'bigint') && s.format === 'int64') yield [value, field];
}

/** The named examples of an operation's request, and of its responses, as the document has them (with a summary). */
function summaryOf(op: Operation, pair: ExamplePair): string {
  const operation = resolvePointer(op.pointer) as Obj;
  const request = deref<Obj | undefined>(operation.requestBody)?.content?.['application/json']?.examples?.[pair.name];
  const response = deref<Obj | undefined>(operation.responses?.[String(pair.status)])?.content?.['application/json']
    ?.examples?.[pair.name];
  const found = (pair.paired ? deref<Obj>(request) : undefined)?.summary ?? deref<Obj | undefined>(response)?.summary;
  return typeof found === 'string' ? found : '';
}

/** The field of the example's answer that holds `value` (`resolved_threads[]`), if one does. */
function answeredIn(response: unknown, value: unknown, field = ''): string | undefined {
  if (Array.isArray(response)) return response.some((v) => v === value) ? `${field}[]` : undefined;
  if (!isObject(response)) return undefined;
  return Object.entries(response)
    .map(([name, child]) => answeredIn(child, value, field ? `${field}.${name}` : name))
    .find(Boolean);
}

/** A request example with the operation it goes to: the pairs', and the webhooks' (`x-request`, the callbacks stage's). */
interface Use {
  op: Operation;
  pair: ExamplePair;
  body: unknown;
  summary: string;
  /** A webhook's example names the request (the callbacks stage sends it). */
  webhook?: boolean;
}

function uses(): Use[] {
  const found: Use[] = examplePairs().map((pair) => ({
    op: pair.operation,
    pair,
    body: pair.requestBody,
    summary: summaryOf(pair.operation, pair),
  }));
  for (const method of Object.values((openapi.webhooks ?? {}) as Obj).flatMap((item) => Object.values(item as Obj))) {
    const examples = deref<Obj | undefined>((method as Obj)?.requestBody)?.content?.['application/json']?.examples;
    for (const [name, raw] of Object.entries((examples ?? {}) as Obj)) {
      const example = deref<Obj>(raw);
      const trigger = example?.['x-request'];
      const op = documentOperations().find((o) => o.operationId === trigger?.operationId);
      const pair = op && examplePairs().find((p) => p.operation === op);
      if (!op || !pair || !('body' in trigger)) continue;
      const summary = typeof example.summary === 'string' ? example.summary : '';
      found.push({ op, pair: { ...pair, name, response: undefined }, body: trigger.body, summary, webhook: true });
    }
  }
  return found;
}

/**
 * Where an example uses a value, the best first: an accepted paired request (it says what the value is), one whose
 * answer's violations name it (they say what the deployment has there), other pairs, a webhook's.
 */
function rank(u: Use, value: unknown): number {
  if (u.webhook) return 4;
  if (u.pair.status === 200 && u.pair.paired) return 0;
  const detail = (u.pair.response as Obj | undefined)?.detail;
  const named = parseCascadeViolations(typeof detail === 'string' ? detail : undefined).some(
    (v) =>
      v.kind !== 'unknown' &&
      (v.cascadeTemplateId === value || (v.kind === 'no-content-for-stage' && v.stageId === value)),
  );
  return named ? 1 : u.pair.status === 200 ? 2 : 3;
}

/** Every primitive of `value` with its field (`subscriberFilter.address`, `threadIds[]`). */
function* leaves(value: unknown, field = ''): Generator<[unknown, string]> {
  if (Array.isArray(value)) for (const item of value) yield* leaves(item, `${field}[]`);
  else if (isObject(value))
    for (const [name, child] of Object.entries(value)) yield* leaves(child, field ? `${field}.${name}` : name);
  else yield [value, field];
}

/** Every example value a deployment maps, each once, grouped by what it is; built once (the document does not change). */
let built: DeploymentValue[] | undefined;
export function deploymentValues(): readonly DeploymentValue[] {
  if (built) return built;
  const fixtures = ((openapi.info as Obj)['x-fixtures'] ?? {}) as Record<string, string>;
  const groups = new Map<string, Map<string, { value: string | number | bigint; uses: Use[]; what: string }>>();
  const add = (group: string, value: unknown, use: Use | undefined, what: string) => {
    if (!isPrimitive(value)) return;
    const key = jsonKey(value);
    for (const [name, members] of groups) if (name !== group && members.has(key)) return; // one group holds each
    const members = groups.get(group) ?? groups.set(group, new Map()).get(group)!;
    const entry = members.get(key) ?? members.set(key, { value, uses: [], what }).get(key)!;
    if (use && !entry.uses.includes(use)) entry.uses.push(use);
  };
  const all = uses();
  // The identifiers of what a deployment has (or, in an example about one it lacks, does not have).
  for (const use of all) {
    const pointer = use.op.requestSchemaPointer;
    if (!pointer) continue;
    for (const [value, field] of identifiers(resolvePointer(pointer), use.body, ''))
      add(`${use.op.operationId} ${field}`, value, use, '');
  }
  // The stages a validation error names: a deployment's cascades have stages of their own.
  for (const use of all) {
    const detail = (use.pair.response as Obj | undefined)?.detail;
    for (const v of parseCascadeViolations(typeof detail === 'string' ? detail : undefined))
      if (v.kind === 'no-content-for-stage')
        add(`${use.op.operationId} stages`, v.stageId, use, `the ${v.channel} stage of cascade ${v.cascadeTemplateId}`);
  }
  // A value taken once in an example about a used one: the suite sends it twice, so any value works.
  for (const use of all) {
    const once = takenOnce(use.op);
    if (!once || !use.pair.trigger.sendTwice) continue;
    for (const value of valuesAt(use.body, once.field))
      add(`${use.op.operationId} ${once.field}`, value, use, 'sent twice (the second send finds it taken): any works');
  }
  // The names a deployment defines (a parameter, a tag): an answer of the document says so where it has none.
  for (const use of all)
    for (const answer of businessAnswers(use.op)) {
      const field = answer.field.replace(/\.\[\]/g, '[]');
      for (const value of valuesAt(use.body, field))
        add(`${use.op.operationId} ${field}`, value, use, `the deployment answers ${answer.code} where it has none`);
    }
  // The state a deployment may lack: every fixture the document names, where an example's request has it.
  for (const key of Object.keys(fixtures)) {
    if ([...groups.values()].some((m) => m.has(key))) continue;
    for (const use of all)
      for (const [value, field] of leaves(use.body))
        if (isPrimitive(value) && jsonKey(value) === key) add(`${use.op.operationId} ${field}`, value, use, '');
  }
  const out: DeploymentValue[] = [];
  for (const [group, members] of groups) {
    const entries = [...members.entries()];
    // Numbers in order; other values as the document first uses them.
    if (entries.every(([, e]) => typeof e.value !== 'string'))
      entries.sort(([, a], [, b]) => (BigInt(a.value) < BigInt(b.value) ? -1 : 1));
    for (const [key, entry] of entries) {
      const fixture = Object.hasOwn(fixtures, key);
      const use = [...entry.uses].sort((a, b) => rank(a, entry.value) - rank(b, entry.value))[0];
      const more = new Set(entry.uses.map((u) => `${u.op.operationId} ${u.pair.name}`)).size - 1;
      const answered = use && answeredIn(use.pair.response, entry.value);
      const where = use
        ? `${group}: example ${use.pair.name}${use.summary ? ` (${use.summary})` : ''}${answered ? `, answered in ${answered}` : ''}${more > 0 ? `; in ${more + 1} examples` : ''}`
        : group;
      const comment = fixture
        ? `${fixtures[key]}: ${where}; map it to null where the deployment cannot make it (info.x-fixtures)`
        : `${where}${entry.what ? `: ${entry.what}` : ''}`;
      out.push({ key, value: entry.value, comment, fixture });
    }
  }
  built = out;
  return out;
}

/**
 * The key of a vars file's `values` that maps this example value to the deployment's own (`"1001"`, the JSON of a
 * string: `"\"6f1d2c3b-...\""`), or undefined when the value is not one a deployment maps (a channel, a text).
 */
export function varsKeyFor(value: unknown): string | undefined {
  if (!isPrimitive(value)) return undefined;
  keys ??= new Set(deploymentValues().map((v) => v.key));
  const key = jsonKey(value);
  return keys.has(key) ? key : undefined;
}
let keys: Set<string> | undefined;
