// Which operation of the document a request is: by its path, past the servers' base path or --base-path, and its
// method. A request to no operation's path is outside the API (a docs page, a health check) or near one (its 404).
import { openapi } from '../../core/document.ts';
import { documentOperations, responseKind, type Operation } from '../../core/examples.ts';
import { securitySchemes } from '../../core/meta.ts';
import type { HttpRequest, Routed } from '../ground/model.ts';

const operations = documentOperations();
const segments = (path: string) => path.split('/').filter(Boolean);

/** The base paths of the document's servers (`/v2` of `https://host/v2`), longest first. */
const serverPaths = ((openapi.servers as Array<{ url: string }> | undefined) ?? [])
  .map((s) => new URL(s.url, 'http://x').pathname.replace(/\/+$/, ''))
  .filter(Boolean)
  .sort((a, b) => b.length - a.length);

/** The path of a request's URL past its base path: `--base-path`, else the first server base path it starts with. */
function pathOf(url: string, basePath?: string): string {
  const path = new URL(url).pathname;
  const bases = basePath === undefined ? serverPaths : [basePath.replace(/\/+$/, '')];
  const base = bases.find((b) => path === b || path.startsWith(`${b}/`));
  return base ? path.slice(base.length) || '/' : path;
}

/** The header (lower case) that carries a security scheme's credential: an API key's own, else `authorization`. */
export function credentialHeader(name: string): string {
  const scheme = (securitySchemes as Record<string, { type: string; name?: string; in?: string }>)[name];
  return scheme?.type === 'apiKey' && scheme.in === 'header' ? scheme.name!.toLowerCase() : 'authorization';
}

/** Whether the request carries the credential each of the operation's security schemes names. */
const credentialGiven = (op: Operation, headers: Record<string, string>) =>
  op.security.every((name) => {
    const header = credentialHeader(name);
    return header === 'authorization' ? /^bearer\s+\S/i.test(headers.authorization ?? '') : Boolean(headers[header]);
  });

/**
 * The operation an answer to a path of no operation is judged by (its 404 and 405): the one whose path shares the
 * most leading segments with it (of several, one whose 404 is described); none when not even the first is shared.
 */
export function nearest(path: string): Operation | undefined {
  const parts = segments(path);
  const shared = operations.map((op) => {
    const first = segments(op.path).findIndex((s, i) => s !== parts[i]);
    return first < 0 ? segments(op.path).length : first;
  });
  const most = Math.max(...shared);
  const near = operations.filter((_, i) => shared[i] === most);
  return most > 0 ? (near.find((op) => responseKind(op, 404) === 'described') ?? near[0]) : undefined;
}

/** A request routed to its operation; one that is not http(s) (a browser's `blob:`, `data:`, `ws:`) is outside. */
export function route(request: HttpRequest, basePath?: string): Routed {
  const web = /^https?:$/i.test(URL.canParse(request.url) ? new URL(request.url).protocol : '');
  const path = web ? pathOf(request.url, basePath) : '';
  const atPath = web ? operations.find((op) => op.path === path) : undefined;
  const operation = atPath && atPath.method.toUpperCase() === request.method.toUpperCase() ? atPath : undefined;
  let body: unknown;
  let json = true;
  try {
    body = request.body === undefined || request.body === '' ? undefined : JSON.parse(request.body);
  } catch {
    json = false;
  }
  const given = operation ? credentialGiven(operation, request.headers) : true;
  const outside = !web || (!atPath && nearest(path) === undefined);
  return { request, path, operation, atPath, body, json, credentialGiven: given, outside };
}
