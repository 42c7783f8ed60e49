import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { JOBS } from '../../../src/jobs/registry.js';
import { MAX_ATTEMPTS } from '../../../src/modules/webhooks/delivery.service.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { NOT_FOUND } from '../../helpers/answers.js';
import {
  account, type Account, createWebhook, deliver, deliveryRows, expectStatus, freshStart, startReceiving, stopReceiving,
} from './helpers.js';
import { WebhookReceiver } from './receiver.js';

/** docs/webhooks.md: delivery, retries with backoff, the deliveries list, replay, the ping, and the guard at delivery. */
describe('webhook delivery', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let admin: Account;
  let secret: string;
  let webhookId: number;

  before(async () => { ({ t, receiver } = await startReceiving()); });
  after(() => stopReceiving(t, receiver));
  beforeEach(async () => {
    admin = await freshStart(t, receiver);
    const created = await createWebhook(t, admin, receiver, ['user.created', 'user.banned']);
    secret = created.secret;
    webhookId = created.webhook.id;
  });

  const api = (method: 'GET' | 'POST', path: string, payload?: object) =>
    t.api({ method, path, token: admin.token, ...(payload ? { payload } : {}) });
  const deliveries = async (query = '') => expectStatus(await api('GET', `webhooks/${webhookId}/deliveries/${query}`), 200);

  it('retries after a receiver that answers 500, with backoff, and the event arrives once it is back, same webhook-id', async () => {
    receiver.status = 500;
    const ann = await account(t, { email: 'ann@example.com' });
    // A pass also starts on its own right after the commit: states are asserted, not which pass made them.
    await deliver(t);
    const [first] = (await deliveries()).results;
    assert.deepEqual({ ...first, id: 0, event_id: '', created_at: '', payload: null, attempt_history: null }, { id: 0,
      webhook_id: webhookId, event_id: '', type: 'user.created', status: 'pending', attempts: 1,
      next_attempt_at: new Date(t.clock.now().getTime() + 10_000).toISOString(), last_status_code: 500, last_error: 'HTTP 500',
      replay_of: null, created_at: '', delivered_at: null, payload: null, attempt_history: null });
    // Not due yet: nothing is sent.
    assert.deepEqual(await deliver(t), { delivered: 0, retried: 0, failed: 0 });
    assert.equal(receiver.requests.length, 1);
    t.clock.advance(10);
    await deliver(t);
    assert.deepEqual([receiver.requests.length, (await deliveries()).results[0].attempts], [2, 2]);
    assert.equal((await deliveries()).results[0].next_attempt_at, new Date(t.clock.now().getTime() + 20_000).toISOString());
    receiver.status = 204;
    t.clock.advance(20);
    await deliver(t);
    const ids = new Set(receiver.requests.map((r) => r.headers['webhook-id']));
    assert.deepEqual([receiver.requests.length, ids.size], [3, 1]);
    const [event] = receiver.verified(secret);
    assert.deepEqual([event!.id, event!.type, event!.data.user_id], [first.event_id, 'user.created', ann.id]);
    const done = (await deliveries()).results[0];
    assert.deepEqual([done.status, done.attempts, done.last_status_code, done.last_error, done.next_attempt_at],
      ['delivered', 3, 204, null, null]);
    assert.equal(done.delivered_at, t.clock.now().toISOString());
  });

  it('lists each attempt of a delivery: when it started, the status code or the error, how long it took', async () => {
    receiver.status = 500;
    receiver.delayMs = 50; // a slow receiver: the duration is measured, whatever the test clock says
    await account(t, { email: 'ann@example.com' });
    const firstAt = t.clock.now().toISOString();
    await deliver(t);
    t.clock.advance(10);
    const secondAt = t.clock.now().toISOString();
    receiver.status = 200;
    receiver.delayMs = 0;
    await deliver(t);
    const [d] = (await deliveries()).results;
    // The fields that were there before stay, and tell the last attempt.
    assert.deepEqual([d.status, d.attempts, d.last_status_code, d.last_error, d.delivered_at], ['delivered', 2, 200, null, secondAt]);
    assert.deepEqual(d.attempt_history.map((a: { duration_ms: number }) => ({ ...a, duration_ms: typeof a.duration_ms })), [
      { attempt: 1, attempted_at: firstAt, status_code: 500, error: 'HTTP 500', duration_ms: 'number' },
      { attempt: 2, attempted_at: secondAt, status_code: 200, error: null, duration_ms: 'number' },
    ]);
    assert.ok(d.attempt_history[0].duration_ms >= 40, `the first attempt waited 50 ms for its answer: ${d.attempt_history[0].duration_ms}`);
    assert.deepEqual(receiver.requests.map((r) => r.answered), [500, 200]);
    // The receiver's answer is never stored: only its status.
    const rows = await t.container.db.selectFrom('webhook_delivery_attempts').selectAll().orderBy('attempt').execute();
    assert.deepEqual(rows.map((r) => [r.delivery_id, r.attempt, r.status_code]), [[d.id, 1, 500], [d.id, 2, 200]]);
  });

  it('loses nothing while the receiver is down (connection refused), and delivers once it listens again', async () => {
    await receiver.stop();
    await account(t, { email: 'ann@example.com' });
    await account(t, { email: 'bob@example.com' });
    await deliver(t);
    const rows = await deliveryRows(t, webhookId);
    assert.equal(rows.length, 2);
    assert.ok(rows.every((r) => r.status === 'pending' && r.attempts === 1 && r.last_status_code === null
      && /ECONNREFUSED/.test(r.last_error!)));
    for (const d of (await deliveries()).results) {
      assert.equal(d.attempt_history.length, 1);
      const [refused] = d.attempt_history;
      assert.deepEqual([refused.attempt, refused.status_code, refused.attempted_at], [1, null, t.clock.now().toISOString()]);
      assert.match(refused.error, /^connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
      assert.equal(typeof refused.duration_ms, 'number');
    }
    await receiver.start();
    t.clock.advance(10);
    await deliver(t);
    assert.ok((await deliveryRows(t, webhookId)).every((r) => r.status === 'delivered' && r.attempts === 2));
    assert.deepEqual(receiver.verified(secret).map((e) => e.data.email).sort(), ['ann@example.com', 'bob@example.com']);
    assert.deepEqual(receiver.verified(secret).map((e) => e.id).sort(), rows.map((r) => r.event_id).sort());
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts (waits doubling from 10 s, at most 4 h): status failed, nothing more is tried`, async () => {
    receiver.status = 503;
    await account(t, { email: 'ann@example.com' });
    const waits: number[] = [];
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await deliver(t);
      const [row] = await deliveryRows(t, webhookId);
      if (row!.next_attempt_at) {
        waits.push((row!.next_attempt_at.getTime() - t.clock.now().getTime()) / 1000);
        t.clock.set(row!.next_attempt_at);
      }
    }
    assert.deepEqual(waits, [10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120, 10240, 14400, 14400, 14400, 14400]);
    const [row] = await deliveryRows(t, webhookId);
    assert.deepEqual([row!.status, row!.attempts, row!.next_attempt_at, row!.last_error], ['failed', MAX_ATTEMPTS, null, 'HTTP 503']);
    t.clock.advance(86_400);
    assert.deepEqual(await deliver(t), { delivered: 0, retried: 0, failed: 0 });
    assert.equal(receiver.requests.length, MAX_ATTEMPTS);
  });

  it('never follows a redirect: a 3xx is a failed attempt', async () => {
    const redirecting = createServer((req, res) => { receiver.requests.push({ headers: req.headers, raw: '', answered: 302 });
      res.writeHead(302, { location: receiver.url }).end(); });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/moved`;
    expectStatus(await t.api({ method: 'PATCH', path: `webhooks/${webhookId}/`, token: admin.token, payload: { url } }), 200);
    await account(t, { email: 'ann@example.com' });
    await deliver(t);
    redirecting.close();
    const [row] = await deliveryRows(t, webhookId);
    assert.deepEqual([row!.status, row!.last_status_code, row!.last_error], ['pending', 302, 'HTTP 302: redirects are not followed']);
    assert.deepEqual(receiver.requests.map((r) => r.answered), [302]);
  });

  it('checks the address again at every delivery: with private URLs refused, the delivery fails with the reason', async () => {
    const strict = await createTestApp({ env: { SVC_WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
    strict.clock.set(t.clock.now()); // the two instances agree on the time, as instances of one deployment do
    try {
      // Accepted while private URLs were allowed (or a name that resolved to a public address then): refused at delivery.
      await strict.container.services.users.create({ email: 'ann@example.com', password: 'a long enough password' });
      assert.deepEqual(await strict.container.services.webhookDelivery.flush(), { delivered: 0, retried: 0, failed: 1 });
    } finally {
      await strict.close();
    }
    const [row] = await deliveryRows(t, webhookId);
    assert.deepEqual([row!.status, row!.attempts, row!.next_attempt_at, row!.last_status_code], ['failed', 1, null, null]);
    assert.equal(row!.last_error, 'refused: The host resolves to a forbidden address (127.0.0.1 is not a public address).');
    assert.equal(receiver.requests.length, 0);
    const [listed] = (await deliveries()).results;
    assert.deepEqual(listed.attempt_history.map((a: object) => ({ ...a, duration_ms: 0 })), [{ attempt: 1,
      attempted_at: t.clock.now().toISOString(), status_code: null, error: row!.last_error, duration_ms: 0 }]);
  });

  it('sends the webhook.test ping, lists deliveries paged and filtered, and replays one with the same webhook-id', async () => {
    const ping = expectStatus(await api('POST', `webhooks/${webhookId}/test/`), 202);
    assert.deepEqual([ping.message, ping.delivery.type, ping.delivery.status, ping.delivery.attempts], ['Test event queued', 'webhook.test',
      'pending', 0]);
    const ann = await account(t, { email: 'ann@example.com' });
    expectStatus(await api('POST', `admin/users/${ann.id}/ban/`, { reason: 'spam' }), 200);
    await deliver(t);
    const all = await deliveries('?page_size=2');
    assert.deepEqual([all.count, all.results.length, all.next],
      [3, 2, `/api/v1/auth/webhooks/${webhookId}/deliveries/?page_size=2&page=2`]);
    assert.deepEqual(all.results.map((d: { type: string }) => d.type), ['user.banned', 'user.created']);
    const banned = all.results[0];
    assert.deepEqual([banned.status, banned.attempts, banned.last_status_code, banned.payload], ['delivered', 1, 204,
      { user_id: ann.id, email: 'ann@example.com', reason: 'spam', actor_id: admin.id }]);
    assert.equal((await deliveries('?type=webhook.test')).results[0].payload.webhook_id, webhookId);
    assert.equal((await deliveries('?status=pending')).count, 0);

    const replay = expectStatus(await api('POST', `webhooks/${webhookId}/deliveries/${banned.id}/replay/`), 202);
    assert.deepEqual([replay.delivery.event_id, replay.delivery.replay_of, replay.delivery.status, replay.delivery.created_at,
      replay.delivery.attempt_history], [banned.event_id, banned.id, 'pending', banned.created_at, []]);
    await deliver(t);
    // The replay's attempt is its own; the original keeps the one it had.
    const [replayed, original] = (await deliveries('?type=user.banned')).results;
    assert.deepEqual([replayed.id, replayed.attempt_history.map((a: { status_code: number }) => a.status_code)], [replay.delivery.id, [204]]);
    assert.deepEqual([original.id, original.attempt_history.length], [banned.id, 1]);
    const events = receiver.verified(secret);
    assert.deepEqual(events.map((e) => e.type), ['webhook.test', 'user.created', 'user.banned', 'user.banned']);
    assert.equal(events[2]!.id, events[3]!.id);
    assert.deepEqual(events[2]!.data, events[3]!.data);
    assert.equal(events[0]!.data.message, 'This is a test event from Gatehouse.');

    assert.deepEqual(expectStatus(await api('POST', `webhooks/${webhookId}/deliveries/999/replay/`), 404), NOT_FOUND);
    assert.deepEqual(expectStatus(await api('GET', 'webhooks/999/deliveries/'), 404), NOT_FOUND);
    const other = await createWebhook(t, admin, receiver, ['user.created']);
    assert.deepEqual(expectStatus(await api('POST', `webhooks/${other.webhook.id}/deliveries/${banned.id}/replay/`), 404), NOT_FOUND);
    expectStatus(await t.api({ method: 'PATCH', path: `webhooks/${other.webhook.id}/`, token: admin.token,
      payload: { is_active: false } }), 200);
    assert.deepEqual(expectStatus(await api('POST', `webhooks/${other.webhook.id}/test/`), 400).details,
      { is_active: ['The webhook is inactive: activate it to send a test event.'] });
  });

  it('sends right after the commit without waiting for the job, and the webhooks job delivers what is due', async () => {
    await account(t, { email: 'ann@example.com' });
    for (let i = 0; i < 100 && receiver.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(receiver.verified(secret)[0]?.data.email, 'ann@example.com');
    receiver.status = 500;
    await account(t, { email: 'bob@example.com' });
    await deliver(t);
    receiver.status = 204;
    t.clock.advance(10);
    // A delivery finished 31 days ago is removed by the job (kept 30 days); the recent ones stay listed.
    const old = new Date(t.clock.now().getTime() - 31 * 86_400_000);
    const { id: oldId } = await t.container.db.insertInto('webhook_deliveries').values({ webhook_id: webhookId, event_id: 'msg_old',
      type: 'webhook.test', payload: '{}', user_id: null, status: 'delivered', attempts: 1, created_at: old, delivered_at: old })
      .returning('id').executeTakeFirstOrThrow();
    await t.container.db.insertInto('webhook_delivery_attempts').values({ delivery_id: oldId, attempt: 1, attempted_at: old,
      status_code: 204, error: null, duration_ms: 12 }).execute();
    const lines: string[] = [];
    const result = await JOBS.webhooks!.run(t.container, (line) => lines.push(line));
    assert.equal(result.summary, '1 delivered, 0 to retry, 0 given up, 1 old deliveries removed');
    assert.equal(receiver.verified(secret).length, 2);
    assert.deepEqual((await deliveryRows(t, webhookId)).map((d) => d.status), ['delivered', 'delivered']);
    const kept = await t.container.db.selectFrom('webhook_delivery_attempts').select('delivery_id').execute();
    assert.ok(kept.length > 0 && kept.every((a) => a.delivery_id !== oldId), 'the removed delivery took its attempts along');
  });

  it('two instances sharing the database never deliver the same attempt twice', async () => {
    const other = await createTestApp();
    try {
      // Thirty due events written straight to the outbox, so that no pass starts before the two below.
      const now = t.clock.now();
      await t.container.db.insertInto('webhook_deliveries').values(Array.from({ length: 30 }, (_, i) => ({ webhook_id: webhookId,
        event_id: `msg_race${i}`, type: 'webhook.test', payload: JSON.stringify({ n: i }), user_id: null, next_attempt_at: now,
        created_at: now }))).execute();
      const [a, b] = await Promise.all([deliver(t), other.container.services.webhookDelivery.flush()]);
      assert.equal(a.delivered + b.delivered, 30);
      assert.equal(receiver.requests.length, 30);
      assert.equal(new Set(receiver.requests.map((r) => r.headers['webhook-id'])).size, 30);
      assert.ok((await deliveryRows(t, webhookId)).every((r) => r.status === 'delivered' && r.attempts === 1));
    } finally {
      await other.close();
    }
  });
});
