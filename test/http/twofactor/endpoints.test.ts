import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { signIn } from '../../factories/sessions.js';
import { totpNow } from '../../factories/twofactor.js';
import { createUser, userRow, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { base32Decode } from '../../../src/security/totp.js';
import { assertError, assertValidation } from '../auth/assertions.js';
import { auditTypes, enableThroughApi, loginEmail, NOW, post, startSetup, status, statusCounts } from './helpers.js';

describe('two-factor endpoints', () => {
  const t = useTestApp({ now: NOW, env: { SVC_AUDIT_LOGGING_ENABLED: 'true' } });
  let user: TestUser;
  let token: string;
  beforeEach(async () => {
    user = await createUser(t, { email: 'ann@example.com' });
    token = (await signIn(t, user)).access_token;
  });

  const credential = () => t.container.db.selectFrom('totp_credentials').selectAll().where('user_id', '=', user.id).executeTakeFirst();

  describe('GET 2fa/status/', () => {
    it('answers {is_enabled: false, backup_codes_remaining: 0} for an account without 2FA, even during a setup', async () => {
      assert.deepEqual(await status(t, token), { is_enabled: false, backup_codes_remaining: 0 });
      await startSetup(t, token);
      assert.deepEqual(await status(t, token), { is_enabled: false, backup_codes_remaining: 0 });
    });

    it('answers 401 UNAUTHORIZED without a bearer token', async () => {
      assertError(await t.api({ method: 'GET', path: '2fa/status/' }), 401, 'UNAUTHORIZED');
    });
  });

  describe('POST 2fa/setup/', () => {
    it('answers {message, secret, qr_code, provisioning_uri, backup_codes (10), warning}', async () => {
      const body = await startSetup(t, token);
      assert.deepEqual(Object.keys(body).sort(), ['backup_codes', 'message', 'provisioning_uri', 'qr_code', 'secret', 'warning']);
      assert.match(body.secret, /^[A-Z2-7]{32}$/);
      assert.equal(base32Decode(body.secret).length, 20);
      assert.equal(body.provisioning_uri,
        `otpauth://totp/Gatehouse:ann%40example.com?issuer=Gatehouse&secret=${body.secret}&algorithm=SHA1&digits=6&period=30`);
      assert.match(body.qr_code, /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
      const png = Buffer.from(body.qr_code.slice('data:image/png;base64,'.length), 'base64');
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      assert.equal(body.backup_codes.length, 10);
      assert.equal(new Set(body.backup_codes).size, 10);
      for (const code of body.backup_codes) assert.match(code, /^[a-z2-7]{5}-[a-z2-7]{5}$/);
      assert.equal(typeof body.message, 'string');
      assert.equal(typeof body.warning, 'string');
    });

    it('stores the secret sealed (AES-256-GCM) and the backup codes as keyed hashes, never in clear', async () => {
      const body = await startSetup(t, token);
      const row = await credential();
      assert.ok(row);
      assert.equal(row.secret_sealed, null);
      assert.match(row.pending_secret_sealed!, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      const stored = JSON.stringify(row);
      assert.ok(!stored.includes(body.secret) && !stored.toLowerCase().includes(body.secret.toLowerCase()));
      assert.ok(!stored.includes(base32Decode(body.secret).toString('hex')));
      const codes = await t.container.db.selectFrom('backup_codes').select(['code_hash', 'consumed_at']).where('user_id', '=', user.id).execute();
      assert.equal(codes.length, 10);
      for (const c of codes) {
        assert.match(c.code_hash, /^[0-9a-f]{64}$/);
        assert.equal(c.consumed_at, null);
        for (const code of body.backup_codes) assert.ok(!c.code_hash.includes(code.replace('-', '')));
      }
      await post(t, '2fa/confirm/', token, { code: totpNow(t, body.secret) });
      const active = await credential();
      assert.equal(active!.pending_secret_sealed, null);
      assert.match(active!.secret_sealed!, /^v1\./);
      assert.ok(!JSON.stringify(active).includes(body.secret));
    });

    it('answers 400 2FA_ALREADY_ENABLED once 2FA is on', async () => {
      await enableThroughApi(t, token);
      assertError(await post(t, '2fa/setup/', token), 400, '2FA_ALREADY_ENABLED');
    });

    it('a new setup before confirmation replaces the pending secret and the backup codes', async () => {
      const first = await startSetup(t, token);
      const second = await startSetup(t, token);
      assert.notEqual(first.secret, second.secret);
      assertError(await post(t, '2fa/confirm/', token, { code: totpNow(t, first.secret) }), 400, 'INVALID_CODE');
      assert.equal((await post(t, '2fa/confirm/', token, { code: totpNow(t, second.secret) })).statusCode, 200);
      assert.equal((await status(t, token)).backup_codes_remaining, 10);
      t.clock.advance(30);
      assertError(await loginEmail(t, user.email, user.password, first.backup_codes[0]), 401, 'INVALID_CODE', { requires_2fa: true });
      assert.equal((await loginEmail(t, user.email, user.password, second.backup_codes[0])).statusCode, 200);
    });
  });

  describe('POST 2fa/confirm/', () => {
    it('enables 2FA with a current code: {message, is_enabled: true}; status counts 10 backup codes', async () => {
      const setup = await startSetup(t, token);
      const res = await post(t, '2fa/confirm/', token, { code: totpNow(t, setup.secret) });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(Object.keys(res.json()).sort(), ['is_enabled', 'message']);
      assert.equal(res.json().is_enabled, true);
      assert.deepEqual(await status(t, token), { is_enabled: true, backup_codes_remaining: 10 });
      assert.equal((await userRow(t, user.id)).is_2fa_enabled, true);
      assert.deepEqual(await auditTypes(t, user.id), [{ event_type: '2fa_enabled', severity: 'info' }]);
    });

    it('accepts the alias totp_code, a code typed with a space, and a code one step old (SVC_TOTP_VALID_WINDOW 1)', async () => {
      const setup = await startSetup(t, token);
      const code = totpNow(t, setup.secret, -1);
      const res = await post(t, '2fa/confirm/', token, { totp_code: `${code.slice(0, 3)} ${code.slice(3)}` });
      assert.equal(res.statusCode, 200, res.body);
    });

    it('answers 400 CODE_REQUIRED without code (or with an empty one)', async () => {
      await startSetup(t, token);
      assertError(await post(t, '2fa/confirm/', token, {}), 400, 'CODE_REQUIRED');
      assertError(await post(t, '2fa/confirm/', token, { code: '' }), 400, 'CODE_REQUIRED');
      assertError(await post(t, '2fa/confirm/', token), 400, 'CODE_REQUIRED');
    });

    it('answers 400 INVALID_CODE for a wrong code, a code two steps away, or no setup in progress', async () => {
      assertError(await post(t, '2fa/confirm/', token, { code: '123456' }), 400, 'INVALID_CODE');
      const setup = await startSetup(t, token);
      const wrong = String((Number(totpNow(t, setup.secret)) + 1) % 1_000_000).padStart(6, '0');
      assertError(await post(t, '2fa/confirm/', token, { code: wrong }), 400, 'INVALID_CODE');
      assertError(await post(t, '2fa/confirm/', token, { code: totpNow(t, setup.secret, -2) }), 400, 'INVALID_CODE');
      assertError(await post(t, '2fa/confirm/', token, { code: totpNow(t, setup.secret, 2) }), 400, 'INVALID_CODE');
      assertError(await post(t, '2fa/confirm/', token, { code: 'abcdef' }), 400, 'INVALID_CODE');
      assert.deepEqual(await status(t, token), { is_enabled: false, backup_codes_remaining: 0 });
    });

    it('refuses unknown fields and codes longer than 32 characters with 400 validation', async () => {
      await startSetup(t, token);
      assertValidation(await post(t, '2fa/confirm/', token, { code: '123456', extra: 1 }), 'extra');
      assertValidation(await post(t, '2fa/confirm/', token, { code: '1'.repeat(33) }), 'code');
    });

    it('10 parallel confirmations with one code: exactly one succeeds (repeated)', async () => {
      for (let round = 0; round < 3; round++) {
        const other = await createUser(t);
        const otherToken = (await signIn(t, other)).access_token;
        const setup = await startSetup(t, otherToken);
        const code = totpNow(t, setup.secret);
        const answers = await Promise.all(Array.from({ length: 10 }, () => post(t, '2fa/confirm/', otherToken, { code })));
        assert.deepEqual(statusCounts(answers), { 200: 1, 400: 9 }, `round ${round}`);
        for (const res of answers.filter((r) => r.statusCode === 400)) assertError(res, 400, 'INVALID_CODE');
        assert.deepEqual(await status(t, otherToken), { is_enabled: true, backup_codes_remaining: 10 });
      }
    });

    it('the confirming code cannot be used again to sign in', async () => {
      const setup = await startSetup(t, token);
      const code = totpNow(t, setup.secret);
      assert.equal((await post(t, '2fa/confirm/', token, { code })).statusCode, 200);
      assertError(await loginEmail(t, user.email, user.password, code), 401, 'INVALID_CODE', { requires_2fa: true });
    });
  });

  describe('POST 2fa/backup-codes/', () => {
    it('answers 10 new codes for a TOTP code; the old ones stop working, the new ones work', async () => {
      const setup = await enableThroughApi(t, token);
      const res = await post(t, '2fa/backup-codes/', token, { code: totpNow(t, setup.secret) });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), ['backup_codes', 'message', 'warning']);
      assert.equal(body.backup_codes.length, 10);
      assert.equal(new Set([...body.backup_codes, ...setup.backup_codes]).size, 20);
      assert.deepEqual(await status(t, token), { is_enabled: true, backup_codes_remaining: 10 });
      assertError(await loginEmail(t, user.email, user.password, setup.backup_codes[0]), 401, 'INVALID_CODE', { requires_2fa: true });
      assert.equal((await loginEmail(t, user.email, user.password, body.backup_codes[0])).statusCode, 200);
      assert.deepEqual(await status(t, token), { is_enabled: true, backup_codes_remaining: 9 });
      assert.deepEqual((await auditTypes(t, user.id)).map((e) => e.event_type), ['2fa_enabled', 'backup_codes_regenerated']);
    });

    it('accepts the alias totp_code; refuses a replayed step, a backup code and a wrong code with 400 INVALID_CODE', async () => {
      const setup = await enableThroughApi(t, token);
      const code = totpNow(t, setup.secret);
      assert.equal((await post(t, '2fa/backup-codes/', token, { totp_code: code })).statusCode, 200);
      assertError(await post(t, '2fa/backup-codes/', token, { code }), 400, 'INVALID_CODE');
      assertError(await post(t, '2fa/backup-codes/', token, { code: setup.backup_codes[0] }), 400, 'INVALID_CODE');
      assertError(await post(t, '2fa/backup-codes/', token, { code: '000000' === code ? '111111' : '000000' }), 400, 'INVALID_CODE');
    });

    it('answers 400 CODE_REQUIRED without code, and 400 INVALID_CODE while 2FA is off', async () => {
      assertError(await post(t, '2fa/backup-codes/', token, { code: '123456' }), 400, 'INVALID_CODE');
      await enableThroughApi(t, token);
      assertError(await post(t, '2fa/backup-codes/', token, {}), 400, 'CODE_REQUIRED');
    });
  });

  describe('POST 2fa/disable/', () => {
    it('turns 2FA off with a TOTP code and the password: {message, is_enabled: false}', async () => {
      const setup = await enableThroughApi(t, token);
      const res = await post(t, '2fa/disable/', token, { code: totpNow(t, setup.secret), password: user.password });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(Object.keys(res.json()).sort(), ['is_enabled', 'message']);
      assert.equal(res.json().is_enabled, false);
      assert.deepEqual(await status(t, token), { is_enabled: false, backup_codes_remaining: 0 });
      assert.equal(await credential(), undefined);
      assert.equal((await t.container.db.selectFrom('backup_codes').select('id').where('user_id', '=', user.id).execute()).length, 0);
      assert.equal((await loginEmail(t, user.email, user.password)).statusCode, 200);
      assert.deepEqual(await auditTypes(t, user.id), [
        { event_type: '2fa_enabled', severity: 'info' }, { event_type: '2fa_disabled', severity: 'warning' }]);
    });

    it('accepts a backup code (alias totp_code) instead of a TOTP code', async () => {
      const setup = await enableThroughApi(t, token);
      const res = await post(t, '2fa/disable/', token, { totp_code: setup.backup_codes[3], password: user.password });
      assert.equal(res.statusCode, 200, res.body);
    });

    it('answers 400 INVALID_PASSWORD for a wrong password without spending the backup code', async () => {
      const setup = await enableThroughApi(t, token);
      assertError(await post(t, '2fa/disable/', token, { code: setup.backup_codes[0], password: 'not the password' }), 400, 'INVALID_PASSWORD');
      assert.deepEqual(await status(t, token), { is_enabled: true, backup_codes_remaining: 10 });
    });

    it('answers 400 INVALID_CODE for a wrong or replayed code, CODE_REQUIRED without one, validation without password', async () => {
      const setup = await enableThroughApi(t, token);
      assertError(await post(t, '2fa/disable/', token, { code: 'aaaaa-aaaaa', password: user.password }), 400, 'INVALID_CODE');
      const code = totpNow(t, setup.secret);
      assert.equal((await post(t, '2fa/backup-codes/', token, { code })).statusCode, 200);
      assertError(await post(t, '2fa/disable/', token, { code, password: user.password }), 400, 'INVALID_CODE');
      assertError(await post(t, '2fa/disable/', token, { password: user.password }), 400, 'CODE_REQUIRED');
      assertValidation(await post(t, '2fa/disable/', token, { code }), 'password');
      assert.equal((await status(t, token)).is_enabled, true);
    });

    it('answers 400 INVALID_CODE while 2FA is off', async () => {
      assertError(await post(t, '2fa/disable/', token, { code: '123456', password: user.password }), 400, 'INVALID_CODE');
    });

    it('counts wrong passwords and codes toward the account lockout', async () => {
      await enableThroughApi(t, token);
      const max = t.container.config.MAX_LOGIN_ATTEMPTS;
      for (let i = 1; i < max; i++) {
        assertError(await post(t, '2fa/disable/', token, { code: 'aaaaa-aaaaa', password: user.password }), 400, 'INVALID_CODE');
      }
      const locked = await post(t, '2fa/disable/', token, { code: 'aaaaa-aaaaa', password: user.password });
      assert.equal(locked.statusCode, 423, locked.body);
      assert.equal(locked.json().code, 'ACCOUNT_LOCKED');
      assert.equal((await post(t, '2fa/backup-codes/', token, { code: '123456' })).statusCode, 423);
      assert.equal((await loginEmail(t, user.email, user.password)).statusCode, 423);
    });
  });

  describe('token scope', () => {
    it('answers 403 INSUFFICIENT_SCOPE to a password_change_only token', async () => {
      const flagged = await createUser(t, { must_change_password: true });
      const restricted = await signIn(t, flagged);
      assert.equal(restricted.token_scope, 'password_change_only');
      assertError(await t.api({ method: 'GET', path: '2fa/status/', token: restricted.access_token }), 403, 'INSUFFICIENT_SCOPE');
      assertError(await post(t, '2fa/setup/', restricted.access_token), 403, 'INSUFFICIENT_SCOPE');
    });
  });
});
