import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Page } from 'playwright-core';
import { describeInBrowser } from '../helpers/browser.js';
import { PHONE, startConsole, type ConsoleServer } from './harness.js';

describeInBrowser('the console\'s Applications page in Chromium', () => {
  let c: ConsoleServer;

  before(async () => { c = await startConsole(); });
  after(async () => { await c?.close(); });

  /** The code of `GET me/` with these application credentials and no user token: 401 either way, but not APP_AUTH_INVALID when they hold. */
  const appAuthCode = async (key: string, secret: string) => {
    const res = await c.t.api({ method: 'GET', path: 'me/', appAuth: false, headers: { 'x-access-key': key, 'x-access-secret': secret } });
    return (res.json() as { code?: string }).code;
  };
  const secretOf = async (page: Page) => (await page.getByLabel('Access secret', { exact: true }).textContent())!;
  const keyOf = async (page: Page) => (await page.getByLabel('Access key', { exact: true }).textContent())!;

  it('creates a confidential application, shows its secret once, regenerates it, and shows a bad redirect URI in words', async () => {
    const { page, problems, refusals } = await c.signedIn({ hash: '#/applications' });
    await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
    // The console's own application is marked.
    const consoleRow = page.getByRole('row').filter({ hasText: 'Gatehouse Console' });
    await consoleRow.getByText('this console').waitFor();

    await page.getByRole('button', { name: 'New application' }).click();
    const form = page.getByRole('region', { name: 'New application' });
    await form.getByLabel('Name').fill('Billing backend');
    await form.getByLabel('Description').fill('Invoices <b>and</b> receipts');
    await form.getByLabel('Kind').selectOption('confidential');
    await form.getByLabel('Redirect URIs', { exact: true }).fill('https://billing.example.com/callback\n\n  https://billing.example.com/magic  \n');
    await form.getByLabel('Post-logout redirect URIs').fill('https://billing.example.com/signed-out');
    await form.getByLabel('Allowed origins').fill('https://billing.example.com');
    await form.getByRole('button', { name: 'Create application' }).click();
    await page.getByRole('heading', { name: 'Credentials of Billing backend' }).waitFor();
    await page.getByText('Save it now').waitFor();
    const key = await keyOf(page);
    const secret = await secretOf(page);
    await c.screenshot(page, 'applications-created-secret');

    const row = await c.t.container.db.selectFrom('applications').selectAll().where('access_key', '=', key).executeTakeFirstOrThrow();
    assert.deepEqual([row.name, row.kind, row.description, row.redirect_uris, row.allowed_origins], ['Billing backend', 'confidential',
      'Invoices <b>and</b> receipts', ['https://billing.example.com/callback', 'https://billing.example.com/magic'], ['https://billing.example.com']]);
    assert.deepEqual(row.post_logout_redirect_uris, ['https://billing.example.com/signed-out'], 'the OAuth sign-out address is kept');
    assert.notEqual(await appAuthCode(key, secret), 'APP_AUTH_INVALID');
    assert.equal(await appAuthCode(key, 'not-the-secret'), 'APP_AUTH_INVALID');

    // Leaving the page and coming back: the secret is not shown again.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Applications', exact: true }).click();
    await page.getByRole('link', { name: 'Billing backend' }).waitFor();
    assert.equal(await page.locator('.secret').count(), 0);
    assert.ok(!(await page.content()).includes(secret), 'the secret is still in the page');
    await c.screenshot(page, 'applications-list');

    // Regenerate: the old secret is refused, the new one works.
    await page.getByRole('link', { name: 'Billing backend' }).click();
    await page.getByRole('heading', { name: 'Billing backend' }).waitFor();
    await page.getByRole('button', { name: 'Regenerate credentials' }).click();
    await page.getByRole('button', { name: 'Yes, regenerate' }).click();
    await page.getByRole('heading', { name: 'New credentials' }).waitFor();
    const [newKey, newSecret] = [await keyOf(page), await secretOf(page)];
    assert.notEqual(newSecret, secret);
    assert.equal(await appAuthCode(key, secret), 'APP_AUTH_INVALID');
    assert.equal(await appAuthCode(newKey, secret), 'APP_AUTH_INVALID');
    assert.notEqual(await appAuthCode(newKey, newSecret), 'APP_AUTH_INVALID');
    await page.getByRole('button', { name: 'I have saved it' }).click();
    assert.equal(await page.locator('.secret').count(), 0);

    // A bad redirect URI: the API's 400 in words, next to the form; nothing is saved.
    await page.getByLabel('Redirect URIs', { exact: true }).fill('https://billing.example.com/callback\nbilling.example.com/no-scheme');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('alert').filter({ hasText: 'VALIDATION_ERROR' }).waitFor();
    const problemsList = page.getByRole('list', { name: 'Problems with the form' });
    assert.match((await problemsList.textContent())!, /Redirect URIs:.*billing\.example\.com\/no-scheme is not an absolute http\(s\) URL/);
    await c.screenshot(page, 'applications-detail-invalid');
    const unchanged = await c.t.container.db.selectFrom('applications').select('redirect_uris').where('id', '=', row.id).executeTakeFirstOrThrow();
    assert.deepEqual(unchanged.redirect_uris, ['https://billing.example.com/callback', 'https://billing.example.com/magic']);

    // A good edit is saved.
    await page.getByLabel('Redirect URIs', { exact: true }).fill('https://billing.example.com/callback');
    await page.getByLabel('Name').fill('Billing service');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const saved = await c.t.container.db.selectFrom('applications').select(['name', 'redirect_uris']).where('id', '=', row.id).executeTakeFirstOrThrow();
    assert.deepEqual([saved.name, saved.redirect_uris], ['Billing service', ['https://billing.example.com/callback']]);
    await page.close();
    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, [401, 400]);
  });

  it('warns before the console\'s own application is switched off, and deletes another after an inline confirmation', async () => {
    const { page, problems } = await c.signedIn({ hash: '#/applications', viewport: PHONE });
    await page.getByRole('link', { name: 'Gatehouse Console' }).click();
    await page.getByText('This is the console\'s own application.').waitFor();
    await page.getByLabel('Active').uncheck();
    await page.getByRole('alert').filter({ hasText: 'locks every operator out' }).waitFor();
    await c.screenshot(page, 'applications-console-phone');
    const width = await page.evaluate('document.documentElement.scrollWidth') as number;
    assert.ok(width <= PHONE.width, `the detail is ${width}px wide`);

    await page.getByRole('link', { name: 'All applications' }).click();
    await page.getByRole('link', { name: 'Billing service' }).click();
    await page.getByRole('button', { name: 'Delete application' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByRole('caption').filter({ hasText: 'Applications' }).waitFor();
    const left = await c.t.container.db.selectFrom('applications').select('name').where('name', '=', 'Billing service').execute();
    assert.deepEqual(left, []);
    await page.close();
    assert.deepEqual(problems, []);
  });
});
