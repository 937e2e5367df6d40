// The docs page the sandbox serves tries requests against that same sandbox, in headless
// Chromium, with every request outside the sandbox's origin refused: nothing leaves the machine.
// The console sits under each operation's request samples, follows the page's light and dark
// modes, names the default credentials as help (the fields start empty), and shows the answer with
// its status and headers. Under each example, a note says what it answers on a fresh sandbox and sent
// again; a button resets the sandbox. Screenshots in test-results/.
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './chromium.ts';
import { projectRoot } from '../../src/paths.ts';
import { resolvePointer } from '../../src/core/document.ts';
import { documentOperations, examplePair, examplePairs } from '../../src/core/examples.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox/server.ts';
import { consoleOperations } from '../../src/sandbox/try-it.ts';
import { judgeTraffic } from '../../src/conformance/traffic/run.ts';
import { trafficSummary } from '../../src/conformance/report.ts';

let browser: Browser;
let sandbox: Sandbox;
let url: string;
const outside: string[] = [];
const shot = (name: string) => join(projectRoot, 'test-results', name);

beforeAll(async () => {
  sandbox = createSandbox();
  url = await sandbox.listen(0, '127.0.0.1');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
});

async function openPage(colorScheme: 'light' | 'dark', har?: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: 1400, height: 1000 },
    colorScheme,
    ...(har ? { recordHar: { path: har, content: 'embed' as const } } : {}),
  });
  await context.route('**/*', (route) => {
    const target = route.request().url();
    if (target.startsWith(url) || target.startsWith('data:') || target.startsWith('blob:')) return route.continue();
    outside.push(target);
    return route.abort();
  });
  const page = await context.newPage();
  await page.goto(`${url}/`, { waitUntil: 'load' });
  await page.getByRole('heading', { name: 'Messaging service API' }).waitFor({ timeout: 20_000 });
  return { context, page };
}

/** Opens an operation from the sidebar and returns its console. */
async function consoleOf(page: Page, tag: string, summary: string, operationId: string) {
  await page.getByText(tag, { exact: true }).first().click();
  await page.getByText(summary, { exact: true }).first().click();
  const form = page.locator(`form.mc-try-it[data-operation="${operationId}"]`);
  await form.waitFor({ timeout: 10_000 });
  await form.scrollIntoViewIfNeeded();
  return form;
}

