// The docs page the sandbox serves tries requests against that same sandbox, in headless
// Chromium, with every request outside the sandbox's origin refused: nothing leaves the machine.
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './chromium.ts';
import { projectRoot } from '../../src/paths.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox/server.ts';

let browser: Browser;
let sandbox: Sandbox;
let url: string;
const outside: string[] = [];

beforeAll(async () => {
  sandbox = createSandbox();
  url = await sandbox.listen(0, '127.0.0.1');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
});

describe('try it on the docs page the sandbox serves', () => {
  it('sends a named example to this sandbox and shows the answer; nothing else is requested', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await context.route('**/*', (route) => {
      const target = route.request().url();
      if (target.startsWith(url) || target.startsWith('data:') || target.startsWith('blob:')) return route.continue();
      outside.push(target);
      return route.abort();
    });
    const page = await context.newPage();
    await page.goto(`${url}/`, { waitUntil: 'load' });
    await page.getByText('Try it against this sandbox').click();
    await page.locator('#try-it-example').selectOption({ label: 'POST /api/cascade/schedule: scheduled' });
    await page.locator('#try-it-key').fill('sandbox-api-key');
    for (const send of [1, 2]) {
      // A new requestId each time: the same example twice is accepted twice.
      await page.getByRole('button', { name: 'Send' }).click();
      await page
        .locator('#try-it-answer')
        .filter({ hasText: /^200\n/ })
        .waitFor({ timeout: 10_000 });
      expect(await page.locator('#try-it-answer').innerText(), `send ${send}`).toMatch(/"requestId": "[0-9a-f-]{36}"/);
    }
    await page.locator('#try-it-example').selectOption({ label: 'POST /api/v1/threads/close: resolved' });
    await page.locator('#try-it-token').fill('not-the-token');
    await page.getByRole('button', { name: 'Send' }).click();
    await page
      .locator('#try-it-answer')
      .filter({ hasText: /^401\n/ })
      .waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(projectRoot, 'test-results', 'docs-try-it.png') });
    expect(sandbox.state.usedRequestIds).toBeGreaterThanOrEqual(3); // the fixture's one and the two sends
    expect(outside).toEqual([]);
    await context.close();
  });
});
