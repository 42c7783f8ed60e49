import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { TestApp } from '../../helpers/test-app.js';
import { account, createWebhook, deliver, expectStatus, freshStart, startReceiving, stopReceiving } from './helpers.js';
import type { WebhookReceiver } from './receiver.js';

const ROUNDS = 20;
const EVENTS = ['user.created', 'session.created'];

/**
 * docs/webhooks.md "Deleting a webhook": an event is written in the transaction of the change it reports, so writing it
 * must never fail that change — not even for a webhook deleted while the change runs. On PostgreSQL the requests below
 * really run at once (a pool of connections); the embedded database runs them one after the other.
 */
describe('webhooks deleted while people register and sign in', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  before(async () => { ({ t, receiver } = await startReceiving()); });
  after(() => stopReceiving(t, receiver));

  it(`every registration answers 201 and every login 200, over ${ROUNDS} rounds of webhooks created and deleted meanwhile`, async () => {
    const admin = await freshStart(t, receiver);
    const kept = (await createWebhook(t, admin, receiver, EVENTS)).webhook.id;
    const people = await Promise.all([1, 2, 3].map((i) => account(t, { email: `member${i}@example.com` })));
    const newWebhook = async () => (await createWebhook(t, admin, receiver, EVENTS)).webhook.id;
    let doomed = await Promise.all([newWebhook(), newWebhook()]);
    const statuses: string[] = [];
    let registered = people.length; // their accounts were created with the kept webhook in place
    let signedIn = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const registrations = [1, 2, 3].map((i) => t.api({ method: 'POST', path: 'register/',
        payload: { email: `new${round}-${i}@example.com`, password: 'a long enough password 1' } }));
      const logins = people.map((p) => t.api({ method: 'POST', path: 'login/email/', payload: { email: p.email, password: p.password } }));
      const deletions = doomed.map((id) => t.api({ method: 'DELETE', path: `webhooks/${id}/`, token: admin.token }));
      // The administrator's own writes for one webhook: queued before the deletion (202) or refused after it (404).
      const pings = doomed.map((id) => t.api({ method: 'POST', path: `webhooks/${id}/test/`, token: admin.token }));
      const [registers, signIns, deleted, pinged, created] = await Promise.all([Promise.all(registrations), Promise.all(logins),
        Promise.all(deletions), Promise.all(pings), Promise.all([newWebhook(), newWebhook()])]);
      for (const res of registers) statuses.push(res.statusCode === 201 ? 'ok' : `register ${res.statusCode}: ${res.body}`);
      for (const res of signIns) statuses.push(res.statusCode === 200 ? 'ok' : `login ${res.statusCode}: ${res.body}`);
      for (const res of pinged) statuses.push([202, 404].includes(res.statusCode) ? 'ok' : `ping ${res.statusCode}: ${res.body}`);
      for (const res of deleted) expectStatus(res, 200);
      registered += registers.length;
      signedIn += signIns.length;
      doomed = created;
    }
    assert.deepEqual(statuses.filter((s) => s !== 'ok'), []);
    // A deleted webhook is gone with its deliveries, the ones written while it was being deleted included.
    for (const id of doomed) expectStatus(await t.api({ method: 'DELETE', path: `webhooks/${id}/`, token: admin.token }), 200);
    await deliver(t);
    const { rows } = await sql<{ webhook_id: string; type: string; n: number }>`
      select webhook_id, type, count(*)::int as n from webhook_deliveries group by webhook_id, type order by type`.execute(t.container.db);
    assert.deepEqual([...new Set(rows.map((r) => Number(r.webhook_id)))], [kept]);
    // The webhook that stayed got every event: one user.created per account, one session.created per session (all but
    // the administrator's, opened before it existed), the logins' among them.
    const opened = await t.container.db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '<>', admin.id).executeTakeFirstOrThrow();
    assert.ok(Number(opened.n) >= signedIn);
    assert.deepEqual(rows.map((r) => [r.type, r.n]), [['session.created', Number(opened.n)], ['user.created', registered]]);
    expectStatus(await t.api({ method: 'GET', path: `webhooks/${kept}/`, token: admin.token }), 200);
  });
});
