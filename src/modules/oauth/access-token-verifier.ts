import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JWK } from 'jose';
import type { Clock } from '../../core/clock.js';
import type { KeyService } from '../keys/keys.service.js';

/** What a verified access token of the authorization server tells `ai/authorize/`. */
export type VerifiedAccessToken = { jti: string; aud: string[] } | 'expired' | null;

const PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'k']);

/** The public part of a private JWK. */
export const publicJwk = (jwk: Record<string, unknown>): JWK =>
  Object.fromEntries(Object.entries(jwk).filter(([member]) => !PRIVATE_MEMBERS.has(member))) as JWK;

type Deps = { keys: Pick<KeyService, 'providerKeys'>; clock: Clock; issuer: string };

/**
 * Checks an RFC 9068 access token of the authorization server (docs/oauth.md "Grants and ai/authorize/"): signed by one of
 * the provider's keys, `typ: at+jwt`, its issuer, not expired. Answers its `jti` and audiences, `'expired'`, or null for
 * anything else (an opaque token, a forged or foreign one). The key set is rebuilt only when the provider's keys change.
 */
export function createAccessTokenVerifier({ keys, clock, issuer }: Deps) {
  let cached: { version: string; jwks: ReturnType<typeof createLocalJWKSet> } | undefined;

  async function keySet() {
    const set = await keys.providerKeys();
    if (cached?.version !== set.version) {
      cached = { version: set.version, jwks: createLocalJWKSet({ keys: set.keys.map((k) => publicJwk(k as unknown as Record<string, unknown>)) }) };
    }
    return cached.jwks;
  }

  async function verify(token: string): Promise<VerifiedAccessToken> {
    if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)) return null;
    try {
      const { payload } = await jwtVerify(token, await keySet(), { issuer, typ: 'at+jwt', currentDate: clock.now() });
      if (typeof payload.jti !== 'string' || payload.jti === '') return null;
      return { jti: payload.jti, aud: payload.aud === undefined ? [] : [payload.aud].flat() };
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) return 'expired';
      return null;
    }
  }

  return { verify };
}

export type AccessTokenVerifier = ReturnType<typeof createAccessTokenVerifier>;
