// Which operation a request is for: its path (origin form only) and method, from the document.
import type { IncomingMessage } from 'node:http';
import { documentOperations, type Operation } from '../../core/examples.ts';
import { problem, Refusal } from '../reply.ts';

/**
 * A target of only letters, digits, `-`, `_` and `/` is its own path: no dot segment, query or escape for a URL parser
 * to resolve.
 */
const plainTarget = /^\/[A-Za-z0-9_\-/]*$/;

/** The path of an origin-form request target (`/api/...`, dot segments resolved), or null for anything else. */
export function requestPath(target: string | undefined): string | null {
  if (!target?.startsWith('/') || target.startsWith('//')) return null;
  if (plainTarget.test(target)) return target;
  try {
    return new URL(target, 'http://sandbox').pathname;
  } catch {
    return null;
  }
}

const routes = new Map(documentOperations().map((op) => [op.path, op]));

/** The operation at the request's path and method; a Refusal (404, 405 with `Allow`) where there is none. */
export function route(req: IncomingMessage, path: string): Operation {
  const op = routes.get(path);
  if (!op) throw new Refusal(problem(404, 'not-found', `No operation at ${path}.`));
  if (req.method !== op.method) {
    throw new Refusal(
      problem(405, 'method-not-allowed', `Method ${req.method} is not allowed here; use ${op.method}.`),
      { allow: op.method },
    );
  }
  return op;
}
