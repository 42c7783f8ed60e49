import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeJwt } from '../../factories/sessions.js';
import { totpNow } from '../../factories/twofactor.js';
import { createUser, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertError } from '../auth/assertions.js';
import { loginEmail, NOW, post, status } from './helpers.js';

const GATE_FIELDS = { access_token: undefined, token_type: 'Bearer', expires_in: 900, token_scope: '2fa_setup_only' };

describe('admin accounts must use 2FA', () => {
  const t = useTestApp({ now: NOW, env: { SVC_FORCE_PASSWORD_CHANGE_ON_FIRST_LOGIN_ENABLED: 'true' } });

  /** The 403 of the admin gate; answers its 2fa_setup_only access token. */
  async function gated(user: TestUser) {
    const body = assertError(await loginEmail(t, user.email, user.password), 403, 'ADMIN_2FA_SETUP_REQUIRED', GATE_FIELDS);
    return body.access_token as string;
  }

  /** Sets 2FA up with the restricted token; answers the secret (the clock then moves to the next step). */
  async function setUpWith(token: string) {
    const setup = await post(t, '2fa/setup/', token);
    assert.equal(setup.statusCode, 200, setup.body);
    const { secret } = setup.json();
    const confirm = await post(t, '2fa/confirm/', token, { code: totpNow(t, secret) });
    assert.equal(confirm.statusCode, 200, confirm.body);
    t.clock.advance(30);
    return secret as string;
  }

  it('answers 403 ADMIN_2FA_SETUP_REQUIRED with a 15-minute 2fa_setup_only access token, to superusers and staff', async () => {
    for (const flags of [{ is_superuser: true }, { is_staff: true }]) {
      const admin = await createUser(t, flags);
      const token = await gated(admin);
      const { payload } = decodeJwt(token);
      assert.equal(payload.scope, '2fa_setup_only');
      assert.equal(payload.sub, String(admin.id));
      assert.equal(Number(payload.exp) - Number(payload.iat), 900);
    }
  });

  it('applies to login/phone/ and records a failed attempt with the reason', async () => {
    const admin = await createUser(t, { is_staff: true, phone: '+33612345678' });
    const res = await t.api({ method: 'POST', path: 'login/phone/',
      payload: { phone_country_code: '+33', phone_number: '612345678', password: admin.password } });
    assertError(res, 403, 'ADMIN_2FA_SETUP_REQUIRED', GATE_FIELDS);
    const rows = await t.container.db.selectFrom('login_attempts').select(['success', 'failure_reason']).where('user_id', '=', admin.id).execute();
    assert.deepEqual(rows, [{ success: false, failure_reason: 'admin_2fa_setup_required' }]);
  });

  it('gives nothing to a wrong password: 401 LOGIN_FAILED', async () => {
    const admin = await createUser(t, { is_superuser: true });
    assertError(await loginEmail(t, admin.email, 'not the password'), 401, 'LOGIN_FAILED');
  });

  it('the restricted token works on 2fa/* and is refused with 403 INSUFFICIENT_SCOPE elsewhere', async () => {
    const admin = await createUser(t, { is_superuser: true });
    const token = await gated(admin);
    assert.deepEqual(await status(t, token), { is_enabled: false, backup_codes_remaining: 0 });
    assertError(await t.api({ method: 'GET', path: 'me/', token }), 403, 'INSUFFICIENT_SCOPE');
    assertError(await t.api({ method: 'GET', path: 'me/roles/', token }), 403, 'INSUFFICIENT_SCOPE');
    assertError(await t.api({ method: 'GET', path: 'admin/users/', token }), 403, 'INSUFFICIENT_SCOPE');
    assertError(await post(t, 'logout/all/', token), 403, 'INSUFFICIENT_SCOPE');
    assertError(await post(t, 'password/change/', token, { current_password: admin.password, new_password: 'another long passphrase 42' }),
      403, 'INSUFFICIENT_SCOPE');
    await setUpWith(token);
    assert.deepEqual(await status(t, token), { is_enabled: true, backup_codes_remaining: 10 });
  });

  it('the restricted token works on logout/, which revokes it', async () => {
    const admin = await createUser(t, { is_staff: true });
    const token = await gated(admin);
    const res = await post(t, 'logout/', token, { refresh_token: 'none' });
    assert.equal(res.statusCode, 200, res.body);
    assertError(await t.api({ method: 'GET', path: '2fa/status/', token }), 401, 'TOKEN_BLACKLISTED');
  });

  it('the restricted token, which comes with no refresh token, is revoked by logout/ without one', async () => {
    const admin = await createUser(t, { is_staff: true });
    const token = await gated(admin);
    const res = await post(t, 'logout/', token, {});
    assert.equal(res.statusCode, 200, res.body);
    assertError(await t.api({ method: 'GET', path: '2fa/status/', token }), 401, 'TOKEN_BLACKLISTED');
  });

  it('the restricted token expires after 900 seconds', async () => {
    const admin = await createUser(t, { is_staff: true });
    const token = await gated(admin);
    t.clock.advance(901);
    assertError(await t.api({ method: 'GET', path: '2fa/status/', token }), 401, 'TOKEN_EXPIRED');
  });

  it('after 2FA is confirmed, a login with a code gives a full token', async () => {
    const admin = await createUser(t, { is_superuser: true });
    const secret = await setUpWith(await gated(admin));
    assertError(await loginEmail(t, admin.email, admin.password), 401, '2FA_REQUIRED', { requires_2fa: true });
    const res = await loginEmail(t, admin.email, admin.password, totpNow(t, secret));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().token_scope, undefined);
    assert.equal(decodeJwt(res.json().access_token).payload.scope, 'full');
    assert.equal((await t.api({ method: 'GET', path: 'me/', token: res.json().access_token })).statusCode, 200);
  });

  it('takes precedence over password_change_only; once 2FA is on, the next login gives password_change_only', async () => {
    const admin = await createUser(t, { is_staff: true, must_change_password: true });
    const secret = await setUpWith(await gated(admin));
    const res = await loginEmail(t, admin.email, admin.password, totpNow(t, secret));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().token_scope, 'password_change_only');
    assert.equal(res.json().must_change_password, true);
    assert.equal(decodeJwt(res.json().access_token).payload.scope, 'password_change_only');
  });

  it('applies at refresh to an account made an administrator after it signed in', async () => {
    const user = await createUser(t);
    const login = await loginEmail(t, user.email, user.password);
    assert.equal(login.statusCode, 200, login.body);
    await t.container.db.updateTable('users').set({ is_staff: true }).where('id', '=', user.id).execute();
    const refreshed = await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: login.json().refresh_token } });
    assert.equal(refreshed.statusCode, 200, refreshed.body);
    assert.equal(refreshed.json().token_scope, '2fa_setup_only');
    const token = refreshed.json().access_token as string;
    assert.equal(decodeJwt(token).payload.scope, '2fa_setup_only');
    assertError(await t.api({ method: 'GET', path: 'me/', token }), 403, 'INSUFFICIENT_SCOPE');
    assert.equal((await t.api({ method: 'GET', path: '2fa/status/', token })).statusCode, 200);
  });

  it('applies again once an admin turns 2FA off', async () => {
    const admin = await createUser(t, { is_superuser: true });
    const secret = await setUpWith(await gated(admin));
    const full = (await loginEmail(t, admin.email, admin.password, totpNow(t, secret))).json().access_token;
    t.clock.advance(30);
    const off = await post(t, '2fa/disable/', full, { code: totpNow(t, secret), password: admin.password });
    assert.equal(off.statusCode, 200, off.body);
    await gated(admin);
  });
});
