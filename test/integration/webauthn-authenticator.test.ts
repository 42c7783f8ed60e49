/** The software WebAuthn authenticator test helper, proven against @simplewebauthn/server's own verification. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import {
  GARBAGE, SoftAuthenticator, tamper, type AuthenticatorOptions, type CeremonyOverrides,
} from '../helpers/webauthn-authenticator.js';

const ORIGIN = 'https://app.example.com';
const RP_ID = 'app.example.com';

/** Options for bad ceremonies, each with what the library says when it refuses them. */
type Refusal = [what: string, overrides: CeremonyOverrides, message: RegExp];
const REFUSED: Refusal[] = [
  ['wrong origin', { origin: 'https://evil.example.com' }, /Unexpected \w+ response origin/],
  ['wrong RP ID hash', { rpId: 'evil.example.com' }, /Unexpected RP ID hash/],
  ['wrong challenge', { challenge: 'bm90LXRoZS1jaGFsbGVuZ2U' }, /Unexpected \w+ response challenge/],
  ['user not present', { userPresent: false }, /not present/],
  ['user not verified', { userVerified: false }, /could not be verified/],
];

const creationOptions = (residentKey: 'required' | 'discouraged' = 'required') =>
  generateRegistrationOptions({
    rpName: 'Example', rpID: RP_ID, userName: 'alice', authenticatorSelection: { residentKey, userVerification: 'required' },
  });

const verifyCreate = (response: RegistrationResponseJSON, options: PublicKeyCredentialCreationOptionsJSON) =>
  verifyRegistrationResponse({
    response, expectedChallenge: options.challenge, expectedOrigin: ORIGIN, expectedRPID: RP_ID, requireUserVerification: true,
  });

/** Registers a credential on a new authenticator and returns what the server would store. */
async function register(opts: Partial<AuthenticatorOptions> = {}, residentKey?: 'required' | 'discouraged') {
  const auth = new SoftAuthenticator({ origin: ORIGIN, ...opts });
  const options = await creationOptions(residentKey);
  const { verified, registrationInfo } = await verifyCreate(auth.create(options), options);
  assert.ok(verified && registrationInfo);
  return { auth, options, info: registrationInfo, credential: registrationInfo.credential };
}

/** Signs in with `auth` and verifies it against `credential`. */
async function signIn(auth: SoftAuthenticator, credential: WebAuthnCredential, overrides?: CeremonyOverrides, discoverable = false) {
  const allowCredentials = discoverable ? [] : [{ id: credential.id }];
  const options = await generateAuthenticationOptions({ rpID: RP_ID, allowCredentials, userVerification: 'required' });
  const response: AuthenticationResponseJSON = auth.get(options, overrides);
  const result = await verifyAuthenticationResponse({
    response, credential, expectedChallenge: options.challenge, expectedOrigin: ORIGIN, expectedRPID: RP_ID, requireUserVerification: true,
  });
  return { response, result };
}

describe('the software WebAuthn authenticator test helper', () => {
  it('registers a credential the library accepts, whose key then verifies assertions with a growing counter', async () => {
    const { auth, info, credential } = await register();
    assert.equal(info.fmt, 'none');
    assert.equal(info.userVerified, true);
    assert.equal(info.credentialDeviceType, 'singleDevice');
    assert.equal(credential.counter, 0);
    assert.equal(credential.id, auth.credentials[0]?.id);
    for (const expected of [1, 2]) {
      const { result } = await signIn(auth, { ...credential, counter: expected - 1 });
      assert.equal(result.verified, true);
      assert.equal(result.authenticationInfo.newCounter, expected);
    }
  });

  it('answers a discoverable request (empty allowCredentials) with the user handle, and only for resident credentials', async () => {
    const { auth, options, credential } = await register();
    const { response, result } = await signIn(auth, credential, {}, true);
    assert.equal(result.verified, true);
    assert.equal(response.response.userHandle, options.user.id);
    const plain = await register({}, 'discouraged');
    assert.throws(() => plain.auth.get({ challenge: 'Y2hhbGxlbmdl', rpId: RP_ID, allowCredentials: [] }), { name: 'NotAllowedError' });
    assert.equal((await signIn(plain.auth, plain.credential)).response.response.userHandle, undefined);
  });

  it('makes the library refuse a registration for each override', async () => {
    const typed: Refusal = ['create typed as get', { type: 'webauthn.get' }, /Unexpected registration response type/];
    for (const [what, overrides, message] of [...REFUSED, typed]) {
      const options = await creationOptions();
      const response = new SoftAuthenticator({ origin: ORIGIN }).create(options, overrides);
      await assert.rejects(verifyCreate(response, options), message, what);
    }
  });

  it('makes the library refuse an assertion for each override', async () => {
    const { auth, credential } = await register();
    const typed: Refusal = ['get typed as create', { type: 'webauthn.create' }, /Unexpected authentication response type/];
    for (const [what, overrides, message] of [...REFUSED, typed]) {
      await assert.rejects(signIn(auth, credential, overrides), message, what);
    }
  });

  it('throws InvalidStateError, as a browser does, when excludeCredentials names a credential it holds', async () => {
    const { auth, credential } = await register();
    const options = await generateRegistrationOptions({
      rpName: 'Example', rpID: RP_ID, userName: 'alice', excludeCredentials: [{ id: credential.id }],
    });
    assert.throws(() => auth.create(options), { name: 'InvalidStateError' });
    assert.equal(auth.credentials.length, 1);
  });

  it('reports a sign counter of 0 forever with zeroCounter', async () => {
    const { auth, credential } = await register({ zeroCounter: true });
    for (let i = 0; i < 2; i++) assert.equal((await signIn(auth, credential)).result.authenticationInfo.newCounter, 0);
  });

  it('sets the backup flags, and tamper() spoils one field of a copy', async () => {
    const { info } = await register({ backupEligible: true, backedUp: true });
    assert.equal(info.credentialDeviceType, 'multiDevice');
    assert.equal(info.credentialBackedUp, true);
    const options = await creationOptions();
    const response = new SoftAuthenticator({ origin: ORIGIN }).create(options);
    await assert.rejects(verifyCreate(tamper(response, 'response.attestationObject', GARBAGE.cbor), options), /not well formed/);
    assert.equal((await verifyCreate(response, options)).verified, true, 'the original is untouched');
  });
});
