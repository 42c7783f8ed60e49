import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { createUser, DEFAULT_PASSWORD } from '../../factories/users.js';
import { useTestApp, type TestApp } from '../../helpers/test-app.js';
import { clearInbox, lastEmailCode } from '../otp/helpers.js';
import { expectStatus } from '../../helpers/answers.js';
import { assertValidation, USER_FIELDS } from './assertions.js';

const register = (t: TestApp, payload: Record<string, unknown>) => t.api({ method: 'POST', path: 'register/', payload });

describe('POST register/', () => {
  const t = useTestApp({ env: { SVC_AUDIT_LOGGING_ENABLED: 'true' } });

  it('registers by email and answers 201 {message, user, verification_required}', async () => {
    const res = await register(t, { email: '  Ann@Example.COM ', password: DEFAULT_PASSWORD, first_name: 'Ann', last_name: 'Lee' });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['message', 'user', 'verification_required']);
    assert.equal(typeof body.message, 'string');
    assert.deepEqual(body.verification_required, { email: true, phone: false });
    assert.deepEqual(Object.keys(body.user).sort(), USER_FIELDS);
    const row = await t.container.db.selectFrom('users').select(['id', 'password_hash']).executeTakeFirstOrThrow();
    assert.equal(body.user.id, String(row.id));
    assert.equal(body.user.email, 'ann@example.com');
    assert.equal(body.user.phone, null);
    assert.equal(body.user.first_name, 'Ann');
    assert.equal(body.user.last_name, 'Lee');
    assert.equal(body.user.is_active, true);
    assert.equal(body.user.is_email_verified, false);
    assert.equal(body.user.last_login, null);
    assert.deepEqual(body.user.preferences, { email_notifications: true, sms_notifications: false, marketing_emails: false });
    assert.ok(row.password_hash?.startsWith('$argon2id$'), 'the password is stored as an argon2id hash');
  });

  it('registers by phone and stores the number in E.164', async () => {
    const res = await register(t, { phone_country_code: '+1', phone_number: '4155552671', password: DEFAULT_PASSWORD });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json();
    assert.equal(body.user.phone, '+14155552671');
    assert.equal(body.user.email, null);
    assert.deepEqual(body.verification_required, { email: false, phone: true });
  });

  it('assigns every default role', async () => {
    const res = await register(t, { email: 'ann@example.com', password: DEFAULT_PASSWORD });
    assert.deepEqual(res.json().user.roles, ['user']);
    assert.deepEqual(res.json().user.permissions, []);
  });

  it('records a register audit event', async () => {
    const res = await register(t, { email: 'ann@example.com', password: DEFAULT_PASSWORD });
    const event = await t.container.db.selectFrom('audit_events').select(['user_id', 'application_id'])
      .where('event_type', '=', 'register').executeTakeFirstOrThrow();
    assert.equal(String(event.user_id), res.json().user.id);
    assert.equal(event.application_id, t.credentials.id);
  });

  it('answers 400 non_field_errors when neither an email nor a phone is given', async () => {
    const res = await register(t, { password: DEFAULT_PASSWORD, first_name: 'Ann' });
    const body = assertValidation(res, 'non_field_errors');
    assert.deepEqual(Object.keys(body.details), ['non_field_errors']);
  });

  it('answers 400 on email for an invalid address', async () => {
    assertValidation(await register(t, { email: 'not-an-email', password: DEFAULT_PASSWORD }), 'email');
  });

  it('answers 400 on phone_country_code for a country code not of the form +XX', async () => {
    for (const cc of ['1', '+', '+12345', 'x1']) {
      const body = assertValidation(await register(t, { phone_country_code: cc, phone_number: '4155552671', password: DEFAULT_PASSWORD }),
        'phone_country_code');
      assert.equal(body.details.phone_number, undefined, cc);
    }
  });

  it('answers 400 on phone_country_code for a country code no country uses', async () => {
    const body = assertValidation(await register(t, { phone_country_code: '+999', phone_number: '4155552671', password: DEFAULT_PASSWORD }),
      'phone_country_code');
    assert.equal(body.details.phone_number, undefined);
  });

  it('answers 400 on phone_number for a number outside 9 to 15 digits', async () => {
    for (const number of ['41555526', '4155552671234567', '415555267a', '415 555 2671']) {
      const body = assertValidation(await register(t, { phone_country_code: '+1', phone_number: number, password: DEFAULT_PASSWORD }),
        'phone_number');
      assert.equal(body.details.phone_country_code, undefined, number);
    }
  });

  it('answers 400 on phone_number for a number that is not valid in its country', async () => {
    assertValidation(await register(t, { phone_country_code: '+1', phone_number: '0000000000', password: DEFAULT_PASSWORD }), 'phone_number');
  });

  it('answers 400 on phone_number when the country code comes without a number', async () => {
    assertValidation(await register(t, { phone_country_code: '+1', password: DEFAULT_PASSWORD }), 'phone_number');
  });

  it('answers 400 on password below the development minimum of 8', async () => {
    assertValidation(await register(t, { email: 'ann@example.com', password: 'seven77' }), 'password');
    const ok = await register(t, { email: 'ann@example.com', password: 'kx7mvq2p' });
    assert.equal(ok.statusCode, 201, ok.body);
  });

  it('answers 400 on password for a common password or one containing the email local part or a name', async () => {
    assertValidation(await register(t, { email: 'ann@example.com', password: 'password123' }), 'password');
    assertValidation(await register(t, { email: 'zebulon@example.com', password: 'zebulon rides again' }), 'password');
    assertValidation(await register(t, { email: 'x@example.com', first_name: 'Marguerite', password: 'i am marguerite' }), 'password');
    const stored = await t.container.db.selectFrom('users').select('id').execute();
    assert.equal(stored.length, 0);
  });

  describe('the email verification code', () => {
    beforeEach(() => { clearInbox(t); });

    it('is sent with the registration that answers verification_required.email, and verifies the address', async () => {
      const res = await register(t, { email: 'ann@example.com', password: DEFAULT_PASSWORD, login: true });
      assert.deepEqual(expectStatus(res, 201).verification_required, { email: true, phone: false });
      await t.container.services.outbox.flush();
      const mails = t.container.inbox.emails.filter((m) => m.to === 'ann@example.com');
      assert.deepEqual(mails.map((m) => m.purpose), ['otp'], 'one code, the one otp/request/ sends');
      const code = await lastEmailCode(t, 'ann@example.com');
      const verified = await t.api({ method: 'POST', path: 'otp/verify/email/', token: res.json().access_token, payload: { code } });
      assert.equal(expectStatus(verified, 200).email_verified, true);
      assert.equal((await t.container.db.selectFrom('users').select('is_email_verified').executeTakeFirstOrThrow()).is_email_verified, true);
    });

    it('is sent to nobody when the address is already registered (400 as before), nor by SMS to a phone', async () => {
      await createUser(t, { email: 'ann@example.com' });
      assertValidation(await register(t, { email: 'Ann@example.com', password: DEFAULT_PASSWORD }), 'email');
      const byPhone = await register(t, { phone_country_code: '+1', phone_number: '4155552671', password: DEFAULT_PASSWORD });
      assert.deepEqual(expectStatus(byPhone, 201).verification_required, { email: false, phone: true });
      await t.container.services.outbox.flush();
      assert.deepEqual([t.container.inbox.emails.length, t.container.inbox.sms.length], [0, 0]);
      assert.equal(await t.container.db.selectFrom('otp_codes').select('id').executeTakeFirst(), undefined);
    });
  });

  it('answers 400 on password above the maximum of 128', async () => {
    assertValidation(await register(t, { email: 'ann@example.com', password: 'p'.repeat(129) }), 'password');
  });

  it('answers 400 on email for an address already registered, in any case', async () => {
    await createUser(t, { email: 'ann@example.com' });
    const body = assertValidation(await register(t, { email: 'ANN@example.com', password: DEFAULT_PASSWORD }), 'email');
    assert.deepEqual(Object.keys(body.details), ['email']);
    assert.equal(await t.container.db.selectFrom('users').select('id').execute().then((r) => r.length), 1);
  });

  it('answers 400 on phone_number for a phone already registered', async () => {
    await createUser(t, { email: null, phone: '+14155552671' });
    const body = assertValidation(await register(t, { phone_country_code: '+1', phone_number: '4155552671', password: DEFAULT_PASSWORD }),
      'phone_number');
    assert.deepEqual(Object.keys(body.details), ['phone_number']);
  });

  it('answers one 201 and otherwise 400 on email when the same address registers concurrently', async () => {
    const results = await Promise.all(Array.from({ length: 4 }, () => register(t, { email: 'ann@example.com', password: DEFAULT_PASSWORD })));
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [201, 400, 400, 400], results.map((r) => r.body).join('\n'));
    for (const res of results.filter((r) => r.statusCode === 400)) assertValidation(res, 'email');
  });

  it('answers 400 naming an unknown field', async () => {
    const body = assertValidation(await register(t, { email: 'ann@example.com', password: DEFAULT_PASSWORD, is_superuser: true }), 'is_superuser');
    assert.deepEqual(Object.keys(body.details), ['is_superuser']);
    assert.equal(await t.container.db.selectFrom('users').select('id').executeTakeFirst(), undefined);
  });

  it('answers 400, never a 500, for text PostgreSQL cannot store', async () => {
    for (const field of ['email', 'first_name', 'last_name', 'device_info']) {
      const payload = { email: 'ann@example.com', password: DEFAULT_PASSWORD, login: true, [field]: 'a\u0000b' };
      assertValidation(await register(t, payload), 'non_field_errors');
    }
  });

  it('answers 400 on a field of the wrong type', async () => {
    assertValidation(await register(t, { email: 'ann@example.com', password: DEFAULT_PASSWORD, login: 'yes' }), 'login');
  });

  it('with login=true also answers the token fields, and the access token works', async () => {
    const res = await register(t, { email: 'ann@example.com', password: DEFAULT_PASSWORD, login: true,
      device_info: 'v=1|os=iOS 17|device=iPhone 15|app=Acme 2.1' });
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'device_id', 'device_summary', 'expires_in', 'message',
      'must_change_password', 'refresh_expires_in', 'refresh_token', 'session_id', 'token_type', 'user', 'verification_required']);
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 3600);
    assert.equal(body.refresh_expires_in, t.container.config.JWT_REFRESH_TOKEN_LIFETIME);
    assert.equal(body.device_summary, 'Acme 2.1 on iPhone 15 (iOS 17)');
    assert.equal(body.must_change_password, false);
    const me = await t.api({ method: 'GET', path: 'me/', token: body.access_token });
    assert.equal(me.statusCode, 200, me.body);
    assert.equal(me.json().email, 'ann@example.com');
    const refreshed = await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: body.refresh_token } });
    assert.equal(refreshed.statusCode, 200, refreshed.body);
  });

  it('without login answers no token', async () => {
    const res = await register(t, { email: 'ann@example.com', password: DEFAULT_PASSWORD, login: false });
    assert.equal(res.statusCode, 201);
    assert.equal(res.json().access_token, undefined);
    assert.equal(await t.container.db.selectFrom('sessions').select('id').executeTakeFirst(), undefined);
  });
});

describe('POST register/ under the medium preset', () => {
  const t = useTestApp({ env: { SVC_SHORTCUT_SECURE_MODE: 'medium' } });

  it('answers 400 on password below the medium minimum of 12', async () => {
    assertValidation(await register(t, { email: 'ann@example.com', password: 'elevenchars' }), 'password');
    const ok = await register(t, { email: 'ann@example.com', password: 'twelve chars' });
    assert.equal(ok.statusCode, 201, ok.body);
  });

  // see: issue 12 — a three-letter piece of the local part refused random passwords that happened to contain it.
  it('accepts a password containing a three-letter piece of the email local part, and refuses the whole local part', async () => {
    const ok = await register(t, { email: 'reg-7f3k9q@example.com', password: 'Vt2REGm9xq4LpW8zN0hs' });
    assert.equal(ok.statusCode, 201, ok.body);
    const refused = await register(t, { email: 'reg-8h2m4z@example.com', password: 'mine-reg-8h2m4z-2024!' });
    assertValidation(refused, 'password');
    assert.match(JSON.stringify(refused.json().details.password), /email address or name/);
  });
});
