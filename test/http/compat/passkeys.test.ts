import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { signIn } from '../../factories/sessions.js';
import { createUser, type TestUser } from '../../factories/users.js';
import { useTestApp } from '../../helpers/test-app.js';
import type { SoftAuthenticator } from '../../helpers/webauthn-authenticator.js';
import { authenticator, PASSKEY_ENV } from '../passkeys/helpers.js';
import { expectStatus } from '../../helpers/answers.js';

/** What the SDK's HTTP client sends on every call (the application headers are added by `t.api`). */
const SDK_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The completion bodies the SDK builds from the browser's credential: these fields and no others, no `challenge_id`. */
const sdkAttestation = (c: RegistrationResponseJSON) => ({ id: c.id, type: c.type, rawId: c.rawId,
  response: { attestationObject: c.response.attestationObject, clientDataJSON: c.response.clientDataJSON } });
const sdkAssertion = (c: AuthenticationResponseJSON) => ({ id: c.id, type: c.type, rawId: c.rawId,
  response: { authenticatorData: c.response.authenticatorData, clientDataJSON: c.response.clientDataJSON, signature: c.response.signature,
    userHandle: c.response.userHandle ?? null } });

/** SDK compatibility (docs/migrating-from-tenxyte.md): passkey ceremonies, listing and deletion exactly as the SDK drives them. */
describe('SDK compatibility: passkeys', () => {
  const t = useTestApp({ env: PASSKEY_ENV });
  let ann: TestUser;
  let token: string;
  let key: SoftAuthenticator;
  beforeEach(async () => {
    ann = await createUser(t, { email: 'ann@example.com', first_name: 'Ann' });
    token = (await signIn(t, ann)).access_token;
    key = authenticator();
  });

  /** A call as the SDK makes it: a bodiless POST still carries the JSON content type, with `Content-Length: 0` as fetch sends. */
  const sdk = (method: 'GET' | 'POST' | 'DELETE', path: string, opts: { token?: string; payload?: object } = {}) =>
    t.api({ method, path, ...(opts.token ? { token: opts.token } : {}), ...(opts.payload ? { payload: opts.payload, headers: SDK_HEADERS }
      : { headers: method === 'POST' ? { ...SDK_HEADERS, 'content-length': '0' } : SDK_HEADERS }) });

  /** registerWebAuthn(deviceName): begin without a body, read `publicKey`, complete with `{device_name, credential}`. */
  async function registerAsSdk(deviceName: string, device = key) {
    const begun = expectStatus(await sdk('POST', 'webauthn/register/begin/', { token }), 200);
    const credential = device.create(begun.publicKey);
    const payload = { device_name: deviceName, credential: sdkAttestation(credential) };
    const res = await sdk('POST', 'webauthn/register/complete/', { token, payload });
    return { publicKey: begun.publicKey, res };
  }

  /** authenticateWebAuthn(email?): begin with `{email}` or `{}`, read `publicKey`, complete with `{credential}` only. */
  async function authenticateAsSdk(email?: string) {
    const begun = expectStatus(await sdk('POST', 'webauthn/authenticate/begin/', { payload: email ? { email } : {} }), 200);
    const payload = { credential: sdkAssertion(key.get(begun.publicKey)) };
    return { publicKey: begun.publicKey, payload, res: await sdk('POST', 'webauthn/authenticate/complete/', { payload }) };
  }

  it('registers: begin options under publicKey (base64url challenge and ids), complete without challenge_id', async () => {
    const first = await registerAsSdk('Laptop');
    assert.match(first.publicKey.challenge, BASE64URL);
    assert.match(first.publicKey.user.id, BASE64URL);
    assert.equal(expectStatus(first.res, 201).credential.id > 0, true);
    const second = await registerAsSdk('Phone', authenticator({ attachment: 'cross-platform' }));
    expectStatus(second.res, 201);
    assert.deepEqual(second.publicKey.excludeCredentials.map((c: { id: string }) => c.id), [key.credentials[0]!.id]);
    assert.match(second.publicKey.excludeCredentials[0].id, BASE64URL);
  });

  it('signs in with an address and without one: access, refresh, user, message, credential_used', async () => {
    expectStatus((await registerAsSdk('Laptop')).res, 201);
    const withEmail = await authenticateAsSdk('ann@example.com');
    assert.match(withEmail.publicKey.challenge, BASE64URL);
    assert.match(withEmail.publicKey.allowCredentials[0].id, BASE64URL);
    const body = expectStatus(withEmail.res, 200);
    assert.deepEqual([body.message, body.credential_used, body.user.email, body.user.first_name],
      ['Login successful', 'Laptop', ann.email, 'Ann']);
    assert.equal(typeof body.refresh, 'string');
    assert.equal(expectStatus(await sdk('GET', 'me/', { token: body.access }), 200).email, ann.email);
    const resident = expectStatus((await authenticateAsSdk()).res, 200);
    assert.equal(resident.user.email, ann.email);
  });

  it('refuses a completion whose challenge was already used', async () => {
    expectStatus((await registerAsSdk('Laptop')).res, 201);
    const { payload, res } = await authenticateAsSdk('ann@example.com');
    expectStatus(res, 200);
    const replayed = await sdk('POST', 'webauthn/authenticate/complete/', { payload });
    assert.equal(replayed.statusCode, 400, replayed.body);
    assert.equal(replayed.json().access, undefined);
  });

  it('lists credentials[] with count, and deletes with 204 and no body', async () => {
    expectStatus((await registerAsSdk('Laptop')).res, 201);
    expectStatus((await authenticateAsSdk('ann@example.com')).res, 200);
    const listed = expectStatus(await sdk('GET', 'webauthn/credentials/', { token }), 200);
    assert.equal(listed.count, 1);
    const [row] = listed.credentials;
    assert.deepEqual([row.device_name, typeof row.created_at, typeof row.last_used_at, typeof row.is_resident_key],
      ['Laptop', 'string', 'string', 'boolean']);
    assert.ok('authenticator_type' in row);
    const deleted = await sdk('DELETE', `webauthn/credentials/${row.id}/`, { token });
    assert.deepEqual([deleted.statusCode, deleted.body], [204, '']);
    assert.deepEqual(expectStatus(await sdk('GET', 'webauthn/credentials/', { token }), 200), { credentials: [], count: 0 });
    assert.equal(expectStatus(await sdk('DELETE', `webauthn/credentials/${row.id}/`, { token }), 404).code, 'NOT_FOUND');
  });
});
