// Serves the docs page and the bundled document. The sandbox mounts the same handler.
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bundledDocumentPath, docsPagePath } from '../paths.ts';

const routes: Record<string, { file: string; type: string }> = {
  '/': { file: docsPagePath, type: 'text/html; charset=utf-8' },
  '/docs': { file: docsPagePath, type: 'text/html; charset=utf-8' },
  '/docs/': { file: docsPagePath, type: 'text/html; charset=utf-8' },
  '/openapi.json': { file: bundledDocumentPath, type: 'application/json' },
  '/docs/openapi.json': { file: bundledDocumentPath, type: 'application/json' },
};

/** Answers GET/HEAD for the docs routes and returns true; returns false for any other URL. */
export async function serveDocs(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  const route = routes[path];
  if (!route || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  let body: Buffer;
  try {
    body = await readFile(route.file);
  } catch {
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`${route.file} is missing: run "npm run build" first.\n`);
    return true;
  }
  res.writeHead(200, { 'content-type': route.type, 'content-length': body.length, 'cache-control': 'no-cache' });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
