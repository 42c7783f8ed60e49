import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import type { JWK } from 'jose';
import type { AsymmetricAlgorithm } from '../../../src/security/jwt.js';
import { createUser } from '../../factories/users.js';
import { decodeJwt, signIn } from '../../factories/sessions.js';
import type { TestApp } from '../../helpers/test-app.js';

export const ASYMMETRIC: AsymmetricAlgorithm[] = ['EdDSA', 'ES256', 'RS256'];
/** Stored signing keys are sealed with it; debug mode would otherwise derive it from the JWT secret. */
export const ENCRYPTION_KEY = 'an-encryption-key-for-the-signing-key-tests';

export const keysEnv = (alg: string, extra: Record<string, string> = {}) =>
  ({ SVC_JWT_ALGORITHM: alg, SVC_ENCRYPTION_KEY: ENCRYPTION_KEY, ...extra });

/** A PKCS#8 PEM private key for `alg`, as an operator would put in SVC_JWT_PRIVATE_KEY. */
export function privateKeyPem(alg: AsymmetricAlgorithm): string {
  const pair = alg === 'EdDSA' ? generateKeyPairSync('ed25519')
    : alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
  return pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
}

/** `GET /.well-known/jwks.json`, without application credentials, as a resource server fetches it. */
export async function fetchJwks(t: TestApp): Promise<{ keys: JWK[] }> {
  const res = await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

export const kidsOf = (jwks: { keys: JWK[] }) => jwks.keys.map((k) => k.kid);

/** A new account signed in by password: its access token and the token's header and claims. */
export async function freshToken(t: TestApp) {
  const user = await createUser(t);
  const { access_token } = await signIn(t, user);
  const { header, payload } = decodeJwt(access_token);
  return { user, token: access_token, kid: header.kid as string, alg: header.alg as string, payload };
}

export const me = (t: TestApp, token: string) => t.api({ method: 'GET', path: 'me/', token });

/** Polls `probe` every 25 ms until it answers true, failing after `ms`. */
export async function eventually(what: string, probe: () => Promise<boolean>, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > deadline) assert.fail(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
