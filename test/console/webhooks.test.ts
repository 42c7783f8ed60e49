import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeInBrowser } from '../helpers/browser.js';
import { WebhookReceiver } from '../http/webhooks/receiver.js';
import { PHONE, startConsole, type ConsoleServer } from './harness.js';

describeInBrowser('the console\'s Webhooks page in Chromium', () => {
  let c: ConsoleServer;
  let receiver: WebhookReceiver;

  before(async () => {
    receiver = await new WebhookReceiver().start();
    c = await startConsole({ env: { SVC_WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
  });
  after(async () => {
    await c?.t.container.services.webhookDelivery.flush();
    await c?.close();
    await receiver?.stop();
  });

  it('creates a webhook with its secret shown once, sends a test that the receiver verifies, lists and replays the delivery', async () => {
    const { page, problems } = await c.signedIn({ hash: '#/webhooks' });
    await page.getByRole('button', { name: 'New webhook' }).click();
    const form = page.getByRole('region', { name: 'New webhook' });
    await form.getByLabel('URL').fill(receiver.url);
    await form.getByLabel('Description').fill('CRM sync <b>prod</b>');
    await form.getByLabel('user.created').check();
    await form.getByLabel('user.locked').check();
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('heading', { name: 'Signing secret of the new webhook' }).waitFor();
    await page.getByText('Save it now').waitFor();
    const secret = (await page.getByLabel('Signing secret', { exact: true }).textContent())!;
    assert.match(secret, /^whsec_/);
    await c.screenshot(page, 'webhooks-created-secret');

    const [row] = await c.t.container.db.selectFrom('webhooks').select(['id', 'url', 'events', 'is_active', 'description']).execute();
    assert.deepEqual([row!.url, row!.events, row!.is_active, row!.description],
      [receiver.url, ['user.created', 'user.locked'], true, 'CRM sync <b>prod</b>']);
    const table = page.getByRole('table', { name: 'Webhooks' });
    await table.getByRole('cell', { name: 'user.created, user.locked' }).waitFor();
    await c.screenshot(page, 'webhooks-list');

    // The detail: the secret is not shown there; a test event is delivered and listed.
    await table.getByRole('link', { name: receiver.url }).click();
    await page.getByRole('heading', { level: 2, name: receiver.url }).waitFor();
    assert.equal(await page.locator('.secret').count(), 0);
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page.getByRole('status').filter({ hasText: 'A test event was queued' }).waitFor();
    await c.t.container.services.webhookDelivery.flush();
    const deliveries = page.getByRole('table', { name: 'Deliveries of this webhook' });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await deliveries.getByText('delivered', { exact: true }).waitFor();
    const [ping] = receiver.events(secret, 'webhook.test');
    assert.ok(ping, 'the receiver verified the test event with the secret the page showed');

    // Replay: a new delivery of the same event.
    const [delivery] = await c.t.container.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', row!.id).execute();
    await deliveries.getByRole('button', { name: `Replay delivery ${delivery!.id}` }).click();
    await page.getByRole('status').filter({ hasText: `Delivery ${delivery!.id} replayed.` }).waitFor();
    await deliveries.getByText(`(replay of ${delivery!.id})`).waitFor();
    await c.t.container.services.webhookDelivery.flush();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await deliveries.getByText('delivered', { exact: true }).nth(1).waitFor();
    const pings = receiver.events(secret, 'webhook.test');
    assert.deepEqual([pings.length, pings[1]?.id], [2, ping.id], 'the replay carries the same webhook-id');
    await c.screenshot(page, 'webhooks-detail');

    // Edit: one event fewer, switched off.
    await page.getByRole('region', { name: 'Settings' }).getByLabel('user.locked').uncheck();
    await page.getByRole('region', { name: 'Settings' }).getByLabel('Active').uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const saved = await c.t.container.db.selectFrom('webhooks').select(['events', 'is_active']).where('id', '=', row!.id).executeTakeFirstOrThrow();
    assert.deepEqual([saved.events, saved.is_active], [['user.created'], false]);
    await page.close();
    assert.deepEqual(problems, []);
  });

  it('refuses a webhook without events in words, fits a phone, and deletes after an inline confirmation', async () => {
    const { page, problems, refusals } = await c.signedIn({ hash: '#/webhooks', viewport: PHONE });
    await page.getByRole('button', { name: 'New webhook' }).click();
    const form = page.getByRole('region', { name: 'New webhook' });
    await form.getByLabel('URL').fill('ftp://files.example.com/hook');
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await form.getByRole('alert').filter({ hasText: 'VALIDATION_ERROR' }).waitFor();
    await form.getByRole('list', { name: 'Problems with the form' }).getByText('Events:').waitFor();
    const width = await page.evaluate('document.documentElement.scrollWidth') as number;
    assert.ok(width <= PHONE.width, `the form is ${width}px wide`);
    await c.screenshot(page, 'webhooks-invalid-phone');
    await form.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('table', { name: 'Webhooks' }).getByRole('link', { name: receiver.url }).click();
    await page.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByRole('table', { name: 'Webhooks' }).getByText('No webhook yet.').waitFor();
    assert.deepEqual(await c.t.container.db.selectFrom('webhooks').select('id').execute(), []);
    await page.close();
    assert.deepEqual(problems, []);
    assert.deepEqual(refusals, [401, 400]);
  });
});
