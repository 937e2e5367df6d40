// The docs page opened from disk with every request outside file:// blocked: each operation, the
// webhook, schemas and named examples render, search finds an error code, the bundled document is
// linked, the introduction says where the samples' variables come from, and the page asks for
// nothing outside itself.
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './chromium.ts';
import { docsPagePath, projectRoot } from '../../src/paths.ts';
import { openapi, resolvePointer } from '../../src/core/document.ts';
import { loadFixtures } from '../../src/sandbox/fixtures.ts';
import { documentOperations } from '../../src/core/examples.ts';
import { codeSamples, sampleEnv, samplesSectionTitle } from '../../src/docs/samples.ts';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const resultsDir = join(projectRoot, 'test-results');
let browser: Browser;
let page: Page;
const outside: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file://') || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    outside.push(url);
    return route.abort();
  });
  page = await context.newPage();
  await page.goto(pathToFileURL(docsPagePath).href, { waitUntil: 'load' });
  await page.getByRole('heading', { name: 'Messaging service API' }).waitFor({ timeout: 20_000 });
  await mkdir(resultsDir, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
});

/** Opens an operation from the sidebar (Redoc 3 renders sections as they are visited). */
async function open(tag: string, summary: string): Promise<string> {
  await page.getByText(tag, { exact: true }).first().click();
  await page.getByText(summary, { exact: true }).first().click();
  await page.getByRole('heading', { name: summary }).first().waitFor({ timeout: 10_000 });
  return page.locator('body').innerText();
}

