// The named examples of the bundled document as test cases (see openapi/README.md): each
// response example with the request that triggers it.
import { deref as derefNode, openapi, resolvePointer } from './document.ts';
import type { OperationId } from './meta.ts';
import { operationPointer, requestSchemaPointer } from './pointers.ts';

export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface Operation {
  /** The document's operationId; generated/client-meta.json lists the same ones, which gives the type. */
  operationId: OperationId;
  method: string;
  path: string;
  /** Names of the security schemes the operation needs. */
  security: string[];
  requestSchemaPointer: string | undefined;
  /** Pointer to the operation object, e.g. "#/paths/~1api~1cascade~1schedule/post". */
  pointer: string;
}

/** How to send the request of a response example whose trigger is not a same-named request example. */
export interface ExampleTrigger {
  body?: unknown;
  /** A body sent as-is, not as JSON of a value (e.g. malformed JSON). */
  rawBody?: string;
  credentials?: 'invalid' | 'no-balance';
  method?: string;
  path?: string;
  /** Send the request twice: the example is the answer to the second send (something used before). */
  sendTwice?: boolean;
  /** A request that changes nothing, answered alike on any deployment: a checker's first request of the operation. */
  probe?: boolean;
  /** The parts of the answer (`detail`) a [contract decision] mark on the example is about: the rest is described. */
  decided?: string[];
  /** The codes of other rules the request meets too: which is answered is the open point `error-precedence`. */
  otherCodes?: string[];
}

export interface ExamplePair {
  operation: Operation;
  name: string;
  status: number;
  /** The expected response body. */
  response: unknown;
  responseSchemaPointer: string;
  /** The body to send: the same-named request example, or `trigger.body`, or the operation's first request example. */
  requestBody: unknown;
  /** True when the body comes from a same-named request example. */
  paired: boolean;
  trigger: ExampleTrigger;
  /** `decision` when the response or the example is marked [contract decision]: the description does not state it. */
  kind: ExpectationKind;
}

/** Where an expectation comes from: the service's description (or its public docs), or a choice of this contract. */
export type ExpectationKind = 'described' | 'decision';

/** How the document marks a choice of this contract where the description is silent. */
export const decisionMark = '[contract decision]';
/** Whether a node of the document (a schema, a response, an example) is marked [contract decision]. */
export const marked = (node: Obj | undefined) =>
  [node?.description, node?.summary].some((t) => typeof t === 'string' && t.includes(decisionMark));

/**
 * Whether a schema's mark covers its limit `keyword`: a mark beside `x-decided: [maxContains]` covers those keywords
 * only (a decision covers what its words say), one without it every limit of the node.
 */
export const markedFor = (node: Obj | undefined, keyword: string | undefined) =>
  marked(node) && (!Array.isArray(node?.['x-decided']) || (node['x-decided'] as unknown[]).includes(keyword));

/** Whether the document marks the operation's response of `status` as a decision of this contract. */
export function responseKind(op: Operation, status: number | string): ExpectationKind {
  const raw = ((resolvePointer(op.pointer) as Obj).responses as Obj)[String(status)];
  return raw !== undefined && marked(deref(raw)) ? 'decision' : 'described';
}

type Obj = Record<string, unknown>;
const deref = (node: unknown) => derefNode<Obj>(node);

/** Built once: the bundled document never changes, and the suite asks for these lists thousands of times a run. */
function once<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

export const documentOperations: () => readonly Operation[] = once(() => {
  const result: Operation[] = [];
  for (const [path, item] of Object.entries(openapi.paths as Obj)) {
    for (const method of httpMethods) {
      const op = (item as Obj)[method] as Obj | undefined;
      if (!op) continue;
      const pointer = operationPointer(path, method);
      const media = deref(op.requestBody)?.content as Obj | undefined;
      result.push({
        // The same list as generated/client-meta.json (both from this document).
        operationId: String(op.operationId) as OperationId,
        method: method.toUpperCase(),
        path,
        security: ((op.security ?? openapi.security ?? []) as Obj[]).flatMap((s) => Object.keys(s)),
        requestSchemaPointer: media?.['application/json'] ? requestSchemaPointer(path, method) : undefined,
        pointer,
      });
    }
  }
  return Object.freeze(result);
});

function requestExamples(op: Operation): Map<string, unknown> {
  const opObject = resolvePointer(op.pointer) as Obj;
  const media = (deref(opObject.requestBody)?.content as Obj | undefined)?.['application/json'] as Obj | undefined;
  const examples = new Map<string, unknown>();
  for (const [name, ex] of Object.entries((media?.examples ?? {}) as Obj)) examples.set(name, deref(ex).value);
  return examples;
}

export const examplePairs: () => readonly ExamplePair[] = once(() => {
  const pairs: ExamplePair[] = [];
  for (const op of documentOperations()) {
    const requests = requestExamples(op);
    const firstRequest = requests.values().next().value;
    const responses = (resolvePointer(op.pointer) as Obj).responses as Obj;
    for (const [status, raw] of Object.entries(responses)) {
      // `default` (any other error) has examples but no request that triggers it.
      if (!/^\d{3}$/.test(status)) continue;
      const response = deref(raw);
      const media = (response.content as Obj | undefined)?.['application/json'] as Obj | undefined;
      if (!media) continue;
      const responseRef = (raw as Obj).$ref as string | undefined;
      const responseSchemaPointer = `${responseRef ?? `${op.pointer}/responses/${status}`}/content/application~1json/schema`;
      for (const [name, rawExample] of Object.entries((media.examples ?? {}) as Obj)) {
        const example = deref(rawExample);
        const trigger = (example['x-request'] ?? {}) as ExampleTrigger;
        const paired = requests.has(name);
        pairs.push({
          operation: op,
          // A mark on the example about some parts of the answer (`decided`) leaves the rest described.
          kind: marked(response) || (marked(example) && !trigger.decided) ? 'decision' : 'described',
          name,
          status: Number(status),
          response: example.value,
          responseSchemaPointer,
          requestBody: paired ? requests.get(name) : 'body' in trigger ? trigger.body : firstRequest,
          paired,
          trigger,
        });
      }
    }
  }
  return Object.freeze(pairs);
});

/** The named examples of `op` the document says are accepted, each a request that can be sent alone. */
export const successExamples = (op: Operation): ExamplePair[] =>
  examplePairs().filter(
    (p) => p.operation.operationId === op.operationId && p.paired && p.status === 200 && !p.trigger.sendTwice,
  );

/** The named example pair of an operation; throws when the document has none (a renamed example is found at once). */
export function examplePair(operationId: OperationId, name: string): ExamplePair {
  const found = examplePairs().find((p) => p.operation.operationId === operationId && p.name === name);
  if (!found) throw new Error(`the document has no example ${operationId}/${name}`);
  return found;
}

/**
 * A request that is valid against the schema for the pair's operation: the pair's own when it has
 * one, else the operation's first paired request (what a mock needs before it picks an example).
 */
export function validRequestBody(pair: ExamplePair): unknown {
  if (pair.paired) return pair.requestBody;
  return examplePairs().find((p) => p.operation.operationId === pair.operation.operationId && p.paired)!.requestBody;
}

/** Request example names that have no response example of the same name (should be none). */
export function orphanRequestExamples(): string[] {
  const responseNames = new Set(examplePairs().map((p) => `${p.operation.operationId}/${p.name}`));
  return documentOperations().flatMap((op) =>
    [...requestExamples(op).keys()].map((n) => `${op.operationId}/${n}`).filter((k) => !responseNames.has(k)),
  );
}
