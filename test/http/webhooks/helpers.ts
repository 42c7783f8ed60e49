import { createTestApp, type TestApp, type TestAppOptions } from '../../helpers/test-app.js';
import { account, type Account } from '../../factories/accounts.js';
import { expectStatus } from '../../helpers/answers.js';
import { WEBHOOK_EVENTS } from '../../../src/modules/webhooks/events.js';
import { WebhookReceiver } from './receiver.js';

export { account, type Account } from '../../factories/accounts.js';
export { expectStatus } from '../../helpers/answers.js';

/** Every event type but the ping. */
export const ALL_EVENTS = WEBHOOK_EVENTS.filter((e) => e !== 'webhook.test');

/** An administrator holding `webhooks.manage` through the seeded `admin` role (no staff flag, so no 2FA gate). */
export const webhookAdmin = (t: TestApp, email = 'admin@example.com'): Promise<Account> => account(t, { email, roles: ['admin'] });

/** A webhook created through the API for `receiver`; answers the creation body (with the secret, shown this once). */
export async function createWebhook(t: TestApp, admin: Account, receiver: WebhookReceiver, events: readonly string[] = ALL_EVENTS,
  extra: object = {}) {
  const res = await t.api({ method: 'POST', path: 'webhooks/', token: admin.token,
    payload: { url: receiver.url, events, description: 'test receiver', ...extra } });
  return expectStatus(res, 201) as { webhook: { id: number; url: string }; secret: string; message: string; warning: string };
}

/** One delivery pass, as the `webhooks` job runs it. */
export const deliver = (t: TestApp) => t.container.services.webhookDelivery.flush();

/** The stored deliveries of a webhook, oldest first. */
export const deliveryRows = (t: TestApp, webhookId?: number) => {
  let q = t.container.db.selectFrom('webhook_deliveries').selectAll().orderBy('id');
  if (webhookId !== undefined) q = q.where('webhook_id', '=', webhookId);
  return q.execute();
};

/** A receiver on loopback and a test application beside it. */
export async function startReceiving(opts: TestAppOptions = {}): Promise<{ t: TestApp; receiver: WebhookReceiver }> {
  const receiver = await new WebhookReceiver().start();
  return { t: await createTestApp(opts), receiver };
}

/** Delivers what is left (so no pass outlives the database), then closes the application and the receiver. */
export async function stopReceiving(t: TestApp, receiver: WebhookReceiver): Promise<void> {
  await deliver(t);
  await t.close();
  await receiver.stop();
}

/**
 * A clean database and receiver, with the webhooks administrator. Receivers check webhook-timestamp against their own
 * clock (5 minutes of tolerance): the test clock starts at now.
 */
export async function freshStart(t: TestApp, receiver: WebhookReceiver): Promise<Account> {
  t.clock.set(new Date());
  await t.reset();
  if (!receiver.listening) await receiver.start(); // a test that failed during an outage does not take the next ones down
  receiver.requests = [];
  receiver.status = 204;
  receiver.delayMs = 0;
  return webhookAdmin(t);
}
