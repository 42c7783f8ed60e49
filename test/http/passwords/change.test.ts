import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { decodeJwt, openSession, signIn } from '../../factories/sessions.js';
import { createUser, userRow, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertError, assertValidation } from '../auth/assertions.js';
import { clearInbox, lastEmailCode, otherCode } from '../otp/helpers.js';

const NEW_PASSWORD = 'violet submarine orchestra';

describe('POST password/change/', () => {
  const t = useTestApp({ env: { SVC_MAX_LOGIN_ATTEMPTS: '3', SVC_PASSWORD_HISTORY: '3' } });
  let user: TestUser;
  beforeEach(async () => {
    clearInbox(t);
    user = await createUser(t, { email: 'ann@example.com', first_name: 'Annabel' });
  });

  const change = (token: string, payload: Record<string, unknown>) => t.api({ method: 'POST', path: 'password/change/', token, payload });
  const login = (password: string) => t.api({ method: 'POST', path: 'login/email/', payload: { email: user.email, password } });
  const me = (token: string) => t.api({ method: 'GET', path: 'me/', token });

  it('changes the password with the current one and answers {message, password_strength, sessions_revoked}', async () => {
    const { access_token: token } = await signIn(t, user);
    const res = await change(token, { current_password: user.password, new_password: NEW_PASSWORD });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(Object.keys(res.json()).sort(), ['message', 'password_strength', 'sessions_revoked']);
    assert.equal(res.json().sessions_revoked, 0);
    assert.ok(['very_weak', 'weak', 'fair', 'strong', 'very_strong'].includes(res.json().password_strength));
    assertError(await login(user.password!), 401, 'LOGIN_FAILED');
    assert.equal((await login(NEW_PASSWORD)).statusCode, 200);
  });

  it('ends every other session and keeps the caller signed in', async () => {
    const mine = await signIn(t, user);
    const other = await signIn(t, user);
    const third = await signIn(t, user);
    const res = await change(mine.access_token, { current_password: user.password, new_password: NEW_PASSWORD });
    assert.equal(res.json().sessions_revoked, 2);
    assert.equal((await me(mine.access_token)).statusCode, 200);
    for (const ended of [other, third]) {
      assert.equal((await me(ended.access_token)).statusCode, 401);
      assertError(await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: ended.refresh_token } }), 401, 'REFRESH_FAILED');
    }
    assert.equal((await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: mine.refresh_token } })).statusCode, 200);
  });

  it('answers 400 INVALID_PASSWORD for a wrong current password and counts it toward the lockout', async () => {
    const { access_token: token } = await signIn(t, user);
    for (let i = 0; i < 2; i++) {
      assertError(await change(token, { current_password: 'not the password', new_password: NEW_PASSWORD }), 400, 'INVALID_PASSWORD');
    }
    assert.equal((await userRow(t, user.id)).failed_login_count, 2);
    const locked = await change(token, { current_password: 'not the password', new_password: NEW_PASSWORD });
    assert.equal(locked.statusCode, 423, locked.body);
    assert.equal(locked.json().code, 'ACCOUNT_LOCKED');
    // While locked even the right password is refused, here and at login.
    assert.equal((await change(token, { current_password: user.password, new_password: NEW_PASSWORD })).statusCode, 423);
    assert.equal((await login(user.password!)).statusCode, 423);
  });

  it('answers 400 PASSWORDLESS_ACCOUNT_USE_SET_INITIAL_PASSWORD for an account without a usable password', async () => {
    const passwordless = await createUser(t, { email: 'bob@example.com', password: null });
    const { access_token: token } = await openSession(t, passwordless.id);
    assertError(await change(token, { current_password: 'anything at all', new_password: NEW_PASSWORD }), 400,
      'PASSWORDLESS_ACCOUNT_USE_SET_INITIAL_PASSWORD');
  });

  it('answers 400 validation when neither current_password nor otp_code is given, or new_password is missing', async () => {
    const { access_token: token } = await signIn(t, user);
    assertValidation(await change(token, { new_password: NEW_PASSWORD }), 'current_password');
    assertValidation(await change(token, { current_password: user.password }), 'new_password');
    assertValidation(await change(token, { current_password: user.password, new_password: NEW_PASSWORD, extra: 1 }), 'extra');
  });

  it('applies the password policy to new_password: length, context words, common passwords, history', async () => {
    const { access_token: token } = await signIn(t, user);
    const proof = { current_password: user.password };
    assertValidation(await change(token, { ...proof, new_password: 'short' }), 'new_password');
    assertValidation(await change(token, { ...proof, new_password: 'my name is annabel ok' }), 'new_password');
    assertValidation(await change(token, { ...proof, new_password: 'ANNABEL-secret-words' }), 'new_password');
    assertValidation(await change(token, { ...proof, new_password: 'password123' }), 'new_password');
    assertError(await change(token, { ...proof, new_password: user.password }), 400, 'PASSWORD_REUSED');
    assert.equal((await login(user.password!)).statusCode, 200, 'nothing changed');
  });

  it('refuses the last SVC_PASSWORD_HISTORY passwords and accepts an older one', async () => {
    const { access_token: token } = await signIn(t, user);
    const passwords = [user.password!, 'violet submarine one', 'violet submarine two', 'violet submarine three'];
    for (let i = 1; i < passwords.length; i++) {
      const res = await change(token, { current_password: passwords[i - 1], new_password: passwords[i] });
      assert.equal(res.statusCode, 200, res.body);
    }
    // History 3: the current one and the two before it are refused; the first is old enough again.
    for (const recent of passwords.slice(1)) {
      assertError(await change(token, { current_password: passwords[3], new_password: recent }), 400, 'PASSWORD_REUSED');
    }
    assert.equal((await change(token, { current_password: passwords[3], new_password: passwords[0] })).statusCode, 200);
    const kept = await t.container.db.selectFrom('password_history').select('password_hash').where('user_id', '=', user.id).execute();
    assert.equal(kept.length, 3);
    assert.ok(kept.every((r) => r.password_hash.startsWith('$argon2id$')));
  });

  describe('with a code from otp/request/ (purpose password_change)', () => {
    const requestCode = async (token: string, purpose = 'password_change') => {
      const res = await t.api({ method: 'POST', path: 'otp/request/', token, payload: { otp_type: 'email', purpose } });
      assert.equal(res.statusCode, 200, res.body);
      return lastEmailCode(t, 'ann@example.com');
    };

    it('changes the password with otp_code instead of the current password', async () => {
      const { access_token: token } = await signIn(t, user);
      const code = await requestCode(token);
      const res = await change(token, { otp_code: code, new_password: NEW_PASSWORD });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await login(NEW_PASSWORD)).statusCode, 200);
    });

    it('answers 400 INVALID_OTP for a wrong, reused or other-purpose code', async () => {
      const { access_token: token } = await signIn(t, user);
      const code = await requestCode(token);
      assertError(await change(token, { otp_code: otherCode(code), new_password: NEW_PASSWORD }), 400, 'INVALID_OTP');
      assert.equal((await change(token, { otp_code: code, new_password: NEW_PASSWORD })).statusCode, 200);
      assertError(await change(token, { otp_code: code, new_password: 'another fine passphrase' }), 400, 'INVALID_OTP');
      const verification = await requestCode(token, 'verify');
      assertError(await change(token, { otp_code: verification, new_password: 'another fine passphrase' }), 400, 'INVALID_OTP');
    });

    it('keeps the code usable when the new password is refused', async () => {
      const { access_token: token } = await signIn(t, user);
      const code = await requestCode(token);
      assertValidation(await change(token, { otp_code: code, new_password: 'short' }), 'new_password');
      assert.equal((await change(token, { otp_code: code, new_password: NEW_PASSWORD })).statusCode, 200);
    });

    it('lets exactly one of 10 parallel changes with one code succeed', async () => {
      for (let round = 0; round < 3; round++) {
        await t.reset();
        clearInbox(t);
        user = await createUser(t, { email: 'ann@example.com' });
        const { access_token: token } = await signIn(t, user);
        const code = await requestCode(token);
        const answers = await Promise.all(Array.from({ length: 10 }, (_, i) =>
          change(token, { otp_code: code, new_password: `violet submarine number ${i}` })));
        assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, ...Array(9).fill(400)], answers.map((r) => r.body).join('\n'));
      }
    });
  });

  describe('with a password_change_only token (forced change)', () => {
    it('answers a full-scope pair, clears must_change_password and retires the restricted session', async () => {
      const flagged = await createUser(t, { email: 'flagged@example.com', password: 'temporary pass phrase', must_change_password: true });
      const first = await t.api({ method: 'POST', path: 'login/email/', payload: { email: flagged.email, password: flagged.password } });
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.json().token_scope, 'password_change_only');
      const restricted = first.json().access_token as string;
      assertError(await me(restricted), 403, 'INSUFFICIENT_SCOPE');

      const res = await change(restricted, { current_password: flagged.password, new_password: NEW_PASSWORD });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(Object.keys(res.json()).sort(), ['access_token', 'expires_in', 'message', 'password_strength',
        'refresh_expires_in', 'refresh_token', 'sessions_revoked', 'token_type']);
      assert.equal(decodeJwt(res.json().access_token).payload.scope, 'full');
      assert.equal((await me(res.json().access_token)).statusCode, 200);
      assert.equal((await userRow(t, flagged.id)).must_change_password, false);
      assert.equal((await me(restricted)).statusCode, 401);
      assertError(await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: first.json().refresh_token } }), 401, 'REFRESH_FAILED');
      const refreshed = await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: res.json().refresh_token } });
      assert.equal(refreshed.statusCode, 200);
      assert.equal(refreshed.json().must_change_password, false);

      const next = await t.api({ method: 'POST', path: 'login/email/', payload: { email: flagged.email, password: NEW_PASSWORD } });
      assert.equal(next.statusCode, 200);
      assert.equal(next.json().must_change_password, false);
      assert.equal(next.json().token_scope, undefined);
    });
  });

  it('needs a bearer token', async () => {
    assertError(await t.api({ method: 'POST', path: 'password/change/', payload: { current_password: 'x', new_password: NEW_PASSWORD } }),
      401, 'UNAUTHORIZED');
  });
});
