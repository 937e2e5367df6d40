// The registry's checks of a request: the caller's side of an exchange nobody in this suite sent (recorded traffic, a
// proxy). Each says what the document refuses in the request; the answer the service owes it is the case's
// expectation (expectations.ts `recordedExpectation`), judged by the checks of an answer (checks.ts). A request is
// routed to its operation first: by its path, past the servers' base path or --base-path, and its method.
import { openapi } from '../../core/document.ts';
import { documentOperations, type Operation } from '../../core/examples.ts';
import { securitySchemes } from '../../core/meta.ts';
import { documentViolation } from '../../core/schema-violations.ts';
import { rootFaults, type Case, type Fault, type Found, type Profile } from '../ground/model.ts';
import { anyError, documentsDefault, recordedExpectation } from '../document/expectations.ts';
import type { HttpRequest } from '../ground/transport.ts';
import { echoes } from '../document/policy.ts';
import { responseKind } from '../../core/examples.ts';

/** A request as the checks read it: its operation (by path and method), and its body as JSON. */
export interface Routed {
  request: HttpRequest;
  /** The path past the base path, without the query. */
  path: string;
  /** The operation of the path and method; undefined for a path or method the document does not describe. */
  operation: Operation | undefined;
  /** The operation of the path, whatever the method. */
  atPath: Operation | undefined;
  /** The body as JSON, when it is JSON. */
  body: unknown;
  json: boolean;
  credentialGiven: boolean;
  /**
   * The path is outside the document's paths: its first segment is no operation's (a docs page at `/`, a health
   * check). Such an exchange is not the API's: nothing judges it.
   */
  outside: boolean;
}

export interface RequestCheck {
  id: string;
  holds: string;
  after?: string[];
  concerns?(r: Routed): boolean;
  faults(r: Routed): Found[];
}

/** The base paths of the document's servers (`/v2` of `https://host/v2`), longest first. */
const serverPaths = ((openapi.servers as Array<{ url: string }> | undefined) ?? [])
  .map((s) => new URL(s.url, 'http://x').pathname.replace(/\/+$/, ''))
  .filter(Boolean)
  .sort((a, b) => b.length - a.length);

/** The path of a request's URL past its base path: `--base-path`, else the first server base path it starts with. */
export function pathOf(url: string, basePath?: string): string {
  const path = new URL(url).pathname;
  const bases = basePath === undefined ? serverPaths : [basePath.replace(/\/+$/, '')];
  const base = bases.find((b) => path === b || path.startsWith(`${b}/`));
  return base ? path.slice(base.length) || '/' : path;
}

const operations = documentOperations();

/** Whether the request carries the credential each of the operation's security schemes names. */
function credentialGiven(op: Operation, headers: Record<string, string>): boolean {
  return op.security.every((name) => {
    const scheme = (securitySchemes as Record<string, { type: string; name?: string; in?: string }>)[name];
    if (scheme?.type === 'apiKey' && scheme.in === 'header') return Boolean(headers[scheme.name!.toLowerCase()]);
    return /^bearer\s+\S/i.test(headers.authorization ?? '');
  });
}

export function route(request: HttpRequest, basePath?: string): Routed {
  const path = pathOf(request.url, basePath);
  const atPath = operations.find((op) => op.path === path);
  const operation = atPath && atPath.method.toUpperCase() === request.method.toUpperCase() ? atPath : undefined;
  let body: unknown;
  let json = true;
  try {
    body = request.body === undefined || request.body === '' ? undefined : JSON.parse(request.body);
  } catch {
    json = false;
  }
  const given = operation ? credentialGiven(operation, request.headers) : true;
  const outside = !atPath && nearest(path) === undefined;
  return { request, path, operation, atPath, body, json, credentialGiven: given, outside };
}

