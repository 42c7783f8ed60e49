import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { decodeJwt, deviceInfo, signIn } from '../../factories/sessions.js';
import { enableTotp } from '../../factories/twofactor.js';
import { createUser, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import { GARBAGE, tamper, type SoftAuthenticator } from '../../helpers/webauthn-authenticator.js';
import { expectStatus } from '../../helpers/answers.js';
import { authenticateBegin, authenticateComplete, authenticator, PASSKEY_ENV, register, registerBegin, RP_ID, sessionCount,
  signInWithPasskey } from './helpers.js';

/** docs/passkeys.md: `webauthn/authenticate/begin/` and `…/complete/`, a full login in every respect. */
describe('passkey sign-in', () => {
  const t = useTestApp({ env: { ...PASSKEY_ENV, SVC_AUDIT_LOGGING_ENABLED: 'true' } });
  let ann: TestUser;
  let authn: SoftAuthenticator;

  /** An account with one registered passkey; the password session used to register it is ended. */
  async function withPasskey(overrides: Parameters<typeof createUser>[1] = {}, authOpts: Parameters<typeof authenticator>[0] = {}) {
    const user = await createUser(t, { email: `p${Math.random().toString(36).slice(2, 8)}@example.com`, ...overrides });
    // An administrator without 2FA is held at the gate, with a token that may register a passkey.
    const login = await t.api({ method: 'POST', path: 'login/email/', payload: { email: user.email, password: user.password } });
    const token = (login.json() as { access_token: string }).access_token;
    const key = authenticator(authOpts);
    expectStatus((await register(t, token, key, { device_name: 'Phone' })).res, 201);
    await t.container.db.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    return { user, key };
  }
  beforeEach(async () => {
    ({ user: ann, key: authn } = await withPasskey({ first_name: 'Ann' }));
  });

  it('begins with an address: the documented request options with the account\'s passkeys, challenge_id and publicKey', async () => {
    const res = expectStatus(await authenticateBegin(t, { email: ann.email! }), 200);
    const { challenge_id, publicKey, ...flat } = res;
    assert.deepEqual(publicKey, flat);
    assert.ok(Number.isInteger(challenge_id));
    assert.deepEqual(Object.keys(flat).sort(), ['allowCredentials', 'challenge', 'rpId', 'timeout', 'userVerification']);
    assert.deepEqual([flat.rpId, flat.timeout, flat.userVerification], [RP_ID, 300000, 'preferred']);
    assert.deepEqual(flat.allowCredentials.map((c: { id: string; type: string }) => [c.id, c.type]), [[authn.credentials[0]!.id, 'public-key']]);
  });

  it('signs in: the documented access, refresh, user, message, credential_used plus the usual token response', async () => {
    const { res } = await signInWithPasskey(t, authn, { email: ann.email! });
    const body = expectStatus(res, 200);
    assert.equal(body.access, body.access_token);
    assert.equal(body.refresh, body.refresh_token);
    assert.ok(body.access && body.refresh && body.expires_in > 0);
    assert.deepEqual([body.message, body.credential_used, body.user.email, body.user.first_name], ['Login successful', 'Phone', ann.email, 'Ann']);
    assert.ok('is_active' in body.user && 'last_login' in body.user);
    assert.equal(expectStatus(await t.api({ method: 'GET', path: 'me/', token: body.access }), 200).email, ann.email);
    const attempts = await t.container.db.selectFrom('login_attempts').select(['method', 'success']).where('user_id', '=', ann.id)
      .where('method', '<>', 'password').execute();
    assert.deepEqual(attempts, [{ method: 'passkey', success: true }]);
    const row = await t.container.db.selectFrom('webauthn_credentials').select(['sign_count', 'last_used_at']).executeTakeFirstOrThrow();
    assert.equal(row.sign_count, 1);
    assert.ok(row.last_used_at);
    const stats = expectStatus(await t.api({ method: 'GET', path: 'dashboard/auth/', token: (await adminToken()).access_token }), 200);
    assert.equal(JSON.stringify(stats).includes('"passkey":1'), true, 'login_by_method counts passkey');
  });

  const adminToken = async () => {
    const admin = await createUser(t, { email: 'root@example.com', is_superuser: true });
    const totp = await enableTotp(t, admin);
    const res = await t.api({ method: 'POST', path: 'login/email/', payload: { email: admin.email!, password: admin.password, totp_code: totp.code() } });
    return expectStatus(res, 200) as { access_token: string };
  };

  it('signs in without an address (resident-key mode): no allow list, user verification required, the account from userHandle', async () => {
    const options = expectStatus(await authenticateBegin(t, undefined), 200);
    assert.deepEqual([options.allowCredentials, options.userVerification], [[], 'required']);
    const { res } = await signInWithPasskey(t, authn, { withChallengeId: false });
    assert.equal(expectStatus(res, 200).user.email, ann.email);
    const unverified = await signInWithPasskey(t, authn, { overrides: { userVerified: false } });
    assert.equal(expectStatus(unverified.res, 400).code, 'INVALID_ASSERTION', 'user verification is required here');
  });

  it('answers 400 USER_NOT_FOUND for an unknown address, and stores no challenge', async () => {
    const before = await t.container.db.selectFrom('webauthn_challenges').select('id').execute();
    const res = expectStatus(await authenticateBegin(t, { email: 'nobody@example.com' }), 400);
    assert.equal(res.code, 'USER_NOT_FOUND');
    assert.equal((await t.container.db.selectFrom('webauthn_challenges').select('id').execute()).length, before.length);
  });

  it('refuses assertions that do not verify with 400 INVALID_ASSERTION, and opens no session', async () => {
    const cases: Array<[string, Parameters<typeof signInWithPasskey>[2]]> = [
      ['another origin', { email: ann.email!, overrides: { origin: 'https://evil.example.net' } }],
      ['another RP ID', { email: ann.email!, overrides: { rpId: 'evil.example.net' } }],
      ['a challenge never issued', { email: ann.email!, overrides: { challenge: Buffer.from('y'.repeat(32)).toString('base64url') } }],
      ['a registration response type', { email: ann.email!, overrides: { type: 'webauthn.create' } }],
      ['no user presence', { email: ann.email!, overrides: { userPresent: false } }],
    ];
    for (const [what, opts] of cases) {
      assert.equal(expectStatus((await signInWithPasskey(t, authn, opts)).res, 400).code, 'INVALID_ASSERTION', what);
    }
    for (const [what, path, value] of [['malformed signature', 'response.signature', GARBAGE.base64url],
      ['malformed authenticatorData', 'response.authenticatorData', GARBAGE.cbor],
      ['malformed clientDataJSON', 'response.clientDataJSON', GARBAGE.base64url]] as const) {
      const options = expectStatus(await authenticateBegin(t, { email: ann.email! }), 200);
      const res = await authenticateComplete(t, { credential: tamper(authn.get(options.publicKey), path, value), challenge_id: options.challenge_id });
      assert.equal(expectStatus(res, 400).code, 'INVALID_ASSERTION', what);
    }
    assert.equal(await sessionCount(t, ann.id), 0);
  });

  it('refuses a challenge used twice, expired, or of the registration ceremony', async () => {
    const { res, credential, options } = await signInWithPasskey(t, authn, { email: ann.email! });
    expectStatus(res, 200);
    const replay = await authenticateComplete(t, { credential, challenge_id: options.challenge_id });
    assert.equal(expectStatus(replay, 400).code, 'INVALID_ASSERTION', 'replayed');
    const late = expectStatus(await authenticateBegin(t, { email: ann.email! }), 200);
    const lateCredential = authn.get(late.publicKey);
    t.clock.advance(301_000);
    assert.equal(expectStatus(await authenticateComplete(t, { credential: lateCredential }), 400).code, 'INVALID_ASSERTION', 'expired');
    const registration = await registerBegin(t, (await signIn(t, ann)).access_token);
    const wrongCeremony = authn.get({ challenge: registration.challenge, rpId: RP_ID, allowCredentials: [] });
    assert.equal(expectStatus(await authenticateComplete(t, { credential: wrongCeremony }), 400).code, 'INVALID_ASSERTION', 'a registration challenge');
  });

  it('answers 401 AUTH_FAILED for another account\'s passkey, an unknown one, or a userHandle that is not the passkey\'s', async () => {
    const { key: bobKey } = await withPasskey();
    const annOptions = expectStatus(await authenticateBegin(t, { email: ann.email! }), 200);
    const stolen = bobKey.get({ ...annOptions.publicKey, allowCredentials: [] });
    const res = await authenticateComplete(t, { credential: stolen, challenge_id: annOptions.challenge_id });
    assert.equal(expectStatus(res, 401).code, 'AUTH_FAILED', 'another account\'s passkey for ann\'s address');
    const options = expectStatus(await authenticateBegin(t, {}), 200);
    const forged = authn.get(options.publicKey, { userHandle: bobKey.credentials[0]!.userHandle });
    assert.equal(expectStatus(await authenticateComplete(t, { credential: forged }), 401).code, 'AUTH_FAILED', 'another userHandle');
    await t.container.db.deleteFrom('webauthn_credentials').execute();
    assert.equal(expectStatus((await signInWithPasskey(t, authn)).res, 401).code, 'AUTH_FAILED', 'an unknown passkey');
    assert.equal(await sessionCount(t, ann.id), 0);
  });

  it('refuses a sign counter that does not grow and audits it as critical; accepts authenticators whose counter stays 0', async () => {
    expectStatus((await signInWithPasskey(t, authn, { email: ann.email! })).res, 200);
    const cloned = await signInWithPasskey(t, authn, { email: ann.email!, overrides: { counter: 1 } });
    assert.equal(expectStatus(cloned.res, 400).code, 'INVALID_ASSERTION');
    const event = await t.container.db.selectFrom('audit_events').select(['severity', 'details'])
      .where('event_type', '=', 'passkey_counter_regression').executeTakeFirstOrThrow();
    assert.equal(event.severity, 'critical');
    assert.deepEqual([(event.details as Record<string, unknown>).stored_counter, (event.details as Record<string, unknown>).presented_counter], [1, 1]);
    const { user: zed, key: zero } = await withPasskey({}, { zeroCounter: true });
    for (let n = 0; n < 2; n++) expectStatus((await signInWithPasskey(t, zero, { email: zed.email! })).res, 200);
  });

  it('refuses an assertion whose backup-eligible flag differs from the registered one', async () => {
    const res = (await signInWithPasskey(t, authn, { email: ann.email!, overrides: { backupEligible: true, backedUp: true } })).res;
    assert.equal(expectStatus(res, 400).code, 'INVALID_ASSERTION');
  });

  it('lets exactly one of parallel completions of one assertion sign in', async () => {
    const options = expectStatus(await authenticateBegin(t, { email: ann.email! }), 200);
    const credential = authn.get(options.publicKey);
    const results = await Promise.all(Array.from({ length: 5 }, () => authenticateComplete(t, { credential, challenge_id: options.challenge_id })));
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 400, 400, 400, 400]);
    assert.equal(await sessionCount(t, ann.id), 1);
  });

  describe('a full login', () => {
    it('refuses a banned account (401 AUTH_FAILED) and a locked one (423), recording the attempts', async () => {
      await t.container.db.updateTable('users').set({ is_banned: true }).where('id', '=', ann.id).execute();
      assert.equal(expectStatus((await signInWithPasskey(t, authn, { email: ann.email! })).res, 401).code, 'AUTH_FAILED');
      await t.container.db.updateTable('users').set({ is_banned: false, locked_until: new Date(t.clock.now().getTime() + 600_000) })
        .where('id', '=', ann.id).execute();
      assert.equal(expectStatus((await signInWithPasskey(t, authn, { email: ann.email! })).res, 423).code, 'ACCOUNT_LOCKED');
      const failures = await t.container.db.selectFrom('login_attempts').select('failure_reason')
        .where('user_id', '=', ann.id).where('success', '=', false).orderBy('id').execute();
      assert.deepEqual(failures.map((f) => f.failure_reason), ['banned', 'account_locked']);
      assert.equal(await sessionCount(t, ann.id), 0);
    });

    it('follows the account\'s device limit', async () => {
      await t.container.db.updateTable('users').set({ max_devices: 1 }).where('id', '=', ann.id).execute();
      const first = expectStatus((await signInWithPasskey(t, authn, { email: ann.email!, device_info: deviceInfo(1) })).res, 200);
      expectStatus((await signInWithPasskey(t, authn, { email: ann.email!, device_info: deviceInfo(2) })).res, 200);
      assert.equal((await t.api({ method: 'GET', path: 'me/', token: first.access })).statusCode, 401, 'the oldest device was signed out');
    });

    it('counts a passkey that verified the user as the second factor of a 2FA account; without verification it is refused', async () => {
      await enableTotp(t, ann);
      const options = expectStatus(await authenticateBegin(t, { email: ann.email! }), 200);
      assert.equal(options.userVerification, 'required');
      expectStatus((await signInWithPasskey(t, authn, { email: ann.email! })).res, 200);
      const unverified = await signInWithPasskey(t, authn, { email: ann.email!, overrides: { userVerified: false } });
      assert.equal(expectStatus(unverified.res, 400).code, 'INVALID_ASSERTION');
    });

    it('passes the administrators\' 2FA gate with user verification, also on refresh; holds it without', async () => {
      const { user: admin, key } = await withPasskey({ is_staff: true });
      const verified = expectStatus((await signInWithPasskey(t, key, { email: admin.email! })).res, 200);
      assert.equal(verified.token_scope, undefined, 'full scope');
      const refreshed = expectStatus(await t.api({ method: 'POST', path: 'refresh/', payload: { refresh_token: verified.refresh } }), 200);
      assert.equal(decodeJwt(refreshed.access_token).payload.scope, 'full', 'the refreshed token keeps the full scope');
      const gated = await signInWithPasskey(t, key, { email: admin.email!, overrides: { userVerified: false } });
      assert.deepEqual([expectStatus(gated.res, 403).code, expectStatus(gated.res, 403).token_scope], ['ADMIN_2FA_SETUP_REQUIRED', '2fa_setup_only']);
    });
  });
});
