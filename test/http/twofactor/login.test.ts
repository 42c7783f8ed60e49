import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { signIn } from '../../factories/sessions.js';
import { totpNow } from '../../factories/twofactor.js';
import { createUser, userRow, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertError, TOKEN_RESPONSE_FIELDS } from '../auth/assertions.js';
import { enableThroughApi, loginEmail, NOW, status, statusCounts, type SetupBody } from './helpers.js';

const PHONE = '+33612345678';

describe('login with two-factor authentication', () => {
  const t = useTestApp({ now: NOW });
  let user: TestUser;
  let token: string;
  let setup: SetupBody;
  beforeEach(async () => {
    user = await createUser(t, { email: 'ann@example.com', phone: PHONE });
    token = (await signIn(t, user)).access_token;
    setup = await enableThroughApi(t, token);
  });

  const login = (totp_code?: string) => loginEmail(t, user.email, user.password, totp_code);
  const attempts = () => t.container.db.selectFrom('login_attempts').select(['success', 'failure_reason']).where('user_id', '=', user.id)
    .orderBy('id').execute();

  it('answers 401 2FA_REQUIRED with requires_2fa: true without totp_code (or with an empty one)', async () => {
    assertError(await login(), 401, '2FA_REQUIRED', { requires_2fa: true });
    assertError(await login(''), 401, '2FA_REQUIRED', { requires_2fa: true });
  });

  it('signs in with the current TOTP code: the token response with requires_2fa false', async () => {
    const res = await login(totpNow(t, setup.secret));
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(Object.keys(res.json()).sort(), TOKEN_RESPONSE_FIELDS);
    assert.equal(res.json().requires_2fa, false);
    assert.equal(res.json().user.is_2fa_enabled, true);
  });

  it('answers 401 INVALID_CODE with requires_2fa for a wrong code and records the attempt', async () => {
    const wrong = String((Number(totpNow(t, setup.secret)) + 1) % 1_000_000).padStart(6, '0');
    assertError(await login(wrong), 401, 'INVALID_CODE', { requires_2fa: true });
    assertError(await login('zzzzz-zzzzz'), 401, 'INVALID_CODE', { requires_2fa: true });
    assert.deepEqual((await attempts()).slice(-2), [
      { success: false, failure_reason: 'invalid_2fa_code' }, { success: false, failure_reason: 'invalid_2fa_code' }]);
  });

  it('counts wrong codes toward the lockout: the preset\'s count of failures locks the account, even for a right code', async () => {
    const max = t.container.config.MAX_LOGIN_ATTEMPTS;
    const wrong = String((Number(totpNow(t, setup.secret)) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 1; i < max; i++) assertError(await login(wrong), 401, 'INVALID_CODE', { requires_2fa: true });
    const locked = await login('aaaaa-aaaaa');
    assert.equal(locked.statusCode, 423, locked.body);
    assert.equal(locked.json().code, 'ACCOUNT_LOCKED');
    assert.equal((await login(totpNow(t, setup.secret))).statusCode, 423);
    assert.ok((await userRow(t, user.id)).locked_until! > t.clock.now());
  });

  it('accepts a time step once: the same code is refused after use; the next step\'s code works', async () => {
    const code = totpNow(t, setup.secret);
    assert.equal((await login(code)).statusCode, 200);
    assertError(await login(code), 401, 'INVALID_CODE', { requires_2fa: true });
    t.clock.advance(30);
    assertError(await login(code), 401, 'INVALID_CODE', { requires_2fa: true });
    assert.equal((await login(totpNow(t, setup.secret))).statusCode, 200);
  });

  it('refuses an earlier step once a later one was used, even within the window', async () => {
    assert.equal((await login(totpNow(t, setup.secret, 1))).statusCode, 200);
    assertError(await login(totpNow(t, setup.secret)), 401, 'INVALID_CODE', { requires_2fa: true });
    assertError(await login(totpNow(t, setup.secret, -1)), 401, 'INVALID_CODE', { requires_2fa: true });
  });

  it('10 parallel logins with one TOTP code: exactly one succeeds (repeated over several steps)', async () => {
    for (let round = 0; round < 4; round++) {
      // Each round's nine refused replays count toward the lockout, and whether the success's reset lands before
      // or after them is a race: start every round from a clean counter so the rounds test replay, not lockout.
      await t.container.db.updateTable('users').set({ failed_login_count: 0 }).where('id', '=', user.id).execute();
      const code = totpNow(t, setup.secret);
      const answers = await Promise.all(Array.from({ length: 10 }, () => login(code)));
      assert.deepEqual(statusCounts(answers), { 200: 1, 401: 9 }, `round ${round}`);
      for (const res of answers.filter((r) => r.statusCode === 401)) assertError(res, 401, 'INVALID_CODE', { requires_2fa: true });
      t.clock.advance(30);
    }
  });

  it('signs in with a backup code once; any case, with or without the dash', async () => {
    const [first, second] = setup.backup_codes as [string, string];
    assert.equal((await login(first)).statusCode, 200);
    assertError(await login(first), 401, 'INVALID_CODE', { requires_2fa: true });
    assert.equal((await login(second.replace('-', '').toUpperCase())).statusCode, 200);
    assert.deepEqual(await status(t, token), { is_enabled: true, backup_codes_remaining: 8 });
  });

  it('10 parallel logins with one backup code: exactly one succeeds; backup_codes_remaining stays exact', async () => {
    for (const code of setup.backup_codes.slice(0, 3)) {
      // As above: a clean lockout counter per round, so the rounds test single use, not lockout.
      await t.container.db.updateTable('users').set({ failed_login_count: 0 }).where('id', '=', user.id).execute();
      const answers = await Promise.all(Array.from({ length: 10 }, () => login(code)));
      assert.deepEqual(statusCounts(answers), { 200: 1, 401: 9 }, code);
    }
    assert.deepEqual(await status(t, token), { is_enabled: true, backup_codes_remaining: 7 });
    const used = await t.container.db.selectFrom('backup_codes').select('id').where('user_id', '=', user.id)
      .where('consumed_at', 'is not', null).execute();
    assert.equal(used.length, 3);
  });

  it('login/phone/ asks for and accepts the second factor too', async () => {
    const phoneLogin = (totp_code?: string) => t.api({ method: 'POST', path: 'login/phone/', payload: {
      phone_country_code: '+33', phone_number: '612345678', password: user.password, ...(totp_code ? { totp_code } : {}) } });
    assertError(await phoneLogin(), 401, '2FA_REQUIRED', { requires_2fa: true });
    assertError(await phoneLogin('zzzzz-zzzzz'), 401, 'INVALID_CODE', { requires_2fa: true });
    assert.equal((await phoneLogin(totpNow(t, setup.secret))).statusCode, 200);
    assert.equal((await phoneLogin(setup.backup_codes[0])).statusCode, 200);
  });

  it('answers 401 LOGIN_FAILED, before any code check, for a wrong password with a valid code', async () => {
    const code = totpNow(t, setup.secret);
    assertError(await loginEmail(t, user.email, 'not the password', code), 401, 'LOGIN_FAILED');
    assert.equal((await login(code)).statusCode, 200, 'the code was not spent');
  });
});
