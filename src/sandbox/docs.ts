// Serves the docs page (with a console that tries requests against this sandbox) and the bundled
// document, from the package's dist/ (or, from the repository's sources, from dist/docs/ and generated/).
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { assetPath } from '../core/assets.ts';
import { openapi as bundled } from '../core/document.ts';
import { tryItConsole } from './try-it.ts';

const openapi = bundled as { info: { version: string } };

const docsPage = assetPath(import.meta.url, { bundled: './docs/index.html', source: '../../dist/docs/index.html' });
const document = assetPath(import.meta.url, { bundled: './openapi.json', source: '../../generated/openapi.json' });
const html = 'text/html; charset=utf-8';

const routes: Record<string, { file: string; type: string }> = {
  '/': { file: docsPage, type: html },
  '/docs': { file: docsPage, type: html },
  '/docs/': { file: docsPage, type: html },
  '/openapi.json': { file: document, type: 'application/json' },
  '/docs/openapi.json': { file: document, type: 'application/json' },
  // The docs page links the document of its version by name.
  [`/openapi-${openapi.info.version}.json`]: { file: document, type: 'application/json' },
  [`/docs/openapi-${openapi.info.version}.json`]: { file: document, type: 'application/json' },
};

/** The page as the sandbox serves it: with the console that tries requests against this sandbox. */
let consoleHtml: string | undefined;
function withConsole(page: Buffer): Buffer {
  const text = page.toString('utf8');
  const end = text.lastIndexOf('</body>');
  consoleHtml ??= tryItConsole();
  return end < 0 ? page : Buffer.from(`${text.slice(0, end)}${consoleHtml}${text.slice(end)}`);
}

/**
 * The page with its console, built again only when the file changes (a rebuild while the sandbox runs): the page is
 * megabytes, and every run of the conformance suite asks for it (it first asks the server's root whether it answers).
 */
const built = new Map<string, { mtimeMs: number; size: number; body: Buffer }>();
async function pageWithConsole(file: string): Promise<Buffer> {
  const { mtimeMs, size } = await stat(file);
  const hit = built.get(file);
  if (hit?.mtimeMs === mtimeMs && hit.size === size) return hit.body;
  const body = withConsole(await readFile(file));
  built.set(file, { mtimeMs, size, body });
  return body;
}

/** Whether `path` is one of the docs routes: the API's requests skip serveDocs (and its await). */
export const isDocsPath = (path: string): boolean => Object.hasOwn(routes, path);

/** Answers GET/HEAD for the docs routes and returns true; returns false for any other URL. */
export async function serveDocs(path: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const route = Object.hasOwn(routes, path) ? routes[path]! : undefined;
  if (!route || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  let body: Buffer;
  try {
    body = route.type === html ? await pageWithConsole(route.file) : await readFile(route.file);
  } catch {
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`${route.file} is missing: run "npm run build" first.\n`);
    return true;
  }
  res.writeHead(200, { 'content-type': route.type, 'content-length': body.length, 'cache-control': 'no-cache' });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
