import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createUser, userRow } from '../factories/users.js';
import { describeInBrowser } from '../helpers/browser.js';
import { requestAndConfirm, requestDeletion } from '../http/deletion/helpers.js';
import { PHONE, startConsole, type ConsoleServer } from './harness.js';

describeInBrowser('the console\'s Deletion requests page in Chromium', () => {
  let c: ConsoleServer;

  before(async () => { c = await startConsole(); });
  after(async () => { await c?.close(); });

  /** A member's account, signed in through the API: what asking for one's own deletion needs. */
  async function member(email: string, first_name: string) {
    const user = await createUser(c.t, { email, first_name, last_name: 'Member' });
    const res = await c.t.api({ method: 'POST', path: 'login/email/', payload: { email, password: user.password } });
    assert.equal(res.statusCode, 200, res.body);
    return { ...user, token: (res.json() as { access_token: string }).access_token };
  }

  const requestOf = (userId: number) => c.t.container.db.selectFrom('account_deletion_requests').selectAll()
    .where('user_id', '=', userId).executeTakeFirstOrThrow();

  it('filters the list, processes a confirmed request with the phrase and notes, and shows an unconfirmed one refused', async () => {
    const dana = await member('dana@example.com', 'Dana');
    await requestAndConfirm(c.t, dana);
    const eli = await member('eli@example.com', 'Eli');
    await requestDeletion(c.t, eli, { reason: '<img src=x onerror=alert(1)>' });

    const { page, problems, refusals } = await c.signedIn({ hash: '#/deletions' });
    await page.getByRole('heading', { level: 1, name: 'Deletion requests' }).waitFor();
    const table = page.getByRole('table', { name: 'Deletion requests' });
    await table.getByText('dana@example.com').waitFor();
    await table.getByText('eli@example.com').waitFor();
    await c.screenshot(page, 'deletions-list');
    await page.getByLabel('Status').selectOption('confirmed');
    await table.getByText('eli@example.com').waitFor({ state: 'detached' });
    await table.getByText('dana@example.com').waitFor();
    await page.getByText('Page 1 of 1 · 1 in all').waitFor();
    // A user id that is no number is said in the page, not sent.
    await page.getByLabel('User id').fill('dana');
    await page.getByRole('alert').filter({ hasText: 'User id: a positive whole number is needed.' }).waitFor();
    await page.getByLabel('User id').fill(String(dana.id));
    await table.getByText('dana@example.com').waitFor();

    const danaRequest = await requestOf(dana.id);
    await table.getByRole('link', { name: `#${danaRequest.id}` }).click();
    await page.getByRole('heading', { name: `Request #${danaRequest.id}` }).waitFor();
    const process = page.getByRole('button', { name: 'Process deletion' });
    assert.equal(await process.isDisabled(), true, 'processing waits for the phrase');
    await page.getByLabel('Confirmation phrase').fill('PERMANENTLY DELETE');
    await page.getByLabel('Admin notes').fill('Asked again by email on the 3rd; identity checked.');
    await c.screenshot(page, 'deletions-process');
    await process.click();
    await page.getByRole('heading', { name: 'Processed' }).waitFor();
    await page.getByText('Account deleted: its personal data is anonymized').waitFor();
    await c.screenshot(page, 'deletions-processed');
    const done = await requestOf(dana.id);
    assert.equal(done.status, 'completed');
    assert.equal(done.admin_notes, 'Asked again by email on the 3rd; identity checked.');
    assert.equal(done.processed_by, c.operator.id);
    const gone = await userRow(c.t, dana.id);
    assert.notEqual(gone.deleted_at, null);
    assert.notEqual(gone.email, 'dana@example.com');
    assert.notEqual(gone.first_name, 'Dana');

    // Eli never confirmed: the server refuses, in words, and nothing changes. His reason stays text.
    const eliRequest = await requestOf(eli.id);
    await page.goto(`${c.origin}/console/#/deletions/${eliRequest.id}`);
    await page.getByText('<img src=x onerror=alert(1)>').waitFor();
    assert.equal(await page.locator('main img').count(), 0);
    await page.getByLabel('Confirmation phrase').fill('PERMANENTLY DELETE');
    await page.getByRole('button', { name: 'Process deletion' }).click();
    await page.getByRole('alert').filter({ hasText: 'REQUEST_NOT_CONFIRMED' }).waitFor();
    await c.screenshot(page, 'deletions-not-confirmed');
    assert.equal((await requestOf(eli.id)).status, 'confirmation_sent');
    assert.equal((await userRow(c.t, eli.id)).deleted_at, null);
    await page.close();
    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, [401, 400]);
  });

  it('processes the expired requests after asking, at a phone\'s width', async () => {
    const finn = await member('finn@example.com', 'Finn');
    await requestAndConfirm(c.t, finn);
    c.t.clock.advance(31 * 86_400);
    const { page, problems, refusals } = await c.signedIn({ viewport: PHONE, hash: '#/deletions' });
    await page.getByRole('table', { name: 'Deletion requests' }).getByText('finn@example.com').waitFor();
    await page.getByLabel('Grace period', { exact: true }).selectOption('true');
    await page.getByText('Page 1 of 1 · 1 in all').waitFor();
    await page.getByRole('button', { name: 'Process expired requests' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await requestOf(finn.id)).status, 'confirmed');
    await page.getByRole('button', { name: 'Process expired requests' }).click();
    await page.getByRole('button', { name: 'Yes, process them' }).click();
    await page.getByRole('status').filter({ hasText: 'Completed: 1 · failed: 0' }).waitFor();
    await c.screenshot(page, 'deletions-phone');
    assert.equal((await requestOf(finn.id)).status, 'completed');
    assert.notEqual((await userRow(c.t, finn.id)).deleted_at, null);
    await page.close();
    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, [401]);
  });
});