const mediaType = (r: Routed) => (r.request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

export const requestChecks: RequestCheck[] = [
  {
    id: 'request-operation',
    holds: 'the method and path are an operation of the document',
    faults: (r) =>
      r.operation
        ? []
        : r.atPath
          ? [
              {
                fault: `a method the document does not give the path: ${r.request.method} ${r.path}`,
                key: `method ${r.request.method} ${r.path}`,
                detail: `${r.path} takes ${r.atPath.method.toUpperCase()}`,
              },
            ]
          : [
              {
                fault: `a path the document does not describe: ${r.path}`,
                key: `path ${r.path}`,
                detail: `the document's paths are ${operations.map((o) => o.path).join(', ')}`,
              },
            ],
  },
  {
    id: 'request-credentials',
    holds: "the request carries the credential its operation's security names",
    after: ['request-operation'],
    faults: (r) =>
      r.credentialGiven
        ? []
        : [
            {
              fault: `${r.operation!.operationId} without the credential its security names (${r.operation!.security.join(', ')})`,
              detail: 'no credential',
            },
          ],
  },
  {
    id: 'request-content-type',
    holds: 'a body is sent as application/json',
    after: ['request-operation'],
    concerns: (r) => r.request.body !== undefined && r.request.body !== '',
    faults: (r) =>
      mediaType(r) === 'application/json'
        ? []
        : [
            {
              fault: `a body sent as ${JSON.stringify(mediaType(r) || 'no content type')}, where the document takes application/json`,
              detail: `content-type ${JSON.stringify(r.request.headers['content-type'] ?? null)}`,
            },
          ],
  },
  {
    id: 'request-json',
    holds: 'the body is JSON',
    after: ['request-operation', 'request-content-type'],
    faults: (r) =>
      r.json && r.body !== undefined
        ? []
        : [
            {
              fault: r.json ? 'a request without the body its operation needs' : 'a request body that is not JSON',
              detail: JSON.stringify((r.request.body ?? '').slice(0, 120)),
            },
          ],
  },
  {
    id: 'request-schema',
    holds: "the body is valid against the operation's request schema, the limits across rows included",
    after: ['request-operation', 'request-content-type', 'request-json'],
    faults(r) {
      const refused = documentViolation(r.operation!.operationId, r.body);
      if (!refused) return [];
      return [
        {
          fault: `${r.operation!.operationId}: a request the document refuses (${refused.code})`,
          key: `${r.operation!.operationId} ${refused.code}`,
          detail: refused.detail.slice(0, 300),
        },
      ];
    },
  },
];

/** Every fault of the request, root causes only. */
export const judgeRequest = (r: Routed): Fault[] => rootFaults(requestChecks, r);

const segments = (path: string) => path.split('/').filter(Boolean);
/**
 * The operation an answer to a path of no operation is judged by (its 404 and 405): the one whose path shares the
 * most leading segments with it (of several, one whose 404 is described); none when not even the first is shared.
 */
function nearest(path: string): Operation | undefined {
  const shared = (op: Operation) => {
    const [a, b] = [segments(path), segments(op.path)];
    let n = 0;
    while (n < a.length && n < b.length && a[n] === b[n]) n++;
    return n;
  };
  const most = Math.max(...operations.map(shared));
  const near = operations.filter((op) => shared(op) === most);
  // Of those as near, one whose 404 the description states: its answer is described there.
  return most > 0 ? (near.find((op) => responseKind(op, 404) === 'described') ?? near[0]) : undefined;
}

/** The case of a recorded request: what the document allows as its answer, whatever state the service was in. */
export function recordedCase(r: Routed, profile: Profile): Case {
  const op = r.operation ?? r.atPath ?? nearest(r.path)!;
  const only = (status: number, code: string) => ({
    allowed: [{ status, code }],
    kind: responseKind(op, status),
    basis: `${op.pointer}/responses/${status}`,
  });
  const base = { operation: op, request: r.request };
  if (!r.operation)
    return { ...base, expectation: r.atPath ? only(405, 'method-not-allowed') : only(404, 'not-found') };
  if (r.request.body !== undefined && r.request.body !== '' && mediaType(r) !== 'application/json')
    return {
      ...base,
      expectation: {
        ...anyError(op, `${op.pointer}/requestBody/content (a body of another media type gets an error)`, 'decision'),
        otherErrors: documentsDefault(op),
      },
    };
  if (!r.json || r.body === undefined)
    return {
      ...base,
      expectation: anyError(op, `${op.pointer}/responses: a body that is not JSON gets a documented error`),
    };
  // A success gives back the fields the document says it echoes, as sent (`x-echoes`).
  const sent = r.body !== null && typeof r.body === 'object' ? (r.body as Record<string, unknown>) : {};
  const echoed = echoes(op, 200).filter((f) => Object.hasOwn(sent, f));
  return {
    ...base,
    expectation: recordedExpectation(op, r.body, r.credentialGiven, profile),
    ...(echoed.length ? { fields: Object.fromEntries(echoed.map((f) => [f, sent[f]])) } : {}),
  };
}
