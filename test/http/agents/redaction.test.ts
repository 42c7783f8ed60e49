import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { isPiiKey, redactPii, REDACTED } from '../../../src/http/hooks/agent-redaction.js';
import { useTestApp, type TestApp } from '../../helpers/test-app.js';
import { account, agentApi, delegate, expectError, expectStatus, grantDirect, userApi, type Account } from './helpers.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

/** One app per setting; the same people and tokens in both. */
function fixture(env: Record<string, string>) {
  const f = { t: useTestApp({ now: NOW, env }) } as { t: TestApp; alice: Account; token: string };
  beforeEach(async () => {
    const { t } = f;
    f.alice = await account(t, { email: 'alice@example.com', phone: '+14155552671', first_name: 'Alice', last_name: 'Liddell' });
    await t.container.db.updateTable('users').set({
      username: 'alice',
      custom_fields: JSON.stringify({ shipping: { address: '1 Rabbit Hole', city: 'Oxford', postal_code: 'OX1', country: 'GB' }, team: 'red', note: null }),
    }).where('id', '=', f.alice.id).execute();
    await account(t, { email: 'bob@example.com', first_name: 'Bob', last_name: 'Hatter' });
    await grantDirect(t, f.alice.id, ['users.view']);
    f.token = (await delegate(t, f.alice, { permissions: ['users.view'] })).token;
  });
  afterEach(async () => { await f.t.container.services.agentActivity.flush(); });
  return f;
}

describe('SVC_AIRS_REDACT_PII=true', () => {
  const f = fixture({ SVC_AIRS_REDACT_PII: 'true' });

  it('GET me/ as an agent shows emails, phones, names and addresses as ***REDACTED***, at any depth', async () => {
    const me = expectStatus(await agentApi(f.t)('GET', 'me/', f.token), 200);
    assert.equal(me.id, f.alice.id);
    for (const key of ['email', 'phone', 'first_name', 'last_name', 'username']) assert.equal(me[key], REDACTED, key);
    assert.deepEqual(me.custom_fields, { shipping: { address: REDACTED, city: REDACTED, postal_code: REDACTED, country: 'GB' }, team: 'red', note: null });
    // Not personal data: kept.
    assert.equal(me.is_active, true);
    assert.equal(typeof me.preferences.email_notifications, 'boolean');
  });

  it('GET admin/users/ as an agent redacts every row; null values stay null', async () => {
    const list = expectStatus(await agentApi(f.t)('GET', 'admin/users/?ordering=email', f.token), 200);
    assert.equal(list.count, 2);
    for (const user of list.results) {
      assert.equal(user.email, REDACTED);
      assert.equal(user.first_name, REDACTED);
      assert.equal(user.last_name, REDACTED);
      assert.equal(typeof user.id, 'number');
    }
    const bob = list.results.find((u: { id: number }) => u.id !== f.alice.id);
    assert.equal(bob.phone, null);
    assert.equal(bob.username, null);
  });

  it('leaves the user\'s own requests and agents\' error answers alone', async () => {
    const me = expectStatus(await userApi(f.t)('GET', 'me/', f.alice), 200);
    assert.equal(me.email, 'alice@example.com');
    assert.equal(me.custom_fields.shipping.city, 'Oxford');
    const users = expectStatus(await userApi(f.t)('GET', 'admin/users/?ordering=email', f.alice), 200);
    assert.deepEqual(users.results.map((u: { email: string }) => u.email), ['alice@example.com', 'bob@example.com']);
    const refused = expectError(await agentApi(f.t)('PATCH', 'me/', f.token, { email: 'x@example.com' }), 403, 'AGENT_NOT_ALLOWED');
    assert.equal(refused.error, 'Agents cannot use this endpoint');
  });
});

describe('SVC_AIRS_REDACT_PII off (the default)', () => {
  const f = fixture({});

  it('GET me/ and admin/users/ as an agent show everything', async () => {
    const me = expectStatus(await agentApi(f.t)('GET', 'me/', f.token), 200);
    assert.equal(me.email, 'alice@example.com');
    assert.equal(me.phone, '+14155552671');
    assert.equal(me.first_name, 'Alice');
    assert.equal(me.custom_fields.shipping.address, '1 Rabbit Hole');
    const list = expectStatus(await agentApi(f.t)('GET', 'admin/users/?ordering=email', f.token), 200);
    assert.deepEqual(list.results.map((u: { last_name: string }) => u.last_name), ['Liddell', 'Hatter']);
  });
});

describe('the PII keys', () => {
  it('are the listed keys and the *_email / *_phone families, nothing else', () => {
    for (const key of ['email', 'user_email', 'actor_email', 'phone', 'phone_number', 'recovery_phone', 'first_name', 'last_name',
      'full_name', 'username', 'identifier', 'address', 'street', 'city', 'postal_code', 'zip_code']) assert.ok(isPiiKey(key), key);
    for (const key of ['id', 'name', 'ip_address', 'email_notifications', 'marketing_emails', 'phone_country_code', 'country', 'slug']) {
      assert.ok(!isPiiKey(key), key);
    }
    assert.deepEqual(redactPii([{ email: 'a@b.c', nested: [{ phone: null, last_name: 'x' }] }, 'email', 3]),
      [{ email: REDACTED, nested: [{ phone: null, last_name: REDACTED }] }, 'email', 3]);
  });
});
