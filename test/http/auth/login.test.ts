import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createArgon2Hasher } from '../../../src/security/password-hash.js';
import { assignRole, createPermission, createRole } from '../../factories/rbac.js';
import { decodeJwt } from '../../factories/sessions.js';
import { createUser, DEFAULT_PASSWORD, userRow } from '../../factories/users.js';
import { useTestApp, type TestApp } from '../../helpers/test-app.js';
import { assertError, assertValidation, TOKEN_RESPONSE_FIELDS, USER_FIELDS } from './assertions.js';

const loginEmail = (t: TestApp, payload: Record<string, unknown>) => t.api({ method: 'POST', path: 'login/email/', payload });
const loginPhone = (t: TestApp, payload: Record<string, unknown>) => t.api({ method: 'POST', path: 'login/phone/', payload });

const LOGIN_FAILED = { error: 'Invalid credentials', code: 'LOGIN_FAILED' };

describe('password logins', () => {
  const t = useTestApp();

  it('logs in by email and answers the documented token response', async () => {
    const user = await createUser(t, { email: 'ann@example.com', first_name: 'Ann' });
    const res = await loginEmail(t, { email: 'ann@example.com', password: DEFAULT_PASSWORD,
      device_info: 'v=1|os=macOS 14.5|device=MacBook Pro|app=Acme 2.1' });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), TOKEN_RESPONSE_FIELDS);
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 3600);
    assert.equal(body.refresh_expires_in, t.container.config.JWT_REFRESH_TOKEN_LIFETIME);
    assert.equal(body.device_summary, 'Acme 2.1 on MacBook Pro (macOS 14.5)');
    assert.equal(body.must_change_password, false);
    assert.equal(body.requires_2fa, false);
    assert.equal(body.token_scope, undefined);
    assert.equal(typeof body.refresh_token, 'string');
    assert.equal(decodeJwt(body.access_token).payload.scope, 'full');
    const session = await t.container.db.selectFrom('sessions').select(['id', 'device_id', 'user_id']).executeTakeFirstOrThrow();
    assert.equal(body.session_id, String(session.id));
    assert.equal(body.device_id, session.device_id);
    assert.equal(session.user_id, user.id);
    assert.deepEqual(Object.keys(body.user).sort(), USER_FIELDS);
    assert.equal(body.user.id, String(user.id));
    assert.equal(body.user.email, 'ann@example.com');
    assert.equal(body.user.first_name, 'Ann');
    assert.deepEqual(body.user.roles, ['user']);
    assert.deepEqual(body.user.permissions, []);
  });

  it('answers the role and permission codes of the user', async () => {
    const user = await createUser(t);
    await createPermission(t.container.db, 'reports.view');
    await createRole(t.container.db, 'analyst', ['reports.view', 'users.view']);
    await assignRole(t.container.db, user.id, 'analyst');
    const res = await loginEmail(t, { email: user.email, password: user.password });
    assert.deepEqual(res.json().user.roles, ['analyst', 'user']);
    assert.deepEqual(res.json().user.permissions, ['reports.view', 'users.view']);
  });

  it('sets last_login to the time of the login', async () => {
    const user = await createUser(t);
    t.clock.advance(120);
    const res = await loginEmail(t, { email: user.email, password: user.password });
    assert.equal(res.json().user.last_login, t.clock.now().toISOString());
    assert.equal((await userRow(t, user.id)).last_login?.toISOString(), t.clock.now().toISOString());
  });

  it('logs in by email typed in another case and with spaces', async () => {
    await createUser(t, { email: 'ann@example.com' });
    const res = await loginEmail(t, { email: '  ANN@Example.com ', password: DEFAULT_PASSWORD });
    assert.equal(res.statusCode, 200, res.body);
  });

  it('logs in by phone', async () => {
    const user = await createUser(t, { email: null, phone: '+14155552671' });
    const res = await loginPhone(t, { phone_country_code: '+1', phone_number: '4155552671', password: DEFAULT_PASSWORD });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(Object.keys(res.json()).sort(), TOKEN_RESPONSE_FIELDS);
    assert.equal(res.json().user.id, String(user.id));
    assert.equal(res.json().user.phone, '+14155552671');
  });

  it('answers byte-identical 401 LOGIN_FAILED bodies for an unknown account and a wrong password', async () => {
    await createUser(t, { email: 'ann@example.com' });
    const wrong = await loginEmail(t, { email: 'ann@example.com', password: 'not the password' });
    const unknown = await loginEmail(t, { email: 'nobody@example.com', password: 'not the password' });
    assert.equal(wrong.statusCode, 401);
    assert.deepEqual(wrong.json(), LOGIN_FAILED);
    assert.equal(unknown.statusCode, 401);
    assert.equal(unknown.body, wrong.body);
    assert.equal(unknown.headers['content-type'], wrong.headers['content-type']);
  });

  it('answers the same 401 LOGIN_FAILED by phone for an unknown number and a wrong password', async () => {
    await createUser(t, { email: null, phone: '+14155552671' });
    const wrong = await loginPhone(t, { phone_country_code: '+1', phone_number: '4155552671', password: 'not the password' });
    const unknown = await loginPhone(t, { phone_country_code: '+1', phone_number: '4155552672', password: DEFAULT_PASSWORD });
    assert.deepEqual(wrong.json(), LOGIN_FAILED);
    assert.equal(unknown.body, wrong.body);
  });

  for (const [state, overrides] of [
    ['an inactive', { is_active: false }],
    ['a banned', { is_banned: true }],
    ['a deleted', { deleted_at: new Date('2020-01-01T00:00:00Z') }],
  ] as const) {
    it(`answers the same 401 LOGIN_FAILED for ${state} account with the right password`, async () => {
      const user = await createUser(t, overrides);
      const res = await loginEmail(t, { email: user.email, password: user.password });
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.json(), LOGIN_FAILED);
      assert.equal(await t.container.db.selectFrom('sessions').select('id').executeTakeFirst(), undefined);
    });
  }

  it('answers 401 LOGIN_FAILED for a passwordless account, whatever the password', async () => {
    const user = await createUser(t, { password: null });
    assert.equal((await userRow(t, user.id)).has_usable_password, false);
    for (const password of [DEFAULT_PASSWORD, 'anything at all']) {
      const res = await loginEmail(t, { email: user.email, password });
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.json(), LOGIN_FAILED);
    }
  });

  it('answers 401 LOGIN_FAILED when the stored hash is not usable even if it matches', async () => {
    const hash = await t.container.hasher.hash(DEFAULT_PASSWORD);
    const user = await createUser(t, { password_hash: hash, has_usable_password: false });
    const res = await loginEmail(t, { email: user.email, password: DEFAULT_PASSWORD });
    assert.deepEqual(res.json(), LOGIN_FAILED);
  });

  it('answers 413 for a 1 MB password, before any password check', async () => {
    const user = await createUser(t);
    const res = await loginEmail(t, { email: user.email, password: 'p'.repeat(1024 * 1024) });
    assertError(res, 413, 'PAYLOAD_TOO_LARGE');
    assert.equal(await t.container.db.selectFrom('login_attempts').select('id').executeTakeFirst(), undefined);
  });

  it('answers 400 on password for a 2000-character password, before any password check', async () => {
    const user = await createUser(t);
    assertValidation(await loginEmail(t, { email: user.email, password: 'p'.repeat(2000) }), 'password');
    assert.equal(await t.container.db.selectFrom('login_attempts').select('id').executeTakeFirst(), undefined);
  });

  it('answers 400, never a 500, for text PostgreSQL cannot store', async () => {
    const user = await createUser(t);
    // A body holding NUL anywhere is refused before it reaches any field (see the platform tests).
    assertValidation(await loginEmail(t, { email: 'a\u0000b@example.com', password: 'whatever' }), 'non_field_errors');
    assertValidation(await loginEmail(t, { email: user.email, password: user.password, device_info: 'v=1|os=\u0000' }), 'non_field_errors');
    assertValidation(await loginPhone(t, { phone_country_code: '+1', phone_number: '415555267\u0000', password: DEFAULT_PASSWORD }),
      'non_field_errors');
    assertValidation(await loginEmail(t, { email: user.email, password: `${user.password}\u0000` }), 'non_field_errors');
  });

  it('answers 400 on each missing field', async () => {
    const res = await loginEmail(t, {});
    assertValidation(res, 'email');
    assertValidation(res, 'password');
  });

  it('answers 400 on email for a malformed address', async () => {
    assertValidation(await loginEmail(t, { email: 'not-an-email', password: DEFAULT_PASSWORD }), 'email');
  });

  it('answers 400 naming the phone field that is malformed', async () => {
    assertValidation(await loginPhone(t, { phone_country_code: '1', phone_number: '4155552671', password: DEFAULT_PASSWORD }),
      'phone_country_code');
    assertValidation(await loginPhone(t, { phone_country_code: '+999', phone_number: '4155552671', password: DEFAULT_PASSWORD }),
      'phone_country_code');
    for (const number of ['4155', '415555267x', '0000000000']) {
      const body = assertValidation(await loginPhone(t, { phone_country_code: '+1', phone_number: number, password: DEFAULT_PASSWORD }),
        'phone_number');
      assert.equal(body.details.phone_country_code, undefined);
    }
    assertValidation(await loginPhone(t, { phone_number: '4155552671', password: DEFAULT_PASSWORD }), 'phone_country_code');
  });

  it('gives an account flagged must_change_password a password_change_only token', async () => {
    const user = await createUser(t, { must_change_password: true });
    const res = await loginEmail(t, { email: user.email, password: user.password });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), [...TOKEN_RESPONSE_FIELDS, 'token_scope'].sort());
    assert.equal(body.token_scope, 'password_change_only');
    assert.equal(body.must_change_password, true);
    assert.equal(body.requires_2fa, false);
    assert.match(body.session_id, /^\d+$/);
    assert.match(body.device_id, /^[0-9a-f]{32}$/);
    assert.equal(decodeJwt(body.access_token).payload.scope, 'password_change_only');
  });

  it('refuses a password_change_only token on GET me/ with 403 INSUFFICIENT_SCOPE and accepts it on logout/all/', async () => {
    const user = await createUser(t, { must_change_password: true });
    const { access_token: token } = (await loginEmail(t, { email: user.email, password: user.password })).json();
    assertError(await t.api({ method: 'GET', path: 'me/', token }), 403, 'INSUFFICIENT_SCOPE');
    assertError(await t.api({ method: 'GET', path: 'me/roles/', token }), 403, 'INSUFFICIENT_SCOPE');
    assertError(await t.api({ method: 'PATCH', path: 'me/', token, payload: { first_name: 'X' } }), 403, 'INSUFFICIENT_SCOPE');
    const out = await t.api({ method: 'POST', path: 'logout/all/', token });
    assert.equal(out.statusCode, 200, out.body);
  });

  it('answers 401 2FA_REQUIRED with requires_2fa for a 2FA account without totp_code', async () => {
    const user = await createUser(t, { is_2fa_enabled: true });
    const res = await loginEmail(t, { email: user.email, password: user.password });
    assertError(res, 401, '2FA_REQUIRED', { requires_2fa: true });
    assert.equal(await t.container.db.selectFrom('sessions').select('id').executeTakeFirst(), undefined);
  });

  it('answers 401 LOGIN_FAILED, not 2FA_REQUIRED, for a 2FA account with a wrong password', async () => {
    const user = await createUser(t, { is_2fa_enabled: true });
    const res = await loginEmail(t, { email: user.email, password: 'not the password' });
    assert.deepEqual(res.json(), LOGIN_FAILED);
  });

  it('re-hashes a password stored with other argon2 parameters on login', async () => {
    const legacy = await createArgon2Hasher({ memoryCost: 512, timeCost: 1, parallelism: 1 }, 1);
    const user = await createUser(t, { password_hash: await legacy.hash(DEFAULT_PASSWORD) });
    assert.match((await userRow(t, user.id)).password_hash!, /^\$argon2id\$v=19\$m=512,t=1,p=1\$/);
    assert.equal((await loginEmail(t, { email: user.email, password: DEFAULT_PASSWORD })).statusCode, 200);
    const rehashed = (await userRow(t, user.id)).password_hash!;
    assert.match(rehashed, /^\$argon2id\$v=19\$m=256,t=1,p=1\$/);
    assert.equal(t.container.hasher.needsRehash(rehashed), false);
    assert.equal((await loginEmail(t, { email: user.email, password: DEFAULT_PASSWORD })).statusCode, 200);
    assert.equal((await userRow(t, user.id)).password_hash, rehashed, 'a current hash is left alone');
  });

  it('keeps a hash with other parameters when the password is wrong', async () => {
    const legacy = await createArgon2Hasher({ memoryCost: 512, timeCost: 1, parallelism: 1 }, 1);
    const stored = await legacy.hash(DEFAULT_PASSWORD);
    const user = await createUser(t, { password_hash: stored });
    assert.equal((await loginEmail(t, { email: user.email, password: 'not the password' })).statusCode, 401);
    assert.equal((await userRow(t, user.id)).password_hash, stored);
  });
});

describe('password logins with forced password change off', () => {
  const t = useTestApp({ env: { SVC_FORCE_PASSWORD_CHANGE_ON_FIRST_LOGIN_ENABLED: 'false' } });

  it('gives an account flagged must_change_password a full token', async () => {
    const user = await createUser(t, { must_change_password: true });
    const res = await loginEmail(t, { email: user.email, password: user.password });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.token_scope, undefined);
    assert.equal(body.must_change_password, true);
    assert.equal(decodeJwt(body.access_token).payload.scope, 'full');
    assert.equal((await t.api({ method: 'GET', path: 'me/', token: body.access_token })).statusCode, 200);
  });
});
