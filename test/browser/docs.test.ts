import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { describeInBrowser, launchChromium } from '../helpers/browser.js';
import { useTestApp } from '../helpers/test-app.js';

const PREFIX = '/api/v1/auth/';

/** Swagger UI's block for one operation, found by method and path. */
const operationBlock = (page: Page, method: string, path: string) =>
  page.locator(`.opblock.opblock-${method}`, { has: page.locator(`.opblock-summary-path[data-path="${PREFIX}${path}"]`) });

describeInBrowser('interactive API references in Chromium', () => {
  let browser: Browser;
  let base: string;
  let page: Page;
  let pageErrors: string[];

  // Registered before the app, so the browser closes first (after hooks run in the order they are registered).
  after(async () => { await browser?.close(); });
  const t = useTestApp({ reset: false });
  before(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${PREFIX}`;
    browser = await launchChromium();
  });

  const open = async (path: string) => {
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
    pageErrors = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    // The references run without a prompt: one would hold the page until answered.
    page.on('dialog', (dialog) => { pageErrors.push(`unexpected ${dialog.type()}: ${dialog.message()}`); void dialog.dismiss(); });
    const res = await page.goto(`${base}${path}`);
    assert.equal(res?.status(), 200);
  };
  const closePage = async () => {
    await page.close();
    assert.deepEqual(pageErrors, []);
  };

  it('docs/ opens Swagger UI without credentials and lists the operations', async () => {
    await open('docs/');
    await operationBlock(page, 'post', 'login/email/').waitFor();
    await operationBlock(page, 'get', 'password/requirements/').waitFor();
    await closePage();
  });

  it('docs/redoc/ opens ReDoc without credentials and lists the operations', async () => {
    await open('docs/redoc/');
    // ReDoc names each operation's section after its tag, path and method.
    const loginEmail = `tag/auth/paths/${`${PREFIX}login/email/`.replaceAll('/', '~1')}/post`;
    await page.locator(`[data-section-id="${loginEmail}"]`).waitFor();
    await page.getByText('Gatehouse API', { exact: false }).first().waitFor();
    await closePage();
  });

  it('Authorize with the application key and secret, then "Try it out" on GET password/requirements/ answers 200', async () => {
    await open('docs/');
    const block = operationBlock(page, 'get', 'password/requirements/');
    await block.waitFor();

    await page.locator('.auth-wrapper button.authorize').click();
    for (const [scheme, value] of [['X-Access-Key', t.credentials.access_key], ['X-Access-Secret', t.credentials.access_secret]] as const) {
      const form = page.locator('.auth-container', { has: page.locator('h4', { hasText: scheme }) });
      await form.locator('input').fill(value);
      await form.locator('button.authorize').click();
      // Authorized: the form now offers to log out instead.
      await form.locator('button', { hasText: 'Logout' }).waitFor();
    }
    await page.locator('.dialog-ux button.btn-done').first().click();
    await page.locator('.dialog-ux').waitFor({ state: 'detached' });

    await block.locator('.opblock-summary').click();
    await block.locator('button.try-out__btn').click();
    const answer = page.waitForResponse((res) => res.url().endsWith(`${PREFIX}password/requirements/`));
    await block.locator('button.execute').click();
    const response = await answer;
    assert.equal(response.status(), 200);
    const sent = await response.request().allHeaders();
    assert.equal(sent['x-access-key'], t.credentials.access_key);
    assert.equal(sent['x-access-secret'], t.credentials.access_secret);

    // Swagger UI renders the live answer: its status, and the body the server sent.
    const live = block.locator('.live-responses-table .response');
    await live.locator('.response-col_status', { hasText: '200' }).waitFor();
    await live.locator('.response-col_description', { hasText: 'min_length' }).waitFor();
    await closePage();
  });
});
