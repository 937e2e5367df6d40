// Builds dist/docs/: the self-contained Redoc page and the bundled document beside it.
// Redoc 3 loads its "API docs by Redocly" logo from a CDN even with --inlineBundle; the page
// must make no request outside itself, so the logo is inlined here as a data URI.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolvePointer } from '../core/document.ts';
import { documentOperations } from '../core/examples.ts';
import { bundledDocumentPath, docsPagePath, projectRoot } from '../paths.ts';
import { allCodeSamples, samplesSection } from './samples.ts';

const logo = (text: string) =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${text.length * 8}" height="16"><text x="0" y="12" font-family="sans-serif" font-size="12" fill="#666">${text}</text></svg>`,
  )}`;
const cdnAssets: Record<string, string> = {
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg': logo('Redocly'),
  'https://cdn.redoc.ly/redoc/logo-mini.svg': logo('R'),
};

/**
 * The request samples panel is about 55 characters wide and scrolls a longer line sideways: the
 * samples' lines wrap instead, so a reader sees all of each (copying still gives the sample as written).
 */
const samplesWrap =
  '.panel-request-samples pre[data-component-name="CodeBlock/CodeBlockContainer"]{white-space:pre-wrap;overflow-wrap:anywhere}';

type Obj = Record<string, unknown>;
type PageDocument = {
  info: { version: string; description: string };
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Obj>;
};

/**
 * The page's copy of the document gets what only a reader needs: each operation's code samples
 * (`x-codeSamples`, run against the sandbox in the tests) and each named example's key in its
 * summary (the name `Prefer: example=<key>` asks the mock for).
 */
function withSamplesAndKeys(page: PageDocument): void {
  const samples = allCodeSamples();
  const keyed = new Set<Obj>();
  const resolve = (node: Obj): Obj =>
    typeof node.$ref === 'string' ? resolve(resolvePointer(node.$ref, page) as Obj) : node;
  const keyExamples = (content: unknown) => {
    const examples = (((content as Obj | undefined)?.['application/json'] as Obj | undefined)?.examples ??
      {}) as Record<string, Obj>;
    for (const [key, ref] of Object.entries(examples)) {
      const example = resolve(ref); // a shared example is keyed once, by its own name
      if (keyed.has(example)) continue;
      keyed.add(example);
      example.summary = `${key}: ${String(example.summary ?? '')}`;
    }
  };
  for (const op of documentOperations()) {
    const operation = page.paths[op.path]![op.method.toLowerCase()] as Obj;
    operation['x-codeSamples'] = samples.get(op.operationId);
    keyExamples(resolve((operation.requestBody as Obj | undefined) ?? {}).content);
    for (const response of Object.values((operation.responses as Record<string, Obj>) ?? {}))
      keyExamples(resolve(response).content);
  }
}

/** Builds dist/docs/ from generated/openapi.json and CHANGELOG.md. */
export function buildDocs(): void {
  // The page adds a "Changes" section: the versions of CHANGELOG.md (not its release steps, which
  // are for this repository's maintainers), and a link to this version's document.
  const bundled = JSON.parse(readFileSync(bundledDocumentPath, 'utf8')) as PageDocument;
  withSamplesAndKeys(bundled);
  // The introduction ends with what the samples' variables are and where each comes from.
  bundled.info.description = `${bundled.info.description.trimEnd()}\n\n${samplesSection()}\n`;
  const versioned = `openapi-${bundled.info.version}.json`;
  const text = readFileSync(join(projectRoot, 'CHANGELOG.md'), 'utf8');
  const changelog = text.slice(Math.max(0, text.search(/^## /m)));
  bundled.tags.push({
    name: 'Changes',
    description: `Download the document of this version: [${versioned}](${versioned}).\n\n${changelog}`,
  });
  const pageSource = join(mkdtempSync(join(tmpdir(), 'mc-docs-')), 'openapi.json');
  writeFileSync(pageSource, JSON.stringify(bundled));

  execFileSync(
    join(projectRoot, 'node_modules', '.bin', 'redocly'),
    ['build-docs', pageSource, '-o', docsPagePath, '--inlineBundle'],
    { cwd: projectRoot, stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } },
  );
  rmSync(dirname(pageSource), { recursive: true, force: true });

  let html = readFileSync(docsPagePath, 'utf8');
  for (const [url, inline] of Object.entries(cdnAssets)) html = html.split(url).join(inline);
  html = html.replace('</head>', `<style>${samplesWrap}</style></head>`);
  const left = html.match(/https:\/\/cdn\.redoc\.ly\/[^"'`\s)]+/g);
  if (left) throw new Error(`the docs page still loads from the CDN: ${[...new Set(left)].join(', ')}`);
  writeFileSync(docsPagePath, html);
  copyFileSync(bundledDocumentPath, join(docsPagePath, '..', 'openapi.json'));
  copyFileSync(bundledDocumentPath, join(docsPagePath, '..', versioned));
  console.log(`docs: ${docsPagePath} (${Math.round(html.length / 1024)} KiB) and openapi.json beside it`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildDocs();
