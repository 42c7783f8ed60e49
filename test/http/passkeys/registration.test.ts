import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { signIn } from '../../factories/sessions.js';
import { createUser, type TestUser } from '../../factories/users.js';
import { createTestApp, useTestApp } from '../../helpers/test-app.js';
import { GARBAGE, tamper } from '../../helpers/webauthn-authenticator.js';
import { expectStatus } from '../../helpers/answers.js';
import { authenticator, ORIGIN, PASSKEY_ENV, register, registerBegin, registerComplete, RP_ID } from './helpers.js';

/** docs/passkeys.md: `webauthn/register/begin/` and `…/complete/` with a software authenticator. */
describe('passkey registration', () => {
  const t = useTestApp({ env: { ...PASSKEY_ENV, SVC_AUDIT_LOGGING_ENABLED: 'true' } });
  let user: TestUser;
  let token: string;
  beforeEach(async () => {
    user = await createUser(t, { email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee' });
    token = (await signIn(t, user)).access_token;
  });

  const credentials = () => t.container.db.selectFrom('webauthn_credentials').selectAll().execute();

  it('answers the documented creation options, challenge_id and the publicKey copy', async () => {
    const options = await registerBegin(t, token);
    const { challenge_id, publicKey, ...flat } = options;
    assert.deepEqual(publicKey, flat, 'publicKey holds the same options');
    assert.ok(Number.isInteger(challenge_id));
    assert.match(flat.challenge, /^[A-Za-z0-9_-]{32,}$/);
    assert.deepEqual(flat.rp, { name: 'Gatehouse', id: RP_ID });
    assert.deepEqual([flat.user.name, flat.user.displayName], ['ann@example.com', 'Ann Lee']);
    assert.equal(Buffer.from(flat.user.id, 'base64url').length, 32);
    assert.deepEqual(flat.pubKeyCredParams, [-7, -257, -8].map((alg) => ({ alg, type: 'public-key' })));
    assert.equal(flat.timeout, 300000);
    assert.equal(flat.attestation, 'none');
    assert.deepEqual(flat.authenticatorSelection, { authenticatorAttachment: 'platform', residentKey: 'preferred',
      requireResidentKey: false, userVerification: 'preferred' });
    assert.deepEqual(flat.excludeCredentials, []);
    const any = await registerBegin(t, token, { authenticator_attachment: 'any' });
    assert.equal(any.authenticatorSelection.authenticatorAttachment, undefined);
    const row = await t.container.db.selectFrom('webauthn_challenges').selectAll().where('id', '=', challenge_id).executeTakeFirstOrThrow();
    assert.notEqual(row.challenge_hash, flat.challenge, 'only the hash of the challenge is stored');
    assert.equal(row.expires_at.getTime() - row.created_at.getTime() <= 300_000 + 1000, true);
  });

  it('registers a passkey: 201 with the documented record, stored with its public key, counter, flags and handle', async () => {
    const authn = authenticator({ backupEligible: true, backedUp: true });
    const { res, options, credential } = await register(t, token, authn, { device_name: 'Work laptop' });
    const body = expectStatus(res, 201);
    assert.equal(body.message, 'Passkey registered');
    assert.deepEqual(Object.keys(body.credential).sort(), ['created_at', 'device_name', 'device_type', 'id', 'is_active', 'last_used_at', 'name']);
    assert.deepEqual([body.credential.name, body.credential.device_type, body.credential.is_active, body.credential.last_used_at],
      ['Work laptop', 'multiDevice', true, null]);
    const [row] = await credentials();
    assert.equal(row!.credential_id, credential.id);
    assert.equal(row!.user_id, user.id);
    assert.equal(row!.user_handle, options.user.id);
    assert.deepEqual([row!.sign_count, row!.backed_up, row!.authenticator_type, row!.is_resident_key], [0, true, 'platform', true]);
    const audit = await t.container.db.selectFrom('audit_events').select('event_type').where('event_type', '=', 'passkey_registered').execute();
    assert.equal(audit.length, 1);
    // The next begin excludes it and keeps the account's handle; the authenticator refuses to register it twice.
    const next = await registerBegin(t, token);
    assert.deepEqual(next.excludeCredentials.map((c: { id: string }) => c.id), [credential.id]);
    assert.equal(next.user.id, options.user.id);
    assert.throws(() => authn.create(next.publicKey), { name: 'InvalidStateError' });
  });

  it('finds the challenge from clientDataJSON when challenge_id is missing (the SDK sends none)', async () => {
    const { res } = await register(t, token, authenticator({ attachment: 'cross-platform' }), { withChallengeId: false });
    expectStatus(res, 201);
    const [row] = await credentials();
    assert.deepEqual([row!.authenticator_type, row!.device_type, row!.device_name], ['cross-platform', 'singleDevice', 'Passkey']);
  });

  it('refuses a challenge used twice, of another ceremony, of another account, expired, or another challenge_id', async () => {
    const authn = authenticator();
    const options = await registerBegin(t, token);
    const response = authn.create(options.publicKey);
    expectStatus(await registerComplete(t, token, { credential: response, challenge_id: options.challenge_id }), 201);
    const replay = await registerComplete(t, token, { credential: response, challenge_id: options.challenge_id });
    assert.equal(expectStatus(replay, 400).code, 'INVALID_CREDENTIAL', 'replayed');

    const signInOptions = (await t.api({ method: 'POST', path: 'webauthn/authenticate/begin/', payload: {} })).json();
    const wrongCeremony = authenticator().create({ ...options.publicKey, challenge: signInOptions.challenge, excludeCredentials: [] });
    assert.equal(expectStatus(await registerComplete(t, token, { credential: wrongCeremony }), 400).code, 'INVALID_CREDENTIAL', 'a sign-in challenge');

    const bob = await createUser(t, { email: 'bob@example.com' });
    const bobOptions = await registerBegin(t, (await signIn(t, bob)).access_token);
    const stolen = authenticator().create(bobOptions.publicKey);
    assert.equal(expectStatus(await registerComplete(t, token, { credential: stolen }), 400).code, 'INVALID_CREDENTIAL', 'another account\'s');
    expectStatus(await registerComplete(t, (await signIn(t, bob)).access_token, { credential: stolen }), 201);

    const late = await registerBegin(t, token);
    const lateResponse = authenticator().create(late.publicKey);
    const otherId = await registerBegin(t, token);
    const mismatch = await registerComplete(t, token, { credential: lateResponse, challenge_id: otherId.challenge_id });
    assert.equal(expectStatus(mismatch, 400).code, 'INVALID_CREDENTIAL', 'another challenge_id');
    t.clock.advance(301_000);
    const fresh = (await signIn(t, user)).access_token;
    assert.equal(expectStatus(await registerComplete(t, fresh, { credential: lateResponse }), 400).code, 'INVALID_CREDENTIAL', 'expired');
    assert.equal((await credentials()).length, 2);
  });

  it('refuses what does not verify: origin, RP ID, challenge, type, user presence, malformed data (400 INVALID_CREDENTIAL)', async () => {
    const cases: Array<[string, (o: PublicKeyCredentialCreationOptionsJSON) => object]> = [
      ['another origin', (o) => authenticator().create(o, { origin: 'https://evil.example.net' })],
      ['another RP ID', (o) => authenticator().create(o, { rpId: 'evil.example.net' })],
      ['a challenge never issued', (o) => authenticator().create(o, { challenge: Buffer.from('x'.repeat(32)).toString('base64url') })],
      ['a sign-in response type', (o) => authenticator().create(o, { type: 'webauthn.get' })],
      ['no user presence', (o) => authenticator().create(o, { userPresent: false })],
      ['malformed base64url', (o) => tamper(authenticator().create(o), 'response.attestationObject', GARBAGE.base64url)],
      ['not CBOR', (o) => tamper(authenticator().create(o), 'response.attestationObject', GARBAGE.cbor)],
      ['malformed clientDataJSON', (o) => tamper(authenticator().create(o), 'response.clientDataJSON', GARBAGE.base64url)],
      ['a credential id over 1023 bytes', (o) => authenticator().create(o, { credentialIdLength: 1024 })],
    ];
    for (const [what, make] of cases) {
      const options = await registerBegin(t, token);
      const res = await registerComplete(t, token, { credential: make(options.publicKey), challenge_id: options.challenge_id });
      assert.equal(expectStatus(res, 400).code, 'INVALID_CREDENTIAL', what);
    }
    assert.equal(expectStatus(await registerComplete(t, token, { credential: 'nope' }), 400).code, 'VALIDATION_ERROR');
    assert.deepEqual(await credentials(), []);
  });

  it('accepts a registration without user verification (preferred, not required)', async () => {
    expectStatus((await register(t, token, authenticator(), { overrides: { userVerified: false } })).res, 201);
  });

  it('answers 400 DUPLICATE_CREDENTIAL for a credential id already registered, by any account', async () => {
    const authn = authenticator();
    const first = await register(t, token, authn);
    expectStatus(first.res, 201);
    // The same credential id registered again (an authenticator that ignores excludeCredentials), by another account.
    const bob = await createUser(t, { email: 'bob@example.com' });
    const bobToken = (await signIn(t, bob)).access_token;
    const options = await registerBegin(t, bobToken);
    const dup = authenticator().create(options.publicKey, { credentialId: first.credential.id });
    const res = await registerComplete(t, bobToken, { credential: dup, challenge_id: options.challenge_id });
    assert.equal(expectStatus(res, 400).code, 'DUPLICATE_CREDENTIAL');
    assert.equal((await credentials()).length, 1);
  });

  it('expects https://<rp id> and the application\'s origins on the RP ID or under it (SVC_WEBAUTHN_ORIGINS: origins.test.ts)', async () => {
    await t.container.db.updateTable('applications').set({ allowed_origins: JSON.stringify(['https://app.example.com', 'https://evil.net']) as never })
      .where('id', '=', t.credentials.id).execute();
    t.container.services.applications.invalidate();
    for (const [origin, status] of [['https://app.example.com', 201], ['https://evil.net', 400], [ORIGIN, 201]] as const) {
      expectStatus((await register(t, token, authenticator({ origin }))).res, status);
    }
  });

  it('needs a bearer (401) and answers 400 WEBAUTHN_DISABLED, naming SVC_WEBAUTHN_ENABLED, when passkeys are off', async () => {
    assert.equal((await t.api({ method: 'POST', path: 'webauthn/register/begin/', payload: {} })).statusCode, 401);
    const off = await createTestApp({ env: { SVC_WEBAUTHN_ENABLED: 'false' } });
    try {
      for (const path of ['webauthn/register/begin/', 'webauthn/register/complete/', 'webauthn/authenticate/begin/', 'webauthn/authenticate/complete/']) {
        const body = expectStatus(await off.api({ method: 'POST', path, payload: {} }), 400);
        assert.deepEqual([body.code, body.details], ['WEBAUTHN_DISABLED', { setting: 'SVC_WEBAUTHN_ENABLED' }], path);
      }
      const listing = expectStatus(await off.api({ method: 'GET', path: 'webauthn/credentials/' }), 400);
      assert.deepEqual([listing.code, listing.details], ['WEBAUTHN_DISABLED', { setting: 'SVC_WEBAUTHN_ENABLED' }]);
    } finally {
      await off.close();
    }
  });
});