describe('docs page (file://, offline)', () => {
  it.each([
    [
      'Threads',
      'Close threads',
      [
        'POST',
        '/api/v1/threads/close',
        'threadIds',
        'comment',
        'resolved_threads',
        'not_resolved_due_to_system_error',
        'resolved: An open thread is closed',
      ],
    ],
    [
      'Subscribers',
      'Create subscriber',
      ['/api/subscribers/create', 'addresses', 'parameterValues', 'tagValues', 'blacklisted'],
    ],
    // The code samples (curl, the typed client, fetch) and the example keys (what `Prefer: example=` takes).
    [
      'Cascades',
      'Schedule cascade message',
      [
        '/api/cascade/schedule',
        'requestId',
        'subscriberFilter',
        'content',
        'scheduled: Viber then SMS, text on both',
        'curl',
        'REQUEST_ID=$(uuidgen',
      ],
    ],
    [
      'Delivery status',
      'Message status callback',
      ['Webhook', 'cascadeStageUUID', 'statusAt', 'UNDELIVERED', 'Delivered over Viber'],
    ],
  ])('shows %s > %s with its fields and examples', async (tag, summary, texts) => {
    const text = await open(tag, summary);
    for (const t of texts) expect(text, t).toContain(t);
    await page.screenshot({ path: join(resultsDir, `docs-${summary.toLowerCase().replace(/\s+/g, '-')}.png`) });
  });

  it.each(documentOperations().map((op) => [op.operationId, op] as const))(
    '%s: the sample selector offers curl, the typed client and fetch, and shows each one picked',
    async (_id, op) => {
      const operation = resolvePointer(op.pointer) as { summary: string; tags: string[] };
      await open(operation.tags[0]!, operation.summary);
      const samples = codeSamples(op);
      for (const sample of samples) {
        // The selector: the panel's dropdown that names the language shown (whichever was picked last).
        const selector = page
          .getByRole('button', {
            name: new RegExp(`^(${[...samples.map((s) => s.label), 'Payload'].map(escapeRegExp).join('|')})$`),
          })
          .first();
        await selector.click();
        const items = await page.getByRole('menuitem').allInnerTexts();
        expect(items.map((t) => t.trim())).toEqual(expect.arrayContaining(samples.map((s) => s.label)));
        await page.getByRole('menuitem', { name: sample.label, exact: true }).first().click();
        // The code shown is the sample's, line for line, and no line runs past the panel. Found by its line naming the
        // operation (the first lines, on what each variable is, are alike in every sample).
        const own = sample.source
          .split('\n')
          .find((line) => line.includes(`${op.path}`) || line.includes(`.${op.operationId}(`))!;
        const code = page.locator('pre').filter({ hasText: own }).first();
        await code.waitFor({ timeout: 10_000 });
        const shown = (await code.innerText()).replace(/\s+$/, '');
        expect(shown, `${op.operationId} ${sample.label}`).toBe(sample.source);
        const fits = await code.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
        expect(fits, `${op.operationId} ${sample.label}: a line wider than the panel`).toBe(true);
        await page.screenshot({
          path: join(resultsDir, `docs-sample-${op.operationId}-${sample.label.replace(/[^a-z]+/gi, '-')}.png`),
        });
      }
    },
  );

  it('the published page has no console and no reset: it has no sandbox behind it', async () => {
    const html = await page.content();
    expect(html).not.toContain('Try it against this sandbox');
    expect(html).not.toContain('Reset the sandbox');
    expect(await page.locator('form.mc-try-it, button.mc-reset').count()).toBe(0);
  });

  it('the introduction says what each variable of the samples is and where it comes from', async () => {
    await page.locator('.menu-content').getByText(samplesSectionTitle, { exact: true }).first().click();
    const heading = page.getByRole('heading', { name: samplesSectionTitle }).first();
    await heading.waitFor({ timeout: 10_000 });
    // The section: the nearest block around its heading that holds its list (Redoc 3 puts them in separate blocks).
    const text = await heading.evaluate((h, last) => {
      let node: HTMLElement | null = h.parentElement;
      while (node && !node.innerText.includes(last)) node = node.parentElement;
      const all = node?.innerText ?? '';
      return all.slice(all.indexOf((h as HTMLElement).innerText.trim()));
    }, `${sampleEnv.integratorToken}: `);
    for (const name of Object.values(sampleEnv)) expect(text, name).toContain(`${name}: `);
    for (const server of openapi.servers as Array<{ url: string }>) expect(text).toContain(server.url);
    expect(text).toContain('when the sandbox serves this page, the address of this page without its path');
    const fixtures = loadFixtures();
    for (const credential of [...fixtures.apiKeys.map((k) => k.key), ...fixtures.integratorTokens])
      expect(text).toContain(credential);
    await heading.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(resultsDir, 'docs-code-samples.png') });
  });

  it('shows the [contract decision] mark on a response the description does not list', async () => {
    await open('Threads', 'Close threads');
    await page.getByText('401', { exact: true }).first().click();
    const text = await page.locator('body').innerText();
    expect(text).toContain(
      'the code auth-error is [contract decision]: the description does not show how close threads authenticates',
    );
  });

  it("shows the changes of each version, with a link to this version's document", async () => {
    await page.getByText('Changes', { exact: true }).first().click();
    await page.getByRole('heading', { name: 'Changes' }).first().waitFor({ timeout: 10_000 });
    const text = await page.locator('body').innerText();
    // The newest version's section opens the changes: its first line is on the page.
    const newest = /\n## \d+\.\d+\.\d+\n+([^\n]+)/.exec(readFileSync(join(projectRoot, 'CHANGELOG.md'), 'utf8'))![1]!;
    expect(text).toContain(newest);
    // Maintainer material stays out: the release steps, the local server of `npm start`.
    expect(text).not.toContain('To release:');
    expect(await page.locator('body').innerText()).not.toContain('127.0.0.1:8080');
    // One "Errors" in the sidebar (the introduction used to have a heading of that name too).
    expect(await page.locator('.menu-content').getByText('Errors', { exact: true }).count()).toBe(1);
    const href = await page
      .getByRole('link', { name: /^openapi-\d+\.\d+\.\d+\.json$/ })
      .first()
      .getAttribute('href');
    expect(href).toMatch(/^openapi-\d+\.\d+\.\d+\.json$/);
    await page.screenshot({ path: join(resultsDir, 'docs-changes.png') });
  });

  it('search finds an error code and the operation that returns it', async () => {
    await page.getByText('Search', { exact: false }).first().click();
    const input = page.getByPlaceholder(/search/i).first();
    await input.fill('out-of-balance');
    const dialog = page.locator('[role=dialog], body').first();
    await page.getByText('out-of-balance', { exact: true }).first().waitFor({ timeout: 10_000 });
    expect(await dialog.innerText()).toContain('Schedule cascade message');
    await page.screenshot({ path: join(resultsDir, 'docs-search.png') });
    await page.keyboard.press('Escape');
  });

  it('links the bundled document beside it', async () => {
    await page.getByText('Messaging service API', { exact: true }).first().click();
    const href = await page.getByRole('link', { name: 'OpenAPI document (JSON)' }).first().getAttribute('href');
    expect(href).toMatch(/openapi\.json$/);
  });

  it('made no request outside itself', async () => {
    await page.screenshot({ path: join(resultsDir, 'docs.png') });
    expect(outside).toEqual([]);
  });
});
