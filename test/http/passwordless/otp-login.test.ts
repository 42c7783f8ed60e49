import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { signIn } from '../../factories/sessions.js';
import { enableTotp } from '../../factories/twofactor.js';
import { createUser, userRow } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertError, assertValidation, TOKEN_RESPONSE_FIELDS, USER_FIELDS } from '../auth/assertions.js';
import {
  clearInbox, inParallel, lastSmsCode, loginCodeFor, OTP_LOGIN_ON, otherCode, phoneParts, requestLoginCode, verifyLoginCode,
} from './helpers.js';

const PHONE = '+33612345678';
const OTHER_PHONE = '+33698765432';

describe('passwordless phone login', () => {
  const t = useTestApp({ env: OTP_LOGIN_ON });
  beforeEach(async () => {
    clearInbox(t);
  });

  const smsTo = async (phone: string) => {
    await t.container.services.outbox.flush();
    return t.container.inbox.sms.filter((m) => m.to === phone);
  };
  const attempts = () => t.container.db.selectFrom('login_attempts').select(['identifier', 'method', 'success', 'failure_reason'])
    .orderBy('id').execute();

  describe('POST login/otp/request/', () => {
    it('answers {message, otp_id, expires_at, channel: sms} and texts a 6-digit code to the account phone', async () => {
      await createUser(t, { phone: PHONE });
      const res = await requestLoginCode(t, PHONE);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), ['channel', 'expires_at', 'message', 'otp_id']);
      assert.equal(body.channel, 'sms');
      assert.equal(typeof body.message, 'string');
      assert.equal(body.expires_at, new Date(t.clock.now().getTime() + 600_000).toISOString());
      const [row] = await t.container.db.selectFrom('otp_codes').select(['id', 'purpose', 'channel', 'recipient']).execute();
      assert.deepEqual(row, { id: body.otp_id, purpose: 'login', channel: 'sms', recipient: PHONE });
      assert.match(await lastSmsCode(t, PHONE), /^\d{6}$/);
    });

    it('answers 400 validation per phone field', async () => {
      assertValidation(await t.api({ method: 'POST', path: 'login/otp/request/', payload: { phone_country_code: '+33' } }), 'phone_number');
      assertValidation(await t.api({ method: 'POST', path: 'login/otp/request/', payload: { phone_number: '612345678' } }),
        'phone_country_code');
      assertValidation(await t.api({ method: 'POST', path: 'login/otp/request/',
        payload: { phone_country_code: '33', phone_number: '612345678' } }), 'phone_country_code');
      assertValidation(await t.api({ method: 'POST', path: 'login/otp/request/',
        payload: { phone_country_code: '+33', phone_number: '12ab' } }), 'phone_number');
      assert.equal((await smsTo(PHONE)).length, 0);
    });

    it('creates a passwordless account for an unknown phone and texts it a code', async () => {
      const res = await requestLoginCode(t, PHONE);
      assert.equal(res.statusCode, 200, res.body);
      const row = await t.container.db.selectFrom('users').selectAll().where('phone', '=', PHONE).executeTakeFirstOrThrow();
      assert.equal(row.email, null);
      assert.equal(row.password_hash, null);
      assert.equal(row.has_usable_password, false);
      assert.equal(row.must_change_password, false);
      assert.equal(row.is_phone_verified, false);
      assert.equal((await smsTo(PHONE)).length, 1);
    });

    it('texts a second code to an account it created, rather than creating another', async () => {
      await requestLoginCode(t, PHONE);
      await requestLoginCode(t, PHONE);
      const rows = await t.container.db.selectFrom('users').select('id').where('phone', '=', PHONE).execute();
      assert.equal(rows.length, 1);
      assert.equal((await smsTo(PHONE)).length, 2);
    });

    it('retires the older code when a new one is requested', async () => {
      await createUser(t, { phone: PHONE });
      const first = await loginCodeFor(t, PHONE);
      const second = await loginCodeFor(t, PHONE);
      if (first !== second) assertError(await verifyLoginCode(t, PHONE, first), 401, 'OTP_INVALID');
      assert.equal((await verifyLoginCode(t, PHONE, second)).statusCode, 200);
    });

    for (const [label, state] of [['banned', { is_banned: true }], ['inactive', { is_active: false }],
      ['deleted', { deleted_at: new Date('2026-01-01T00:00:00Z') }]] as const) {
      it(`answers the same shape and sends no SMS for an account that is ${label}`, async () => {
        await createUser(t, { phone: PHONE, ...state });
        const res = await requestLoginCode(t, PHONE);
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(Object.keys(res.json()).sort(), ['channel', 'expires_at', 'message', 'otp_id']);
        assert.equal(res.json().expires_at, new Date(t.clock.now().getTime() + 600_000).toISOString());
        assert.equal((await smsTo(PHONE)).length, 0);
        assert.equal((await t.container.db.selectFrom('otp_codes').select('id').execute()).length, 0);
      });
    }
  });

  describe('POST login/otp/verify/', () => {
    it('answers the token response with has_usable_password and sets is_phone_verified', async () => {
      const user = await createUser(t, { email: null, phone: PHONE, password: null });
      const res = await verifyLoginCode(t, PHONE, await loginCodeFor(t, PHONE), { device_info: 'v=1|os=Android 14|device=Pixel 8' });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), TOKEN_RESPONSE_FIELDS);
      assert.deepEqual(Object.keys(body.user).sort(), [...USER_FIELDS, 'has_usable_password'].sort());
      assert.equal(body.token_type, 'Bearer');
      assert.equal(body.requires_2fa, false);
      assert.equal(body.must_change_password, false);
      assert.equal(typeof body.session_id, 'string');
      assert.equal(typeof body.device_id, 'string');
      assert.equal(body.user.id, String(user.id));
      assert.equal(body.user.phone, PHONE);
      assert.equal(body.user.has_usable_password, false);
      assert.equal(body.user.is_phone_verified, true);
      assert.equal((await userRow(t, user.id)).is_phone_verified, true);
      const me = await t.api({ method: 'GET', path: 'me/', token: body.access_token });
      assert.equal(me.statusCode, 200, me.body);
      assert.deepEqual(await attempts(), [{ identifier: PHONE, method: 'otp', success: true, failure_reason: null }]);
    });

    it('signs in an account that has a password and a verified phone (has_usable_password true)', async () => {
      await createUser(t, { phone: PHONE, verified: true });
      const res = await verifyLoginCode(t, PHONE, await loginCodeFor(t, PHONE));
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().user.has_usable_password, true);
    });

    it('signs in an account created by the request', async () => {
      const res = await verifyLoginCode(t, PHONE, await loginCodeFor(t, PHONE));
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().user.has_usable_password, false);
      assert.equal(res.json().user.email, null);
      assert.equal(res.json().token_scope, undefined);
    });

    it('answers 401 OTP_INVALID for an unknown phone, as for a wrong code', async () => {
      const unknown = assertError(await verifyLoginCode(t, OTHER_PHONE, '123456'), 401, 'OTP_INVALID');
      await createUser(t, { phone: PHONE });
      const code = await loginCodeFor(t, PHONE);
      const wrong = assertError(await verifyLoginCode(t, PHONE, otherCode(code)), 401, 'OTP_INVALID');
      assert.deepEqual(unknown, wrong);
      assert.deepEqual((await attempts()).map((a) => [a.method, a.success, a.failure_reason]),
        [['otp', false, 'invalid_code'], ['otp', false, 'invalid_code']]);
    });

    it('answers 401 OTP_INVALID for a wrong code and leaves the phone unverified', async () => {
      const user = await createUser(t, { phone: PHONE });
      const code = await loginCodeFor(t, PHONE);
      assertError(await verifyLoginCode(t, PHONE, otherCode(code)), 401, 'OTP_INVALID');
      assert.equal((await userRow(t, user.id)).is_phone_verified, false);
      assert.equal(await t.container.db.selectFrom('sessions').select('id').executeTakeFirst(), undefined);
    });

    it('answers 401 OTP_INVALID when no code was requested', async () => {
      await createUser(t, { phone: PHONE });
      assertError(await verifyLoginCode(t, PHONE, '123456'), 401, 'OTP_INVALID');
    });

    it('answers 401 OTP_INVALID for an expired code and accepts it until then', async () => {
      await createUser(t, { phone: PHONE });
      const code = await loginCodeFor(t, PHONE);
      t.clock.advance(601);
      assertError(await verifyLoginCode(t, PHONE, code), 401, 'OTP_INVALID');
      const fresh = await loginCodeFor(t, PHONE);
      t.clock.advance(599);
      assert.equal((await verifyLoginCode(t, PHONE, fresh)).statusCode, 200);
    });

    it('answers 401 OTP_INVALID for a code already used', async () => {
      await createUser(t, { phone: PHONE });
      const code = await loginCodeFor(t, PHONE);
      assert.equal((await verifyLoginCode(t, PHONE, code)).statusCode, 200);
      assertError(await verifyLoginCode(t, PHONE, code), 401, 'OTP_INVALID');
    });

    it('answers 401 OTP_INVALID for a verification code sent by otp/request/ (another purpose)', async () => {
      const user = await createUser(t, { email: 'ann@example.com', phone: PHONE });
      const login = await loginCodeFor(t, PHONE);
      const { access_token } = await signIn(t, user);
      for (const otp_type of ['phone', 'email'] as const) {
        const sent = await t.api({ method: 'POST', path: 'otp/request/', token: access_token, payload: { otp_type } });
        assert.equal(sent.statusCode, 200, sent.body);
      }
      const phoneCode = await lastSmsCode(t, PHONE);
      await t.container.services.outbox.flush();
      const emailCode = /\b(\d{6})\b/.exec(t.container.inbox.emails.at(-1)!.text)![1]!;
      if (phoneCode !== login) assertError(await verifyLoginCode(t, PHONE, phoneCode), 401, 'OTP_INVALID');
      if (emailCode !== login) assertError(await verifyLoginCode(t, PHONE, emailCode), 401, 'OTP_INVALID');
      assert.equal((await verifyLoginCode(t, PHONE, login)).statusCode, 200);
    });

    it('refuses even the right code after 5 attempts', async () => {
      await createUser(t, { phone: PHONE });
      const code = await loginCodeFor(t, PHONE);
      for (let i = 0; i < 5; i++) assertError(await verifyLoginCode(t, PHONE, otherCode(code)), 401, 'OTP_INVALID');
      assertError(await verifyLoginCode(t, PHONE, code), 401, 'OTP_INVALID');
    });

    it('answers 400 validation unless otp_code is 6 digits', async () => {
      await createUser(t, { phone: PHONE });
      for (const otp_code of ['12345', '1234567', '12345a', ' 123456', '']) {
        assertValidation(await verifyLoginCode(t, PHONE, otp_code), 'otp_code');
      }
      assertValidation(await t.api({ method: 'POST', path: 'login/otp/verify/', payload: phoneParts(PHONE) }), 'otp_code');
      assertValidation(await t.api({ method: 'POST', path: 'login/otp/verify/',
        payload: { phone_country_code: '+33', otp_code: '123456' } }), 'phone_number');
    });

    for (const [label, state] of [['banned', { is_banned: true }], ['inactive', { is_active: false }]] as const) {
      it(`answers 401 OTP_INVALID for an account that is ${label}, even with its last code`, async () => {
        const user = await createUser(t, { phone: PHONE });
        const code = await loginCodeFor(t, PHONE);
        await t.container.db.updateTable('users').set(state).where('id', '=', user.id).execute();
        assertError(await verifyLoginCode(t, PHONE, code), 401, 'OTP_INVALID');
        assert.equal(await t.container.db.selectFrom('sessions').select('id').executeTakeFirst(), undefined);
      });
    }

    it('answers 401 2FA_REQUIRED for a 2FA account without totp_code, and keeps the code for the retry', async () => {
      const user = await createUser(t, { phone: PHONE });
      const totp = await enableTotp(t, user);
      const code = await loginCodeFor(t, PHONE);
      assertError(await verifyLoginCode(t, PHONE, code), 401, '2FA_REQUIRED', { requires_2fa: true });
      assert.equal(await t.container.db.selectFrom('sessions').select('id').executeTakeFirst(), undefined);
      const res = await verifyLoginCode(t, PHONE, code, { totp_code: totp.code() });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().user.is_2fa_enabled, true);
    });

    it('answers 401 2FA_REQUIRED when 2FA is flagged on the account', async () => {
      await createUser(t, { phone: PHONE, is_2fa_enabled: true });
      assertError(await verifyLoginCode(t, PHONE, await loginCodeFor(t, PHONE)), 401, '2FA_REQUIRED', { requires_2fa: true });
    });

    it('lets exactly one of 10 parallel verifications of one code succeed', async () => {
      for (let round = 0; round < 3; round++) {
        const phone = `+3361234560${round}`;
        await createUser(t, { phone });
        const code = await loginCodeFor(t, phone);
        const statuses = await inParallel(10, () => verifyLoginCode(t, phone, code));
        assert.equal(statuses.filter((s) => s === 200).length, 1, `round ${round}: ${statuses.join(',')}`);
        assert.deepEqual(statuses.filter((s) => s !== 200), Array(9).fill(401), `round ${round}: ${statuses.join(',')}`);
      }
      assert.equal((await t.container.db.selectFrom('sessions').select('id').execute()).length, 3);
    });
  });
});
