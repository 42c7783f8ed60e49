import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { hash as argon2Hash } from '@node-rs/argon2';
import { signIn } from '../../factories/sessions.js';
import { enableTotp } from '../../factories/twofactor.js';
import { createUser, userRow, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { assertError } from '../auth/assertions.js';
import { clearInbox, lastEmailCode } from '../otp/helpers.js';

// see: issue 12 — registered with "e" + U+0301, signed in with "é": LOGIN_FAILED.
const DECOMPOSED = 'cafe\u0301 au lait, sans sucre';
const COMPOSED = 'caf\u00e9 au lait, sans sucre';
const PHONE = '+33612345678';

describe('passwords are compared in Unicode NFKC', () => {
  const t = useTestApp({ env: { SVC_PASSWORD_HISTORY: '3' }, reset: false });
  beforeEach(async () => { await t.reset(); clearInbox(t); });

  const loginEmail = (email: string, password: string, extra: object = {}) =>
    t.api({ method: 'POST', path: 'login/email/', payload: { email, password, ...extra } });
  const loginPhone = (password: string) =>
    t.api({ method: 'POST', path: 'login/phone/', payload: { phone_country_code: '+33', phone_number: '612345678', password } });

  /** An account whose hash was made before normalization, from the raw text, as migration 0008 marks it. */
  async function legacyUser(raw: string): Promise<TestUser> {
    const user = await createUser(t, { email: 'old@example.com', phone: PHONE });
    const legacy = await argon2Hash(raw, { algorithm: 2, memoryCost: 256, timeCost: 1, parallelism: 1 });
    await t.container.db.updateTable('users').set({ password_hash: legacy, password_hash_unnormalized: true }).where('id', '=', user.id).execute();
    return { ...user, password: raw };
  }

  /** Counts the argon2 verifications of the shared hasher while `fn` runs. */
  async function verificationsDuring(fn: () => Promise<unknown>) {
    const hasher = t.container.hasher;
    const original = { verify: hasher.verify, verifyUnnormalized: hasher.verifyUnnormalized };
    let count = 0;
    hasher.verify = (e, p) => { count += 1; return original.verify(e, p); };
    hasher.verifyUnnormalized = (e, p) => { count += 1; return original.verifyUnnormalized(e, p); };
    try { await fn(); } finally { Object.assign(hasher, original); }
    return count;
  }

  it('registers with the decomposed form and signs in with the composed one, by email and by phone', async () => {
    const res = await t.api({ method: 'POST', path: 'register/', payload: { email: 'ann@example.com', password: DECOMPOSED } });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal((await loginEmail('ann@example.com', COMPOSED)).statusCode, 200);
    assert.equal((await loginEmail('ann@example.com', DECOMPOSED)).statusCode, 200);
    await createUser(t, { email: 'bob@example.com', phone: PHONE, password: COMPOSED });
    assert.equal((await loginPhone(DECOMPOSED)).statusCode, 200);
  });

  it('treats compatibility forms alike (full-width letters, ligatures)', async () => {
    await createUser(t, { email: 'ann@example.com', password: 'ＰＡＳＳ ﬁne phrase 2024' });
    assert.equal((await loginEmail('ann@example.com', 'PASS fine phrase 2024')).statusCode, 200);
  });

  it('accepts the other form as the current password of password/change/ and refuses it as a reused one', async () => {
    const user = await createUser(t, { email: 'ann@example.com', password: DECOMPOSED });
    const { access_token: token } = await signIn(t, { email: user.email, password: COMPOSED });
    const reuse = await t.api({ method: 'POST', path: 'password/change/', token, payload: { current_password: COMPOSED, new_password: DECOMPOSED } });
    assertError(reuse, 400, 'PASSWORD_REUSED');
    const ok = await t.api({ method: 'POST', path: 'password/change/', token, payload: { current_password: COMPOSED, new_password: 'na\u0308ive new passphrase' } });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal((await loginEmail('ann@example.com', 'n\u00e4ive new passphrase')).statusCode, 200);
  });

  it('resets to a decomposed password that then signs in composed', async () => {
    await createUser(t, { email: 'ann@example.com' });
    assert.equal((await t.api({ method: 'POST', path: 'password/reset/request/', payload: { email: 'ann@example.com' } })).statusCode, 200);
    const code = await lastEmailCode(t, 'ann@example.com');
    const res = await t.api({ method: 'POST', path: 'password/reset/confirm/', payload: { email: 'ann@example.com', otp_code: code, new_password: DECOMPOSED } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await loginEmail('ann@example.com', COMPOSED)).statusCode, 200);
  });

  it('accepts the other form on 2fa/disable/', async () => {
    const user = await createUser(t, { email: 'ann@example.com', password: COMPOSED });
    const totp = await enableTotp(t, user);
    const { access_token: token } = expectOk(await loginEmail('ann@example.com', DECOMPOSED, { totp_code: totp.code() }));
    const res = await t.api({ method: 'POST', path: '2fa/disable/', token, payload: { code: totp.backupCodes[0], password: DECOMPOSED } });
    assert.equal(res.statusCode, 200, res.body);
  });

  describe('hashes made before normalization (marked by the migration)', () => {
    afterEach(async () => { await t.container.db.updateTable('users').set({ password_hash_unnormalized: false }).execute(); });

    it('accepts the raw form once, then re-hashes the normalized form and clears the mark', async () => {
      const user = await legacyUser(DECOMPOSED);
      const before = (await userRow(t, user.id)).password_hash;
      assert.equal((await loginEmail(user.email!, DECOMPOSED)).statusCode, 200);
      const after = await userRow(t, user.id);
      assert.notEqual(after.password_hash, before);
      assert.equal(after.password_hash_unnormalized, false);
      assert.equal((await loginEmail(user.email!, COMPOSED)).statusCode, 200);
      assert.equal((await loginPhone(DECOMPOSED)).statusCode, 200);
    });

    it('clears the mark without a new hash when the password was already normalized', async () => {
      const user = await legacyUser('plain ascii passphrase');
      const before = (await userRow(t, user.id)).password_hash;
      assert.equal((await loginEmail(user.email!, 'plain ascii passphrase')).statusCode, 200);
      const after = await userRow(t, user.id);
      assert.deepEqual([after.password_hash, after.password_hash_unnormalized], [before, false]);
    });

    it('keeps the mark and answers LOGIN_FAILED for a wrong password', async () => {
      const user = await legacyUser(DECOMPOSED);
      assertError(await loginEmail(user.email!, 'cafe\u0301 au lait, avec sucre'), 401, 'LOGIN_FAILED');
      assert.equal((await userRow(t, user.id)).password_hash_unnormalized, true);
    });

    it('refuses an unmarked hash of the raw form (only marked hashes are tried raw)', async () => {
      const user = await legacyUser(DECOMPOSED);
      await t.container.db.updateTable('users').set({ password_hash_unnormalized: false }).where('id', '=', user.id).execute();
      assertError(await loginEmail(user.email!, DECOMPOSED), 401, 'LOGIN_FAILED');
    });

    it('checks the current password of password/change/ against the raw form too', async () => {
      const user = await legacyUser(DECOMPOSED);
      const { access_token: token } = expectOk(await loginEmail(user.email!, DECOMPOSED));
      await legacyUser2(user.id, DECOMPOSED);
      const res = await t.api({ method: 'POST', path: 'password/change/', token, payload: { current_password: DECOMPOSED, new_password: 'a brand new passphrase' } });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await userRow(t, user.id)).password_hash_unnormalized, false);
    });

    it('spends the same verifications on a failed login whether the account exists, is marked or not', async () => {
      await legacyUser(DECOMPOSED);
      await createUser(t, { email: 'new@example.com', password: COMPOSED });
      const wrong = 'cafe\u0301 noir, sans sucre';
      const counts = [
        await verificationsDuring(async () => assertError(await loginEmail('old@example.com', wrong), 401, 'LOGIN_FAILED')),
        await verificationsDuring(async () => assertError(await loginEmail('new@example.com', wrong), 401, 'LOGIN_FAILED')),
        await verificationsDuring(async () => assertError(await loginEmail('nobody@example.com', wrong), 401, 'LOGIN_FAILED')),
      ];
      assert.deepEqual(counts, [2, 2, 2]);
      const normalizedInput = [
        await verificationsDuring(async () => assertError(await loginEmail('old@example.com', 'x wrong but plain'), 401, 'LOGIN_FAILED')),
        await verificationsDuring(async () => assertError(await loginEmail('nobody@example.com', 'x wrong but plain'), 401, 'LOGIN_FAILED')),
      ];
      assert.deepEqual(normalizedInput, [1, 1]);
    });
  });

  /** Marks the account's current hash again as made from the raw text (after a login upgraded it). */
  async function legacyUser2(id: number, raw: string) {
    const legacy = await argon2Hash(raw, { algorithm: 2, memoryCost: 256, timeCost: 1, parallelism: 1 });
    await t.container.db.updateTable('users').set({ password_hash: legacy, password_hash_unnormalized: true }).where('id', '=', id).execute();
  }

  function expectOk(res: { statusCode: number; body: string; json(): unknown }) {
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { access_token: string };
  }
});
