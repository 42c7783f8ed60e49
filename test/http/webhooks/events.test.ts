import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { TestApp } from '../../helpers/test-app.js';
import { totpNow } from '../../factories/twofactor.js';
import { confirmationToken } from '../deletion/helpers.js';
import { agentApi, delegate, userApi } from '../agents/helpers.js';
import { loginCodeFor, OTP_LOGIN_ON, phoneParts } from '../passwordless/helpers.js';
import {
  account, type Account, createWebhook, deliver, deliveryRows, expectStatus, freshStart, startReceiving, stopReceiving, webhookAdmin,
} from './helpers.js';
import type { VerifiedEvent, WebhookReceiver } from './receiver.js';

/** docs/webhooks.md: every event, triggered through the API, arrives signed (checked with `standardwebhooks`). */
describe('webhook events', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let admin: Account;
  let secret: string;

  before(async () => {
    // Audit logging off: the events must not depend on it. Lockout after 3 failures; approvals for roles.manage.
    ({ t, receiver } = await startReceiving({ env: { SVC_AUDIT_LOGGING_ENABLED: 'false', SVC_ORGANIZATIONS_ENABLED: 'true',
      SVC_MAX_LOGIN_ATTEMPTS: '3', SVC_AIRS_CONFIRMATION_REQUIRED: 'roles.manage', SVC_SESSION_LIMIT_ACTION: 'revoke_oldest',
      ...OTP_LOGIN_ON } }));
  });
  after(() => stopReceiving(t, receiver));
  beforeEach(async () => {
    admin = await freshStart(t, receiver);
    secret = (await createWebhook(t, admin, receiver)).secret;
  });

  /** Delivers what is due and answers the verified events of `type` received since the test began. */
  async function received(type: string): Promise<VerifiedEvent[]> {
    await deliver(t);
    return receiver.events(secret, type);
  }

  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, token: string | null, payload?: object,
    headers: Record<string, string> = {}) =>
    t.api({ method, path, ...(token ? { token } : {}), ...(payload ? { payload } : {}), headers });

  /** Nothing in a payload may look like a secret, a code or a token. */
  function assertNoSecrets(events: VerifiedEvent[], forbidden: string[]) {
    for (const e of events) {
      const text = JSON.stringify(e.data);
      for (const value of forbidden) assert.ok(!text.includes(value), `${e.type} carries a secret`);
      assert.ok(!/token"|password|secret|code"/.test(Object.keys(e.data).join('"') + '"'), `${e.type}: ${text}`);
    }
  }

  it('user.created, session.created, login.failed, user.updated, password.changed and session.revoked', async () => {
    const registered = expectStatus(await api('POST', 'register/', null, { email: 'Ann@Example.com', password: 'first password 1',
      first_name: 'Ann', last_name: 'Lee' }), 201);
    const ann = Number(registered.user.id);
    const [created] = await received('user.created');
    assert.deepEqual(created!.data, { user_id: ann, email: 'ann@example.com', phone: null, first_name: 'Ann', last_name: 'Lee',
      is_email_verified: false, is_phone_verified: false });
    assert.match(created!.id, /^msg_[A-Za-z0-9_-]{24}$/);
    assert.ok(Math.abs(Date.parse(created!.timestamp) - t.clock.now().getTime()) < 1000);

    const login = expectStatus(await api('POST', 'login/email/', null, { email: 'ann@example.com', password: 'first password 1' }), 200);
    const [session] = await received('session.created');
    assert.deepEqual(session!.data, { user_id: ann, session_id: Number(login.session_id), application_id: t.credentials.id,
      method: session!.data.method, scope: 'full', ip_address: '127.0.0.1' });
    assert.equal(typeof session!.data.method, 'string');

    expectStatus(await api('POST', 'login/email/', null, { email: 'ann@example.com', password: 'wrong password' }), 401);
    expectStatus(await api('POST', 'login/email/', null, { email: 'nobody@example.com', password: 'wrong password' }), 401);
    const failed = await received('login.failed');
    assert.deepEqual(failed.map((e) => [e.data.user_id, e.data.reason]), [[ann, 'invalid_credentials'], [null, 'invalid_credentials']]);
    assert.ok(!JSON.stringify(failed).includes('nobody@example.com'), 'the identifier typed is not sent');

    expectStatus(await api('PATCH', 'me/', login.access_token, { first_name: 'Anna' }), 200);
    const [updated] = await received('user.updated');
    assert.deepEqual(updated!.data, { user_id: ann, email: 'ann@example.com', changed_fields: ['first_name'], actor_id: ann });

    const changed = expectStatus(await api('POST', 'password/change/', login.access_token,
      { current_password: 'first password 1', new_password: 'second password 2' }), 200);
    assert.equal(changed.message, 'Password changed successfully.');
    assert.deepEqual((await received('password.changed')).map((e) => e.data), [{ user_id: ann, method: 'change' }]);

    expectStatus(await api('POST', 'logout/', login.access_token, { refresh_token: login.refresh_token }), 200);
    const revoked = await received('session.revoked');
    assert.deepEqual(revoked.at(-1)!.data, { user_id: ann, session_ids: [Number(login.session_id)], reason: 'logout' });
    assertNoSecrets(receiver.verified(secret), [login.access_token, login.refresh_token, 'first password 1', 'second password 2']);
  });

  it('password.changed (revoked) and session.revoked when a login code first proves a phone registered with a password', async () => {
    const phone = '+33612345678';
    const registered = expectStatus(await api('POST', 'register/', null, { ...phoneParts(phone), password: 'first password 1',
      login: true }), 201);
    t.clock.advance(1);
    expectStatus(await api('POST', 'login/otp/verify/', null, { ...phoneParts(phone), otp_code: await loginCodeFor(t, phone) }), 200);
    const owner = Number(registered.user.id);
    assert.deepEqual((await received('password.changed')).map((e) => e.data), [{ user_id: owner, method: 'revoked' }]);
    assert.deepEqual((await received('session.revoked')).map((e) => e.data),
      [{ user_id: owner, session_ids: [Number(registered.session_id)], reason: 'password_revoked' }]);
  });

  it('session.created from the transaction path too: a login over the session limit ends the oldest session', async () => {
    const hal = await account(t, { email: 'hal@example.com', max_sessions: 1 });
    const second = expectStatus(await api('POST', 'login/email/', null, { email: hal.email, password: hal.password }), 200);
    const created = await received('session.created');
    assert.deepEqual(created.map((e) => [e.data.user_id, e.data.session_id, e.data.method]),
      [[hal.id, created[0]!.data.session_id, 'password'], [hal.id, Number(second.session_id), 'password']]);
    // The first came from the one-statement login (built in SQL), the second from the transaction: the same payload.
    const { session_id: _first, ...oneStatement } = created[0]!.data;
    const { session_id: _second, ...transaction } = created[1]!.data;
    assert.deepEqual(oneStatement, transaction);
    assert.deepEqual(Object.keys(created[0]!.data).sort(), ['application_id', 'ip_address', 'method', 'scope', 'session_id', 'user_id']);
    const [revoked] = await received('session.revoked');
    assert.deepEqual(revoked!.data, { user_id: hal.id, session_ids: [created[0]!.data.session_id], reason: 'session_limit' });
  });

  it('user.locked after repeated failures and by an administrator, user.banned, and the admin update', async () => {
    const bob = await account(t, { email: 'bob@example.com' });
    for (let i = 0; i < 3; i++) await api('POST', 'login/email/', null, { email: bob.email, password: 'not the password' });
    const [locked] = await received('user.locked');
    assert.equal(locked!.data.user_id, bob.id);
    assert.equal(locked!.data.reason, 'failed_attempts');
    assert.ok(Date.parse(String(locked!.data.locked_until)) > t.clock.now().getTime());

    const carol = await account(t, { email: 'carol@example.com' });
    expectStatus(await api('POST', `admin/users/${carol.id}/lock/`, admin.token, { duration_minutes: 10, reason: 'investigation' }), 200);
    expectStatus(await api('POST', `admin/users/${carol.id}/ban/`, admin.token, { reason: 'spam' }), 200);
    expectStatus(await api('PATCH', `admin/users/${carol.id}/`, admin.token, { last_name: 'Banned' }), 200);
    const byAdmin = (await received('user.locked')).at(-1)!;
    assert.deepEqual(byAdmin.data, { user_id: carol.id, locked_until: new Date(t.clock.now().getTime() + 600_000).toISOString(),
      reason: 'investigation', actor_id: admin.id });
    assert.deepEqual((await received('user.banned')).map((e) => e.data),
      [{ user_id: carol.id, email: 'carol@example.com', reason: 'spam', actor_id: admin.id }]);
    assert.deepEqual((await received('user.updated')).map((e) => e.data),
      [{ user_id: carol.id, email: 'carol@example.com', changed_fields: ['last_name'], actor_id: admin.id }]);
    // Locking and banning ended carol's session.
    assert.deepEqual((await received('session.revoked')).map((e) => [e.data.user_id, e.data.reason]), [[carol.id, 'locked']]);
  });

  it('2fa.enabled and 2fa.disabled', async () => {
    const dan = await account(t, { email: 'dan@example.com' });
    const setup = expectStatus(await api('POST', '2fa/setup/', dan.token), 200);
    expectStatus(await api('POST', '2fa/confirm/', dan.token, { code: totpNow(t, setup.secret) }), 200);
    t.clock.advance(30);
    expectStatus(await api('POST', '2fa/disable/', dan.token, { code: totpNow(t, setup.secret), password: dan.password }), 200);
    assert.deepEqual((await received('2fa.enabled')).map((e) => e.data), [{ user_id: dan.id }]);
    assert.deepEqual((await received('2fa.disabled')).map((e) => e.data), [{ user_id: dan.id }]);
    // An administrator's reset is a 2fa.disabled too, naming who did it.
    const again = expectStatus(await api('POST', '2fa/setup/', dan.token), 200);
    t.clock.advance(30);
    expectStatus(await api('POST', '2fa/confirm/', dan.token, { code: totpNow(t, again.secret) }), 200);
    expectStatus(await api('POST', `admin/users/${dan.id}/reset-2fa/`, admin.token, {}), 200);
    assert.deepEqual((await received('2fa.disabled')).map((e) => e.data), [{ user_id: dan.id }, { user_id: dan.id, actor_id: admin.id }]);
    assertNoSecrets(receiver.verified(secret), [setup.secret, again.secret, ...(setup.backup_codes as string[])]);
  });

  it('organization.member_added and organization.member_removed', async () => {
    const owner = await account(t, { email: 'owner@example.com' });
    const erin = await account(t, { email: 'erin@example.com' });
    const org = expectStatus(await api('POST', 'organizations/', owner.token, { name: 'Acme', slug: 'acme' }), 201);
    const acme = { 'x-org-slug': 'acme' };
    expectStatus(await api('POST', 'organizations/members/add/', owner.token, { user_id: erin.id, role_code: 'admin' }, acme), 201);
    expectStatus(await api('DELETE', `organizations/members/${erin.id}/remove/`, owner.token, undefined, acme), 200);
    assert.deepEqual((await received('organization.member_added')).map((e) => e.data),
      [{ organization_id: org.id, user_id: erin.id, role: 'admin', added_by: owner.id }]);
    assert.deepEqual((await received('organization.member_removed')).map((e) => e.data),
      [{ organization_id: org.id, user_id: erin.id, role: 'admin', removed_by: owner.id }]);
  });

  it('deletion.requested, then deletion.completed and user.deleted, and the stored payloads lose the address', async () => {
    const fay = await account(t, { email: 'fay@example.com' });
    const requested = expectStatus(await api('POST', 'request-account-deletion/', fay.token,
      { password: fay.password, reason: 'moving' }), 201);
    const token = await confirmationToken(t, 'fay@example.com');
    expectStatus(await api('POST', 'confirm-account-deletion/', null, { token }), 200);
    const [asked] = await received('deletion.requested');
    assert.deepEqual(asked!.data, { user_id: fay.id, email: 'fay@example.com', deletion_request_id: requested.deletion_request_id,
      reason: 'moving', requested_at: t.clock.now().toISOString(), grace_period_ends_at: asked!.data.grace_period_ends_at });
    expectStatus(await api('POST', `admin/deletion-requests/${requested.deletion_request_id}/process/`, admin.token,
      { confirmation: 'PERMANENTLY DELETE' }), 200);
    assert.deepEqual((await received('deletion.completed')).map((e) => e.data), [{ user_id: fay.id,
      deletion_request_id: requested.deletion_request_id, completed_at: t.clock.now().toISOString(), by: 'administrator',
      actor_id: admin.id }]);
    assert.deepEqual((await received('user.deleted')).map((e) => e.data),
      [{ user_id: fay.id, anonymized: true, deleted_at: t.clock.now().toISOString(), actor_id: admin.id }]);
    // The events about fay that were delivered before stay listed, without her address or IPs.
    const stored = (await deliveryRows(t)).filter((d) => d.user_id === fay.id);
    assert.ok(stored.length >= 4);
    assert.ok(stored.every((d) => !JSON.stringify(d.payload).includes('fay@example.com') && !('ip_address' in d.payload)));
    assertNoSecrets(receiver.verified(secret), [token]);
  });

  it('agent.suspended (manual and by a breaker) and agent.action_pending, without the confirmation token', async () => {
    const agent = await delegate(t, admin, { permissions: ['roles.manage', 'roles.view'], circuit_breaker: { max_failed_requests: 2 } });
    const pending = expectStatus(await agentApi(t)('POST', 'roles/', agent.token, { code: 'auditor', name: 'Auditor' }), 202);
    const [action] = await received('agent.action_pending');
    assert.deepEqual(action!.data, { user_id: admin.id, action_id: pending.action_id, agent_token_id: agent.id, agent_id: 'assistant',
      permission: 'roles.manage', method: 'POST', path: '/api/v1/auth/roles/', expires_at: pending.expires_at });
    expectStatus(await userApi(t)('POST', `ai/tokens/${agent.id}/suspend/`, admin), 200);
    const tripped = await delegate(t, admin, { agent_id: 'tripped', permissions: ['roles.view'],
      circuit_breaker: { max_failed_requests: 2 } });
    for (let i = 0; i < 2; i++) expectStatus(await agentApi(t)('GET', 'admin/users/', tripped.token), 403);
    assert.deepEqual((await received('agent.suspended')).map((e) => e.data), [
      { user_id: admin.id, agent_token_id: agent.id, agent_id: 'assistant', reason: 'MANUAL' },
      { user_id: admin.id, agent_token_id: tripped.id, agent_id: 'tripped', reason: 'ANOMALY' },
    ]);
    assertNoSecrets(receiver.verified(secret), [pending.confirmation_token, agent.token, tripped.token]);
  });

  it('sends nothing a webhook did not subscribe to, and nothing to an inactive webhook', async () => {
    await t.reset();
    receiver.requests = [];
    admin = await webhookAdmin(t);
    const only = await createWebhook(t, admin, receiver, ['user.banned']);
    const idle = await createWebhook(t, admin, receiver, ['user.created'], { is_active: false });
    await account(t, { email: 'gus@example.com' });
    await deliver(t);
    assert.equal(receiver.requests.length, 0);
    assert.equal((await deliveryRows(t)).length, 0);
    assert.ok(only.webhook.id && idle.webhook.id);
  });
});
