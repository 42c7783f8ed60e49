import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { decodeJwt, openSession, signIn } from '../../factories/sessions.js';
import { createUser, userRow } from '../../factories/users.js';
import { createTestApp, useTestApp } from '../../helpers/test-app.js';
import { assertError, assertValidation } from '../auth/assertions.js';
import { clearInbox, loginCodeFor, OTP_LOGIN_ON, otherCode, phoneParts, verifyLoginCode } from '../passwordless/helpers.js';

const PHONE = '+33612345678';
const CHOSEN = 'violet submarine orchestra';

describe('POST password/set-initial/', () => {
  const t = useTestApp({ env: OTP_LOGIN_ON });
  beforeEach(async () => {
    clearInbox(t);
  });

  const setInitial = (token: string, payload: Record<string, unknown>) =>
    t.api({ method: 'POST', path: 'password/set-initial/', token, payload });
  const passwordLogin = (password: string) =>
    t.api({ method: 'POST', path: 'login/phone/', payload: { ...phoneParts(PHONE), password } });

  /** A passwordless account made by phone-code login (auto-register), signed in by code. */
  async function passwordlessSignIn() {
    const code = await loginCodeFor(t, PHONE);
    const res = await verifyLoginCode(t, PHONE, code);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().user.has_usable_password, false);
    return res.json() as { access_token: string; user: { id: number } };
  }

  it('sets a first password with a fresh login code; the account then signs in by password and by code', async () => {
    const session = await passwordlessSignIn();
    const code = await loginCodeFor(t, PHONE);
    const res = await setInitial(session.access_token, { otp_code: code, new_password: CHOSEN });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(Object.keys(res.json()), ['message']);
    const row = await userRow(t, session.user.id);
    assert.equal(row.has_usable_password, true);
    assert.match(row.password_hash!, /^\$argon2id\$/);
    assert.equal((await passwordLogin(CHOSEN)).statusCode, 200);
    const again = await verifyLoginCode(t, PHONE, await loginCodeFor(t, PHONE));
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().user.has_usable_password, true);
    assert.equal((await t.api({ method: 'GET', path: 'me/', token: session.access_token })).statusCode, 200, 'the session goes on');
  });

  it('answers 400 ALREADY_HAS_PASSWORD for an account with a password', async () => {
    const user = await createUser(t, { phone: PHONE });
    const { access_token } = await signIn(t, user);
    assertError(await setInitial(access_token, { otp_code: '123456', new_password: CHOSEN }), 400, 'ALREADY_HAS_PASSWORD');
  });

  it('answers 400 OTP_REQUIRED without a live login code, and 400 OTP_INVALID naming the attempts left', async () => {
    const session = await passwordlessSignIn();
    assertError(await setInitial(session.access_token, { otp_code: '123456', new_password: CHOSEN }), 400, 'OTP_REQUIRED');
    const code = await loginCodeFor(t, PHONE);
    const wrong = await setInitial(session.access_token, { otp_code: otherCode(code), new_password: CHOSEN });
    assertError(wrong, 400, 'OTP_INVALID');
    assert.match(wrong.json().error, /4 attempts remaining/);
    assert.equal((await setInitial(session.access_token, { otp_code: code, new_password: CHOSEN })).statusCode, 200);
  });

  it('applies the password policy before the code, which stays usable', async () => {
    const session = await passwordlessSignIn();
    const code = await loginCodeFor(t, PHONE);
    assertValidation(await setInitial(session.access_token, { otp_code: code, new_password: 'short' }), 'new_password');
    assertValidation(await setInitial(session.access_token, { otp_code: code, new_password: 'password123' }), 'new_password');
    assertValidation(await setInitial(session.access_token, { new_password: CHOSEN }), 'otp_code');
    assert.equal((await setInitial(session.access_token, { otp_code: code, new_password: CHOSEN })).statusCode, 200);
  });

  it('answers 404 FEATURE_DISABLED when phone-code login is off', async () => {
    const off = await createTestApp();
    try {
      const user = await createUser(off, { password: null });
      const { access_token } = await openSession(off, user.id);
      assertError(await off.api({ method: 'POST', path: 'password/set-initial/', token: access_token,
        payload: { otp_code: '123456', new_password: CHOSEN } }), 404, 'FEATURE_DISABLED', { details: { setting: 'SVC_OTP_LOGIN_ENABLED' } });
    } finally {
      await off.close();
    }
  });

  it('takes a password_change_only token: the provisioned passwordless account leaves the forced flow with a full pair', async () => {
    // A forced password change for an account invited without a password (must_change_password=true).
    const invited = await createUser(t, { email: 'invited@example.com', phone: PHONE, password: null, must_change_password: true });
    const login = await verifyLoginCode(t, PHONE, await loginCodeFor(t, PHONE));
    assert.equal(login.statusCode, 200, login.body);
    assert.equal(login.json().must_change_password, true);
    assert.equal(login.json().token_scope, 'password_change_only');
    const restricted = login.json().access_token as string;
    assertError(await t.api({ method: 'GET', path: 'me/', token: restricted }), 403, 'INSUFFICIENT_SCOPE');
    assertError(await t.api({ method: 'POST', path: 'password/change/', token: restricted,
      payload: { current_password: 'anything', new_password: CHOSEN } }), 400, 'PASSWORDLESS_ACCOUNT_USE_SET_INITIAL_PASSWORD');

    const res = await setInitial(restricted, { otp_code: await loginCodeFor(t, PHONE), new_password: CHOSEN });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(Object.keys(res.json()).sort(), ['access_token', 'expires_in', 'message', 'refresh_expires_in',
      'refresh_token', 'token_type']);
    assert.equal(decodeJwt(res.json().access_token).payload.scope, 'full');
    assert.equal((await t.api({ method: 'GET', path: 'me/', token: res.json().access_token })).statusCode, 200);
    assert.equal((await userRow(t, invited.id)).must_change_password, false);

    const next = await t.api({ method: 'POST', path: 'login/email/', payload: { email: 'invited@example.com', password: CHOSEN } });
    assert.equal(next.statusCode, 200, next.body);
    assert.equal(next.json().token_scope, undefined);
    assert.equal(next.json().must_change_password, false);
  });
});
