import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeInBrowser } from '../helpers/browser.js';
import { createOperator, startConsole, type ConsoleServer, type Operator } from './harness.js';

describeInBrowser('signing in to the console in Chromium', () => {
  let c: ConsoleServer;
  let operator: Operator;

  before(async () => {
    c = await startConsole();
    // Text an operator's console shows must stay text: a name that would run script as markup.
    operator = await createOperator(c.t, { email: 'markup@example.com', first_name: '<img src=x onerror=alert(1)>', last_name: 'Ops' });
  });
  after(async () => { await c?.close(); });

  it('shows a wrong password in words with its code; signs in with the authenticator code; no refresh token reaches the page', async () => {
    const { page, problems, refusals } = await c.open();
    await page.getByLabel('Email').fill(operator.email);
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'LOGIN_FAILED' }).waitFor();
    await c.screenshot(page, 'sign-in-refused');

    const bodies: Array<Promise<string>> = [];
    page.on('response', (res) => { if (/\/(login\/email|refresh)\//.test(res.url())) bodies.push(res.text()); });
    await c.signIn(page, operator);
    await c.screenshot(page, 'signed-in');
    assert.equal(await page.locator('header .who strong').textContent(), '<img src=x onerror=alert(1)> Ops');
    assert.equal(await page.locator('header img').count(), 0, 'the name was rendered as markup');
    // The 2FA_REQUIRED step, the sign-in, then the reload's refresh below.
    await page.reload();
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    assert.equal(bodies.length, 3);
    for (const body of await Promise.all(bodies)) assert.equal((JSON.parse(body) as { refresh_token?: string }).refresh_token ?? null, null, body);
    const cookies = await page.context().cookies(c.origin);
    assert.ok(cookies.some((cookie) => cookie.httpOnly), 'the refresh token is kept in an HttpOnly cookie');
    assert.equal(await page.evaluate('document.cookie'), '', 'no cookie is readable by script');

    // The page has fetched what it shows: a call still to come after signing out would be refused (a 401 of its own).
    await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Gatehouse' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to Gatehouse' }).waitFor();
    await page.close();
    assert.deepEqual(problems, []);
    // LOGIN_FAILED, then 2FA_REQUIRED: the two refusals the page showed.
    assert.deepEqual(refusals, [401, 401]);
  });
});