describe('try it on the docs page the sandbox serves', () => {
  it('sits under the operation, names the default credentials as help, and shows the answer with status and headers', async () => {
    // The session is recorded as a HAR file, as a user saves one from the browser, and judged below.
    const har = join(projectRoot, 'test-results', 'docs-try-it.har');
    const { context, page } = await openPage('light', har);
    const form = await consoleOf(page, 'Cascades', 'Schedule cascade message', 'scheduleCascade');
    // In the page's flow, right under the operation's request samples: not a box floating over the page.
    const placed = await form.evaluate((el) => {
      const samples = el.previousElementSibling?.querySelector('.panel-request-samples') ?? el.previousElementSibling;
      const box = el.getBoundingClientRect();
      const above = samples?.getBoundingClientRect();
      let fixed = false;
      for (let node: Element | null = el; node; node = node.parentElement)
        if (getComputedStyle(node).position === 'fixed') fixed = true;
      return {
        fixed,
        under: !!above && box.top >= above.bottom && Math.abs(box.left - above.left) < 2,
        font: getComputedStyle(el).fontFamily === getComputedStyle(document.body).fontFamily,
      };
    });
    expect(placed).toEqual({ fixed: false, under: true, font: true });
    // The credential starts empty, with no placeholder that looks filled; the default is help text.
    const key = form.locator('input[name=key]');
    expect(await key.inputValue()).toBe('');
    expect(await key.getAttribute('placeholder')).toBeNull();
    expect(await form.locator('.mc-help').first().innerText()).toContain('With the default fixtures: sandbox-api-key');
    await form.locator('select[name=example]').selectOption({ label: 'scheduled (200)' });
    await key.fill('sandbox-api-key');
    for (const send of [1, 2]) {
      // A new requestId each time: the same example twice is accepted twice.
      await form.getByRole('button', { name: /^Send POST/ }).click();
      await form
        .locator('.mc-status')
        .filter({ hasText: /^200 OK/ })
        .waitFor({ timeout: 10_000 });
      expect(await form.locator('.mc-body').innerText(), `send ${send}`).toMatch(/"requestId": "[0-9a-f-]{36}"/);
    }
    expect(await form.locator('.mc-headers').innerText()).toMatch(/^content-type: application\/json/m);
    await form.screenshot({ path: shot('docs-try-it.png') });
    await page.screenshot({ path: shot('docs-try-it-page.png') });

    // Another operation has its own console, with the credential it needs.
    const close = await consoleOf(page, 'Threads', 'Close threads', 'closeThreads');
    expect(await close.locator('input[name=key]').count()).toBe(0);
    expect(await close.locator('.mc-help').innerText()).toContain('sandbox-integrator-token');
    await close.locator('select[name=example]').selectOption({ label: 'resolved (200)' });
    await close.locator('input[name=token]').fill('not-the-token');
    await close.getByRole('button', { name: /^Send POST/ }).click();
    await close.locator('.mc-status').filter({ hasText: /^401 / }).waitFor({ timeout: 10_000 });
    expect(await close.locator('.mc-status').getAttribute('data-ok')).toBe('false');
    expect(await close.locator('.mc-body').innerText()).toContain('"title": "auth-error"');
    expect(sandbox.state.usedRequestIds).toBeGreaterThanOrEqual(3); // the fixture's one and the two sends
    await context.close();

    // The browser's HAR of the session, judged as `messaging-conformance traffic session.har --judge both` does: the
    // three sends are the API's and all allowed; the page, its script and the document are outside its paths.
    const { report, judge } = await judgeTraffic([har], { judge: 'both' });
    expect(report.ok, trafficSummary(report, judge)).toBe(true);
    expect(report.traffic.service.judged).toBe(3);
    expect(report.traffic.outside).toBeGreaterThan(0);
  });

  it("picking each named example on each operation sends what it needs and shows the example's status", async () => {
    const { context, page } = await openPage('light');
    const mismatches: string[] = [];
    let pairs = 0;
    for (const op of documentOperations()) {
      const item = resolvePointer(op.pointer) as { tags: string[]; summary: string };
      const form = await consoleOf(page, item.tags[0]!, item.summary, op.operationId);
      // A reader types the default credentials once, as the help says.
      for (const [field, value] of [
        ['key', 'sandbox-api-key'],
        ['token', 'sandbox-integrator-token'],
      ] as const)
        if (await form.locator(`input[name=${field}]`).count()) await form.locator(`input[name=${field}]`).fill(value);
      const select = form.locator('select[name=example]');
      const examples = examplePairs().filter((p) => p.operation.operationId === op.operationId);
      expect(await select.locator('option').count()).toBe(examples.length);
      for (const [i, example] of examples.entries()) {
        sandbox.reset(); // each example from the fixtures' state, as the conformance suite's reset hook does
        await select.selectOption(String(i));
        const status = form.locator('.mc-status');
        await status.evaluate((el) => {
          el.textContent = '';
        });
        await form.locator('button[type=submit]').click();
        await status.filter({ hasText: /^(\d{3} |no answer)/ }).waitFor({ timeout: 10_000 });
        const shown = await status.innerText();
        pairs++;
        if (!shown.startsWith(`${example.status} `))
          mismatches.push(`${op.operationId} ${example.name}: expected ${example.status}, shown ${shown}`);
        // The body shown is the body sent: a fresh requestId is written into it.
        if (
          typeof (example.requestBody as { requestId?: unknown } | undefined)?.requestId === 'string' &&
          !example.trigger.rawBody
        )
          expect(await form.locator('textarea[name=body]').inputValue()).not.toContain(
            `"requestId": "${(example.requestBody as { requestId: string }).requestId}"`,
          );
      }
    }
    expect(mismatches).toEqual([]);
    expect(pairs).toBe(examplePairs().length);
    await context.close();
  }, 180_000);

  it('"created" sent twice answers 400, as its note says; the reset button resets the sandbox, and it answers 200 again', async () => {
    sandbox.reset();
    const { context, page } = await openPage('light');
    const form = await consoleOf(page, 'Subscribers', 'Create subscriber', 'createSubscriber');
    // The samples above read BASE_URL: the console says what it is here.
    expect(await form.locator('.mc-samples-env').innerText()).toBe(
      `The code samples above run against this sandbox with BASE_URL=${url} and the credentials named below.`,
    );
    await form.locator('input[name=key]').fill('sandbox-api-key');
    await form.locator('select[name=example]').selectOption({ label: 'created (200)' });
    // The note the console worked out (its words are pinned in test/docs-samples.test.ts), shown as is.
    const example = consoleOperations()
      .find((op) => op.id === 'createSubscriber')!
      .examples.find((ex) => ex.name === 'created')!;
    if (example.again.kind !== 'other') throw new Error('"created" sent again should answer otherwise');
    expect(await form.locator('.mc-note').innerText()).toBe(example.note);
    const status = form.locator('.mc-status');
    const send = async (expected: RegExp) => {
      await status.evaluate((el) => {
        el.textContent = '';
      });
      await form.getByRole('button', { name: /^Send POST/ }).click();
      await status.filter({ hasText: /^(\d{3} |no answer)/ }).waitFor({ timeout: 10_000 });
      expect(await status.innerText()).toMatch(expected);
    };
    const created = (examplePair('createSubscriber', 'created').requestBody as { addresses: { address: string }[] })
      .addresses[0]!.address;
    await send(/^200 /);
    expect(sandbox.snapshot().subscribers).toContain(created);
    await send(/^400 /);
    expect(await form.locator('.mc-body').innerText()).toContain(`"title": "${example.again.title}"`);

    const reset = form.getByRole('button', { name: 'Reset the sandbox' });
    await reset.click();
    const done = form.getByRole('status');
    await done.filter({ hasText: /^The (sandbox is reset|reset failed)/ }).waitFor({ timeout: 10_000 });
    expect(await done.innerText()).toBe(
      'The sandbox is reset: back to its fixtures, as fresh. Each example answers as its note says.',
    );
    expect(sandbox.snapshot().subscribers).not.toContain(created);
    expect(await form.locator('.mc-answer').isHidden(), 'the answer from before the reset goes').toBe(true);
    await form.screenshot({ path: shot('docs-try-it-reset.png') });
    await send(/^200 /);
    expect(await done.innerText()).toBe(''); // the reset's message goes with the next send
    await context.close();
  });

  it("follows the page's dark mode", async () => {
    const colors: Record<string, string> = {};
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } = await openPage(scheme);
      const form = await consoleOf(page, 'Cascades', 'Schedule cascade message', 'scheduleCascade');
      // The console's background is the samples panel's, whichever mode the page is in.
      const [own, panel] = await form.evaluate((el) => {
        const samples = el.previousElementSibling?.querySelector('.panel-request-samples') ?? el.previousElementSibling;
        return [getComputedStyle(el).backgroundColor, samples ? getComputedStyle(samples).backgroundColor : ''];
      });
      expect(own, scheme).toBe(panel);
      colors[scheme] = own;
      await form.screenshot({ path: shot(`docs-try-it-${scheme}.png`) });
      await context.close();
    }
    expect(colors.dark).not.toBe(colors.light);
  });

  it('asked for nothing outside the sandbox', () => {
    expect(outside).toEqual([]);
  });
});
