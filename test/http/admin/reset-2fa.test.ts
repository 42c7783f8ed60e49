import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { signIn } from '../../factories/sessions.js';
import { enableTotp } from '../../factories/twofactor.js';
import { createUser, DEFAULT_PASSWORD, userRow, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { account, type Account } from '../../factories/accounts.js';
import { grantDirect } from '../../factories/rbac.js';
import { expectStatus, NOT_FOUND, permissionDenied, refusedBecause } from '../../helpers/answers.js';
import { auditEvents } from '../../helpers/audit.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

// see: "A newcomer's first hour works as written" — a person who lost their authenticator had no way back in.
describe('POST admin/users/<id>/reset-2fa/', () => {
  const t = useTestApp({ now: NOW, env: { SVC_AUDIT_LOGGING_ENABLED: 'true' } });
  let admin: Account;
  let zoe: TestUser;
  beforeEach(async () => {
    t.container.inbox.emails.length = 0;
    admin = await account(t, { email: 'admin@example.com', roles: ['admin'] });
    zoe = await createUser(t, { email: 'zoe@example.com' });
  });

  const reset = (id: number, token = admin.token, payload: object = {}) =>
    t.api({ method: 'POST', path: `admin/users/${id}/reset-2fa/`, token, payload });
  const login = (extra: object = {}) =>
    t.api({ method: 'POST', path: 'login/email/', payload: { email: zoe.email, password: DEFAULT_PASSWORD, ...extra } });

  it('removes the secret and the backup codes, ends every session, audits, emits 2fa.disabled and tells the person', async () => {
    const totp = await enableTotp(t, zoe);
    t.clock.advance(60);
    const session = expectStatus(await login({ totp_code: totp.code() }), 200);
    assert.equal(expectStatus(await login(), 401).code, '2FA_REQUIRED');

    const body = expectStatus(await reset(zoe.id), 200);
    assert.equal(body.message, 'Two-factor authentication reset');
    assert.equal(body.sessions_revoked, 1);
    assert.equal(body.user.is_2fa_enabled, false);

    assert.equal((await userRow(t, zoe.id)).is_2fa_enabled, false);
    const left = await t.container.db.selectFrom('backup_codes').select('id').where('user_id', '=', zoe.id).execute();
    assert.deepEqual(left, []);
    assert.equal(await t.container.db.selectFrom('totp_credentials').select('user_id').where('user_id', '=', zoe.id).executeTakeFirst(),
      undefined);
    // The session the lost phone may still hold is over.
    expectStatus(await t.api({ method: 'GET', path: 'me/', token: session.access_token }), 401);
    // The password alone signs in now; the old code and backup codes are nothing.
    expectStatus(await login(), 200);

    const [event] = await auditEvents(t, '2fa_reset');
    assert.deepEqual([event?.severity, event?.user_id, event?.actor_id], ['warning', zoe.id, admin.id]);
    assert.deepEqual(event?.details, { by: 'administrator', sessions_revoked: 1 });
    await t.container.services.outbox.flush();
    const [notice] = t.container.inbox.emails.filter((m) => m.to === 'zoe@example.com' && m.purpose === 'two_factor_reset');
    assert.ok(notice, 'a two_factor_reset email');
    assert.match(notice.text, /An administrator reset two-factor authentication on your account/);
  });

  it('answers that there was nothing to reset, and ends no session, for an account without 2FA', async () => {
    const session = await signIn(t, zoe);
    const body = expectStatus(await reset(zoe.id), 200);
    assert.equal(body.message, 'Two-factor authentication was not set up');
    assert.equal(body.sessions_revoked, undefined);
    expectStatus(await t.api({ method: 'GET', path: 'me/', token: session.access_token }), 200);
    assert.deepEqual(await auditEvents(t, '2fa_reset'), []);
  });

  it('needs users.manage, refuses one\'s own account and a superuser\'s for a non-superuser, and an unknown id', async () => {
    await enableTotp(t, zoe);
    const viewer = await account(t, { email: 'viewer@example.com' });
    await grantDirect(t, viewer.id, ['users.view']);
    assert.deepEqual(expectStatus(await reset(zoe.id, viewer.token), 403), permissionDenied('users.manage'));
    assert.deepEqual(expectStatus(await reset(admin.id), 403), refusedBecause('own_account'));
    const root = await createUser(t, { email: 'root@example.com', is_superuser: true });
    assert.deepEqual(expectStatus(await reset(root.id), 403), refusedBecause('superuser_required'));
    assert.deepEqual(expectStatus(await reset(999_999), 404), NOT_FOUND);
    assert.equal(expectStatus(await reset(zoe.id, admin.token, { reason: 'x' }), 400).code, 'VALIDATION_ERROR');
    assert.equal((await userRow(t, zoe.id)).is_2fa_enabled, true, 'nothing was reset');
  });
});
