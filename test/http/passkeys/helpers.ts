import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../helpers/test-app.js';
import { SoftAuthenticator, type AuthenticatorOptions, type CeremonyOverrides } from '../../helpers/webauthn-authenticator.js';

export const RP_ID = 'example.com';
export const ORIGIN = 'https://example.com';
/** Passkeys on, for the RP ID `example.com`: `https://example.com` is an expected origin by default. */
export const PASSKEY_ENV = { SVC_WEBAUTHN_ENABLED: 'true', SVC_WEBAUTHN_RP_ID: RP_ID };

export const authenticator = (opts: Partial<AuthenticatorOptions> = {}) => new SoftAuthenticator({ origin: ORIGIN, ...opts });

const json = (res: LightMyRequestResponse) => res.json() as Record<string, any>;

export const registerBegin = async (t: TestApp, token: string, body: object = {}) => {
  const res = await t.api({ method: 'POST', path: 'webauthn/register/begin/', token, payload: body });
  assert.equal(res.statusCode, 200, res.body);
  return json(res);
};

export const registerComplete = (t: TestApp, token: string, payload: object) =>
  t.api({ method: 'POST', path: 'webauthn/register/complete/', token, payload });

/** begin → the authenticator creates → complete; answers the complete response (any status) and what was sent. */
export async function register(t: TestApp, token: string, authn: SoftAuthenticator, opts: {
  overrides?: CeremonyOverrides; device_name?: string; withChallengeId?: boolean; begin?: object;
} = {}) {
  const options = await registerBegin(t, token, opts.begin);
  const credential = authn.create(options.publicKey, opts.overrides);
  const res = await registerComplete(t, token, { credential, ...(opts.withChallengeId === false ? {} : { challenge_id: options.challenge_id }),
    ...(opts.device_name ? { device_name: opts.device_name } : {}) });
  return { res, options, credential };
}

export const authenticateBegin = (t: TestApp, body: object | undefined) =>
  t.api({ method: 'POST', path: 'webauthn/authenticate/begin/', ...(body === undefined ? {} : { payload: body }) });

export const authenticateComplete = (t: TestApp, payload: object) => t.api({ method: 'POST', path: 'webauthn/authenticate/complete/', payload });

/** begin (with `email`, or resident-key mode without) → the authenticator signs → complete. */
export async function signInWithPasskey(t: TestApp, authn: SoftAuthenticator, opts: {
  email?: string; overrides?: CeremonyOverrides; withChallengeId?: boolean; device_info?: string;
} = {}) {
  const begun = await authenticateBegin(t, opts.email === undefined ? {} : { email: opts.email });
  assert.equal(begun.statusCode, 200, begun.body);
  const options = json(begun);
  const credential = authn.get(options.publicKey, opts.overrides);
  const res = await authenticateComplete(t, { credential, ...(opts.withChallengeId === false ? {} : { challenge_id: options.challenge_id }),
    ...(opts.device_info ? { device_info: opts.device_info } : {}) });
  return { res, options, credential };
}

/** The sessions of an account: a refused ceremony opens none. */
export const sessionCount = async (t: TestApp, userId: number) =>
  (await t.container.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).length;
