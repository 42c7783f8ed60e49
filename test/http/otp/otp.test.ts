import assert from 'node:assert/strict';
import { after, beforeEach, describe, it } from 'node:test';
import { signIn } from '../../factories/sessions.js';
import { createUser, userRow, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertError, assertValidation } from '../auth/assertions.js';
import { clearInbox, lastEmailCode, lastSmsCode, otherCode } from './helpers.js';

const PHONE = '+33612345678';

describe('one-time codes', () => {
  const t = useTestApp();
  let user: TestUser;
  let token: string;
  beforeEach(async () => {
    clearInbox(t);
    user = await createUser(t, { email: 'ann@example.com', phone: PHONE });
    token = (await signIn(t, user)).access_token;
  });

  const request = (otp_type: unknown, as = token) => t.api({ method: 'POST', path: 'otp/request/', token: as, payload: { otp_type } });
  const verifyEmail = (code: unknown, as = token) => t.api({ method: 'POST', path: 'otp/verify/email/', token: as, payload: { code } });
  const verifyPhone = (code: unknown, as = token) => t.api({ method: 'POST', path: 'otp/verify/phone/', token: as, payload: { code } });
  const emailCode = async (as = token, to = 'ann@example.com') => {
    assert.equal((await request('email', as)).statusCode, 200);
    return lastEmailCode(t, to);
  };

  describe('POST otp/request/', () => {
    it('answers {message, otp_id, expires_at, channel, masked_recipient} and emails a 6-digit code', async () => {
      const res = await request('email');
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), ['channel', 'expires_at', 'masked_recipient', 'message', 'otp_id']);
      assert.equal(body.channel, 'email');
      assert.equal(body.masked_recipient, 'a**@example.com');
      assert.equal(body.expires_at, new Date(t.clock.now().getTime() + 600_000).toISOString());
      assert.equal(typeof body.otp_id, 'string');
      assert.match(await lastEmailCode(t, 'ann@example.com'), /^\d{6}$/);
    });

    it('sends the phone code by SMS and masks all but the last four digits', async () => {
      const res = await request('phone');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().channel, 'sms');
      assert.equal(res.json().masked_recipient, '+*******5678');
      assert.match(await lastSmsCode(t, PHONE), /^\d{6}$/);
    });

    it('stores only an HMAC of the code, never the code itself', async () => {
      const code = await emailCode();
      const rows = await t.container.db.selectFrom('otp_codes').select(['code_hmac']).execute();
      assert.equal(rows.length, 1);
      assert.match(rows[0]!.code_hmac, /^[0-9a-f]{64}$/);
      assert.ok(!rows[0]!.code_hmac.includes(code));
    });

    it('answers 400 validation on otp_type when the account has no phone number', async () => {
      const emailOnly = await createUser(t, { email: 'bob@example.com' });
      assertValidation(await request('phone', (await signIn(t, emailOnly)).access_token), 'otp_type');
      await t.container.services.outbox.flush();
      assert.equal(t.container.inbox.sms.length, 0);
    });

    it('answers 400 validation on otp_type when the account has no email address', async () => {
      const phoneOnly = await createUser(t, { email: null, phone: '+33698765432' });
      const login = await t.api({ method: 'POST', path: 'login/phone/',
        payload: { phone_country_code: '+33', phone_number: '698765432', password: phoneOnly.password } });
      assert.equal(login.statusCode, 200, login.body);
      assertValidation(await request('email', login.json().access_token), 'otp_type');
      await t.container.services.outbox.flush();
      assert.equal(t.container.inbox.emails.length, 0);
    });

    it('answers 400 validation for a missing or unknown otp_type', async () => {
      assertValidation(await request('fax'), 'otp_type');
      assertValidation(await t.api({ method: 'POST', path: 'otp/request/', token, payload: {} }), 'otp_type');
    });

    it('answers 401 UNAUTHORIZED without a bearer token', async () => {
      assertError(await t.api({ method: 'POST', path: 'otp/request/', payload: { otp_type: 'email' } }), 401, 'UNAUTHORIZED');
    });

    it('writes the message in the language of the account', async () => {
      await t.container.db.updateTable('users').set({ language: 'fr' }).where('id', '=', user.id).execute();
      await emailCode();
      assert.match(t.container.inbox.emails.at(-1)!.text, /Votre code de vérification/);
    });
  });

  describe('POST otp/verify/email/', () => {
    it('answers {message, email_verified, verified_at} and marks the email address verified', async () => {
      const res = await verifyEmail(await emailCode());
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { message: res.json().message, email_verified: true, verified_at: t.clock.now().toISOString() });
      assert.equal(typeof res.json().message, 'string');
      assert.equal((await userRow(t, user.id)).is_email_verified, true);
    });

    it('answers 401 INVALID_OTP for a wrong code and leaves the address unverified', async () => {
      const code = await emailCode();
      assertError(await verifyEmail(otherCode(code)), 401, 'INVALID_OTP');
      assert.equal((await userRow(t, user.id)).is_email_verified, false);
    });

    it('answers 401 INVALID_OTP when no code was requested', async () => {
      assertError(await verifyEmail('123456'), 401, 'INVALID_OTP');
    });

    it('answers 401 INVALID_OTP for an expired code', async () => {
      const code = await emailCode();
      t.clock.advance(601);
      assertError(await verifyEmail(code), 401, 'INVALID_OTP');
    });

    it('accepts a code until the end of its lifetime', async () => {
      const code = await emailCode();
      t.clock.advance(599);
      assert.equal((await verifyEmail(code)).statusCode, 200);
    });

    it('answers 401 INVALID_OTP for a code already used', async () => {
      const code = await emailCode();
      assert.equal((await verifyEmail(code)).statusCode, 200);
      assertError(await verifyEmail(code), 401, 'INVALID_OTP');
    });

    it('answers 401 INVALID_OTP for a phone code (another purpose)', async () => {
      assert.equal((await request('phone')).statusCode, 200);
      assertError(await verifyEmail(await lastSmsCode(t, PHONE)), 401, 'INVALID_OTP');
      assert.equal((await userRow(t, user.id)).is_email_verified, false);
    });

    it('answers 401 INVALID_OTP for a code sent to another account', async () => {
      const bob = await createUser(t, { email: 'bob@example.com' });
      const bobToken = (await signIn(t, bob)).access_token;
      const bobCode = await emailCode(bobToken, 'bob@example.com');
      await emailCode();
      assertError(await verifyEmail(bobCode), 401, 'INVALID_OTP');
      assert.equal((await verifyEmail(bobCode, bobToken)).statusCode, 200);
    });

    it('invalidates an older code when a newer one is requested', async () => {
      const first = await emailCode();
      const second = await emailCode();
      if (first !== second) assertError(await verifyEmail(first), 401, 'INVALID_OTP');
      assert.equal((await verifyEmail(second)).statusCode, 200);
    });

    it('refuses even the right code after 5 wrong attempts', async () => {
      const code = await emailCode();
      for (let i = 0; i < 5; i++) assertError(await verifyEmail(otherCode(code)), 401, 'INVALID_OTP');
      assertError(await verifyEmail(code), 401, 'INVALID_OTP');
      assert.equal((await userRow(t, user.id)).is_email_verified, false);
    });

    it('accepts the right code on the fifth attempt', async () => {
      const code = await emailCode();
      for (let i = 0; i < 4; i++) assertError(await verifyEmail(otherCode(code)), 401, 'INVALID_OTP');
      assert.equal((await verifyEmail(code)).statusCode, 200);
    });

    it('does not verify an address that changed after the code was sent', async () => {
      const code = await emailCode();
      await t.container.db.updateTable('users').set({ email: 'ann.new@example.com' }).where('id', '=', user.id).execute();
      assertError(await verifyEmail(code), 401, 'INVALID_OTP');
      assert.equal((await userRow(t, user.id)).is_email_verified, false);
    });

    it('answers 400 validation for a code longer than 6 characters, empty or missing', async () => {
      assertValidation(await verifyEmail('1234567'), 'code');
      assertValidation(await verifyEmail(''), 'code');
      assertValidation(await t.api({ method: 'POST', path: 'otp/verify/email/', token, payload: {} }), 'code');
    });

    it('answers 401 UNAUTHORIZED without a bearer token', async () => {
      assertError(await t.api({ method: 'POST', path: 'otp/verify/email/', payload: { code: '123456' } }), 401, 'UNAUTHORIZED');
    });

    it('lets exactly one of 10 concurrent submissions of a valid code succeed (repeated)', async () => {
      for (let round = 0; round < 4; round++) {
        await t.container.db.updateTable('users').set({ is_email_verified: false }).where('id', '=', user.id).execute();
        const code = await emailCode();
        const answers = await Promise.all(Array.from({ length: 10 }, () => verifyEmail(code)));
        const statuses = answers.map((r) => r.statusCode);
        assert.equal(statuses.filter((s) => s === 200).length, 1, `round ${round}: ${statuses.join(',')}`);
        for (const r of answers.filter((a) => a.statusCode !== 200)) assertError(r, 401, 'INVALID_OTP');
      }
    });
  });

  describe('POST otp/verify/phone/', () => {
    it('answers {message, phone_verified, verified_at, phone_number} and marks the phone verified', async () => {
      assert.equal((await request('phone')).statusCode, 200);
      const res = await verifyPhone(await lastSmsCode(t, PHONE));
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), ['message', 'phone_number', 'phone_verified', 'verified_at']);
      assert.equal(body.phone_verified, true);
      assert.equal(body.phone_number, PHONE);
      assert.equal(body.verified_at, t.clock.now().toISOString());
      assert.equal((await userRow(t, user.id)).is_phone_verified, true);
    });

    it('answers 401 INVALID_OTP for an email code (another purpose)', async () => {
      assertError(await verifyPhone(await emailCode()), 401, 'INVALID_OTP');
      assert.equal((await userRow(t, user.id)).is_phone_verified, false);
    });

    it('answers 401 INVALID_OTP for a wrong, expired or reused code', async () => {
      assert.equal((await request('phone')).statusCode, 200);
      const code = await lastSmsCode(t, PHONE);
      assertError(await verifyPhone(otherCode(code)), 401, 'INVALID_OTP');
      assert.equal((await verifyPhone(code)).statusCode, 200);
      assertError(await verifyPhone(code), 401, 'INVALID_OTP');
      assert.equal((await request('phone')).statusCode, 200);
      const late = await lastSmsCode(t, PHONE);
      t.clock.advance(601);
      assertError(await verifyPhone(late), 401, 'INVALID_OTP');
    });

    it('answers 400 validation for a code longer than 6 characters', async () => {
      assertValidation(await verifyPhone('1234567'), 'code');
    });

    it('lets exactly one of 10 concurrent submissions of a valid code succeed (repeated)', async () => {
      for (let round = 0; round < 3; round++) {
        assert.equal((await request('phone')).statusCode, 200);
        const code = await lastSmsCode(t, PHONE);
        const statuses = (await Promise.all(Array.from({ length: 10 }, () => verifyPhone(code)))).map((r) => r.statusCode);
        assert.equal(statuses.filter((s) => s === 200).length, 1, `round ${round}: ${statuses.join(',')}`);
        assert.equal(statuses.filter((s) => s === 401).length, 9);
      }
    });
  });
});

