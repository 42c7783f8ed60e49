import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { signIn } from '../../factories/sessions.js';
import { createUser, userRow, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertError, assertValidation } from '../auth/assertions.js';
import { clearInbox, lastEmailCode, lastSmsCode, otherCode } from '../otp/helpers.js';

const PHONE = '+33612345678';
const PHONE_PAIR = { phone_country_code: '+33', phone_number: '612345678' };
const NEW_PASSWORD = 'violet submarine orchestra';

describe('password reset', () => {
  const t = useTestApp({ env: { SVC_PASSWORD_HISTORY: '2' } });
  let user: TestUser;
  beforeEach(async () => {
    clearInbox(t);
    user = await createUser(t, { email: 'ann@example.com', phone: PHONE, first_name: 'Annabel' });
  });

  const requestReset = (payload: Record<string, unknown>) => t.api({ method: 'POST', path: 'password/reset/request/', payload });
  const confirm = (payload: Record<string, unknown>) => t.api({ method: 'POST', path: 'password/reset/confirm/', payload });
  const login = (password: string) => t.api({ method: 'POST', path: 'login/email/', payload: { email: user.email, password } });
  const emailCode = async () => {
    assert.equal((await requestReset({ email: 'ann@example.com' })).statusCode, 200);
    return lastEmailCode(t, 'ann@example.com');
  };

  describe('POST password/reset/request/', () => {
    it('emails a reset code and answers {message, otp_id, expires_at, channel}', async () => {
      const res = await requestReset({ email: 'Ann@Example.com' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(Object.keys(res.json()).sort(), ['channel', 'expires_at', 'message', 'otp_id']);
      assert.equal(res.json().channel, 'email');
      assert.equal(res.json().expires_at, new Date(t.clock.now().getTime() + 600_000).toISOString());
      await t.container.services.outbox.flush();
      const mail = t.container.inbox.emails.at(-1)!;
      assert.equal(mail.subject, 'Reset your password');
      assert.match(await lastEmailCode(t, 'ann@example.com'), /^\d{6}$/);
    });

    it('sends the code by SMS for a phone pair', async () => {
      const res = await requestReset(PHONE_PAIR);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().channel, 'sms');
      assert.match(await lastSmsCode(t, PHONE), /^\d{6}$/);
    });

    it('answers unknown, banned and inactive accounts with the same shape and sends nothing', async () => {
      const known = (await requestReset({ email: 'ann@example.com' })).json();
      await createUser(t, { email: 'banned@example.com', is_banned: true });
      await createUser(t, { email: 'inactive@example.com', is_active: false });
      await t.container.services.outbox.flush();
      const sentBefore = t.container.inbox.emails.length;
      for (const email of ['nobody@example.com', 'banned@example.com', 'inactive@example.com']) {
        const res = await requestReset({ email });
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json();
        assert.deepEqual(Object.keys(body).sort(), Object.keys(known).sort());
        assert.equal(body.message, known.message);
        assert.equal(body.channel, 'email');
        assert.equal(body.expires_at, known.expires_at);
        assert.match(body.otp_id, /^[0-9a-f-]{36}$/);
      }
      const phone = await requestReset({ phone_country_code: '+33', phone_number: '698765432' });
      assert.equal(phone.json().channel, 'sms');
      await t.container.services.outbox.flush();
      assert.equal(t.container.inbox.emails.length, sentBefore);
      assert.equal(t.container.inbox.sms.length, 0);
    });

    it('answers 400 VALIDATION_ERROR with details.non_field_errors when neither email nor phone is given', async () => {
      assertValidation(await requestReset({}), 'non_field_errors');
      assertValidation(await requestReset({ email: '' }), 'non_field_errors');
      assertValidation(await requestReset({ email: 'not-an-email' }), 'email');
      assertValidation(await requestReset({ phone_country_code: '+33' }), 'phone_number');
    });
  });

  describe('POST password/reset/confirm/', () => {
    it('sets the new password, ends every session and answers {message, tokens_revoked, password_safe}', async () => {
      const a = await signIn(t, user);
      const b = await signIn(t, user);
      const code = await emailCode();
      const res = await confirm({ email: 'ann@example.com', otp_code: code, new_password: NEW_PASSWORD });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(Object.keys(res.json()).sort(), ['message', 'password_safe', 'tokens_revoked']);
      assert.equal(res.json().tokens_revoked, 2);
      // The development preset does not consult the range API, so safety is not confirmed.
      assert.equal(res.json().password_safe, false);
      for (const s of [a, b]) {
        assertError(await t.api({ method: 'GET', path: 'me/', token: s.access_token }), 401, 'TOKEN_BLACKLISTED');
        assertError(await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: s.refresh_token } }), 401, 'REFRESH_FAILED');
      }
      assertError(await login(user.password!), 401, 'LOGIN_FAILED');
      assert.equal((await login(NEW_PASSWORD)).statusCode, 200);
    });

    it('resets by phone with the SMS code', async () => {
      assert.equal((await requestReset(PHONE_PAIR)).statusCode, 200);
      const code = await lastSmsCode(t, PHONE);
      const res = await confirm({ ...PHONE_PAIR, otp_code: code, new_password: NEW_PASSWORD });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await login(NEW_PASSWORD)).statusCode, 200);
    });

    it('answers 401 OTP_EXPIRED for wrong, expired, reused, other-purpose and other-account codes and unknown accounts', async () => {
      const code = await emailCode();
      const body = { email: 'ann@example.com', new_password: NEW_PASSWORD };
      assertError(await confirm({ ...body, otp_code: otherCode(code) }), 401, 'OTP_EXPIRED');
      assertError(await confirm({ ...body, email: 'nobody@example.com', otp_code: code }), 401, 'OTP_EXPIRED');

      const bob = await createUser(t, { email: 'bob@example.com' });
      assert.equal((await requestReset({ email: 'bob@example.com' })).statusCode, 200);
      const bobCode = await lastEmailCode(t, 'bob@example.com');
      assertError(await confirm({ ...body, otp_code: bobCode }), 401, 'OTP_EXPIRED');

      const token = (await signIn(t, user)).access_token;
      assert.equal((await t.api({ method: 'POST', path: 'otp/request/', token, payload: { otp_type: 'email' } })).statusCode, 200);
      const verification = await lastEmailCode(t, 'ann@example.com');
      assertError(await confirm({ ...body, otp_code: verification }), 401, 'OTP_EXPIRED');

      const fresh = await emailCode();
      assert.equal((await confirm({ ...body, otp_code: fresh })).statusCode, 200);
      assertError(await confirm({ ...body, otp_code: fresh, new_password: 'another fine passphrase' }), 401, 'OTP_EXPIRED');

      const late = await emailCode();
      t.clock.advance(601);
      assertError(await confirm({ ...body, otp_code: late, new_password: 'another fine passphrase' }), 401, 'OTP_EXPIRED');
      assert.equal((await userRow(t, bob.id)).password_hash !== null, true);
    });

    it('allows five attempts per code, then the code is dead', async () => {
      const code = await emailCode();
      const body = { email: 'ann@example.com', new_password: NEW_PASSWORD };
      for (let i = 0; i < 5; i++) assertError(await confirm({ ...body, otp_code: otherCode(code) }), 401, 'OTP_EXPIRED');
      assertError(await confirm({ ...body, otp_code: code }), 401, 'OTP_EXPIRED');
    });

    it('applies the password policy and history, keeping the code for a better password', async () => {
      const code = await emailCode();
      const body = { email: 'ann@example.com', otp_code: code };
      assertValidation(await confirm({ ...body, new_password: 'short' }), 'new_password');
      assertValidation(await confirm({ ...body, new_password: 'annabel and her secret' }), 'new_password');
      assertError(await confirm({ ...body, new_password: user.password }), 400, 'PASSWORD_REUSED');
      assert.equal((await confirm({ ...body, new_password: NEW_PASSWORD })).statusCode, 200);
    });

    it('does not sign in, and the second factor is still required at the next login', async () => {
      await t.container.db.updateTable('users').set({ is_2fa_enabled: true }).where('id', '=', user.id).execute();
      const code = await emailCode();
      const res = await confirm({ email: 'ann@example.com', otp_code: code, new_password: NEW_PASSWORD });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().access_token, undefined);
      const next = await login(NEW_PASSWORD);
      assertError(next, 401, '2FA_REQUIRED', { requires_2fa: true });
    });

    it('lets exactly one of 10 parallel confirmations of one code succeed', async () => {
      for (let round = 0; round < 3; round++) {
        const code = await emailCode();
        const answers = await Promise.all(Array.from({ length: 10 }, (_, i) =>
          confirm({ email: 'ann@example.com', otp_code: code, new_password: `violet submarine round ${round} ${i}` })));
        const statuses = answers.map((r) => r.statusCode).sort();
        assert.deepEqual(statuses, [200, ...Array(9).fill(401)], answers.map((r) => r.body).join('\n'));
      }
    });

    it('answers 400 validation for a missing code or password, and non_field_errors without an account', async () => {
      assertValidation(await confirm({ email: 'ann@example.com', new_password: NEW_PASSWORD }), 'otp_code');
      assertValidation(await confirm({ email: 'ann@example.com', otp_code: '123456' }), 'new_password');
      assertValidation(await confirm({ otp_code: '123456', new_password: NEW_PASSWORD }), 'non_field_errors');
      assertValidation(await confirm({ email: 'ann@example.com', otp_code: '1234567', new_password: NEW_PASSWORD }), 'otp_code');
    });
  });
});

describe('password reset throttling', () => {
  const t = useTestApp({ env: { SVC_DEBUG: 'false', SVC_RATE_LIMITING_ENABLED: 'true' }, reset: false });

  it('allows three reset requests an hour per client, then answers 429 with retry_after', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await t.api({ method: 'POST', path: 'password/reset/request/', payload: { email: `x${i}@example.com` } })).statusCode, 200);
    const limited = await t.api({ method: 'POST', path: 'password/reset/request/', payload: { email: 'x@example.com' } });
    assert.equal(limited.statusCode, 429, limited.body);
    assert.equal(limited.json().code, 'RATE_LIMITED');
    assert.ok(limited.json().retry_after > 0);
  });

  it('allows five confirmations a minute per client', async () => {
    const payload = { email: 'nobody@example.com', otp_code: '123456', new_password: 'violet submarine orchestra' };
    for (let i = 0; i < 5; i++) assert.equal((await t.api({ method: 'POST', path: 'password/reset/confirm/', payload })).statusCode, 401);
    assert.equal((await t.api({ method: 'POST', path: 'password/reset/confirm/', payload })).statusCode, 429);
  });
});
