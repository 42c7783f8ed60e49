import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { isAppError } from '../../../src/core/errors.js';
import { createUser, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertError } from '../auth/assertions.js';
import { clearInbox, loginCodeFor, OTP_LOGIN_ON, otherCode, phoneParts, verifyLoginCode } from './helpers.js';

const PHONE = '+33612345678';

// The apps of the describes below share one database; holding it here avoids reopening it for each.

describe('passwordless feature switches', () => {
  const t = useTestApp({ reset: false });

  it('answers 404 FEATURE_DISABLED, naming its switch, on every passwordless route while the switch is off', async () => {
    const calls = [
      t.api({ method: 'POST', path: 'login/otp/request/', payload: phoneParts(PHONE) }),
      t.api({ method: 'POST', path: 'login/otp/verify/', payload: { ...phoneParts(PHONE), otp_code: '123456' } }),
      t.api({ method: 'POST', path: 'magic-link/request/', payload: { email: 'ann@example.com', validation_url: 'http://localhost:3000/callback' } }),
      t.api({ method: 'GET', path: 'magic-link/verify/?token=abc' }),
      // The switch is checked before the body.
      t.api({ method: 'POST', path: 'login/otp/verify/', payload: {} }),
      t.api({ method: 'GET', path: 'magic-link/verify/' }),
    ];
    const settings = ['SVC_OTP_LOGIN_ENABLED', 'SVC_OTP_LOGIN_ENABLED', 'SVC_MAGIC_LINK_ENABLED', 'SVC_MAGIC_LINK_ENABLED',
      'SVC_OTP_LOGIN_ENABLED', 'SVC_MAGIC_LINK_ENABLED'];
    for (const [i, res] of (await Promise.all(calls)).entries()) {
      assertError(res, 404, 'FEATURE_DISABLED', { details: { setting: settings[i] } });
    }
    await t.container.services.outbox.flush();
    assert.equal(t.container.inbox.sms.length + t.container.inbox.emails.length, 0);
    assert.equal(await t.container.db.selectFrom('users').select('id').where('phone', '=', PHONE).executeTakeFirst(), undefined);
  });
});

describe('login codes without auto-registration', () => {
  const t = useTestApp({ env: { ...OTP_LOGIN_ON, SVC_OTP_LOGIN_AUTO_REGISTER: 'false' } });
  beforeEach(async () => {
    clearInbox(t);
  });

  it('answers an unknown phone with the same shape, creates no account and sends nothing', async () => {
    await createUser(t, { phone: '+33698765432' });
    const known = await t.api({ method: 'POST', path: 'login/otp/request/', payload: phoneParts('+33698765432') });
    const unknown = await t.api({ method: 'POST', path: 'login/otp/request/', payload: phoneParts(PHONE) });
    assert.equal(unknown.statusCode, 200, unknown.body);
    assert.deepEqual(Object.keys(unknown.json()).sort(), Object.keys(known.json()).sort());
    assert.equal(unknown.json().channel, 'sms');
    assert.equal(unknown.json().message, known.json().message);
    assert.equal(unknown.json().expires_at, known.json().expires_at);
    assert.notEqual(unknown.json().otp_id, known.json().otp_id);
    assert.match(unknown.json().otp_id, /^[0-9a-f-]{36}$/);
    await t.container.services.outbox.flush();
    assert.deepEqual(t.container.inbox.sms.map((m) => m.to), ['+33698765432']);
    assert.equal(await t.container.db.selectFrom('users').select('id').where('phone', '=', PHONE).executeTakeFirst(), undefined);
  });

  it('still signs in an existing account', async () => {
    await createUser(t, { phone: PHONE });
    assert.equal((await verifyLoginCode(t, PHONE, await loginCodeFor(t, PHONE))).statusCode, 200);
  });
});

describe('the login code as proof for password/set-initial/', () => {
  const t = useTestApp({ env: OTP_LOGIN_ON });
  let user: TestUser;
  beforeEach(async () => {
    clearInbox(t);
    user = await createUser(t, { email: null, phone: PHONE, password: null });
  });

  const consume = (code: string) => t.container.services.otpLogin.consumeLoginCodeForSetInitial(user.id, code);
  const rejection = (code: string, status: number, message?: RegExp) => (err: unknown) => {
    assert.ok(isAppError(err), String(err));
    assert.equal(err.code, code);
    assert.equal(err.status, status);
    if (message) assert.match(err.message, message);
    return true;
  };

  it('throws 400 OTP_REQUIRED when the account has no live login code', async () => {
    await assert.rejects(consume('123456'), rejection('OTP_REQUIRED', 400));
    await loginCodeFor(t, PHONE);
    t.clock.advance(601);
    await assert.rejects(consume('123456'), rejection('OTP_REQUIRED', 400));
  });

  it('throws 400 OTP_INVALID naming the attempts left for a wrong code', async () => {
    const code = await loginCodeFor(t, PHONE);
    await assert.rejects(consume(otherCode(code)), rejection('OTP_INVALID', 400, /^Invalid code\. 4 attempts remaining\.$/));
    await assert.rejects(consume(otherCode(code)), rejection('OTP_INVALID', 400, /\b3 attempts remaining/));
    await assert.rejects(consume(otherCode(code)), rejection('OTP_INVALID', 400, /\b2 attempts remaining/));
    await assert.rejects(consume(otherCode(code)), rejection('OTP_INVALID', 400, /\b1 attempt remaining/));
    await assert.rejects(consume(otherCode(code)), rejection('OTP_INVALID', 400, /\b0 attempts remaining/));
    await assert.rejects(consume(code), rejection('OTP_INVALID', 400, /\b0 attempts remaining/));
  });

  it('consumes the right code once', async () => {
    const code = await loginCodeFor(t, PHONE);
    await consume(code);
    await assert.rejects(consume(code), rejection('OTP_REQUIRED', 400));
    assertError(await verifyLoginCode(t, PHONE, code), 401, 'OTP_INVALID');
  });

  it('does not accept the login code of another account', async () => {
    await createUser(t, { email: null, phone: '+33698765432', password: null });
    const mine = await loginCodeFor(t, PHONE);
    const theirs = await loginCodeFor(t, '+33698765432');
    if (theirs !== mine) await assert.rejects(consume(theirs), rejection('OTP_INVALID', 400, /\b4 attempts remaining/));
    await consume(mine);
  });
});