describe('one-time code rate limits (outside debug)', () => {
  const t = useTestApp({ env: { SVC_DEBUG: 'false', SVC_RATE_LIMITING_ENABLED: 'true' } });
  let token: string;
  beforeEach(async () => {
    token = (await signIn(t, await createUser(t, { email: 'ann@example.com' }))).access_token;
  });

  it('answers 429 RATE_LIMITED with retry_after on the sixth otp/request/ within an hour', async () => {
    for (let i = 0; i < 5; i++) {
      assert.equal((await t.api({ method: 'POST', path: 'otp/request/', token, payload: { otp_type: 'email' } })).statusCode, 200);
    }
    const res = await t.api({ method: 'POST', path: 'otp/request/', token, payload: { otp_type: 'email' } });
    assert.equal(res.statusCode, 429, res.body);
    assert.equal(res.json().code, 'RATE_LIMITED');
    assert.ok(res.json().retry_after > 60 && res.json().retry_after <= 3600);
  });

  it('answers 429 RATE_LIMITED with retry_after on the sixth verification within a minute, email and phone counted together', async () => {
    for (let i = 0; i < 5; i++) {
      assert.equal((await t.api({ method: 'POST', path: 'otp/verify/email/', token, payload: { code: '000000' } })).statusCode, 401);
    }
    const res = await t.api({ method: 'POST', path: 'otp/verify/phone/', token, payload: { code: '000000' } });
    assert.equal(res.statusCode, 429, res.body);
    assert.ok(res.json().retry_after >= 1 && res.json().retry_after <= 60);
  });
});
