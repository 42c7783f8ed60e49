import { createHash, createPublicKey, verify as verifySignature, type KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import type { Clock } from '../../core/clock.js';
import type { KeyService } from '../keys/keys.service.js';

/** The claims of a verified access token that Gatehouse reads; everything else comes from its stored record. */
export interface AccessTokenClaims {
  jti: string;
  aud: string[];
  iss: string;
  iat: number | undefined;
  exp: number;
  /** Issued by the token-exchange grant to a delegated agent (it carries `act`, docs/agents.md "Delegation"). */
  delegated: boolean;
  sub: string | undefined;
  client_id: string | undefined;
}

/** A verified access token of the authorization server, `'expired'`, or null for anything else. */
export type VerifiedAccessToken = AccessTokenClaims | 'expired' | null;

const PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'k']);

/** The public part of a private JWK. */
export const publicJwk = (jwk: Record<string, unknown>): JWK =>
  Object.fromEntries(Object.entries(jwk).filter(([member]) => !PRIVATE_MEMBERS.has(member))) as JWK;

/** How long the key set is used before the provider's keys are read again (a token naming an unknown kid reads them at once). */
const KEYS_FRESH_MS = 60_000;
/** Tokens whose signature was checked, held until they expire (a resource presents the same token call after call). */
const VERIFIED_HELD = 10_000;

type Deps = { keys: Pick<KeyService, 'providerKeys'>; clock: Clock; issuer: string };

const segment = (text: string): Record<string, unknown> | null => {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : null;
  } catch {
    return null;
  }
};

/**
 * Checks an RFC 9068 access token of the authorization server (docs/oauth.md "Grants and ai/authorize/"): header `alg`
 * RS256 (the one algorithm the provider signs them with) and `typ: at+jwt`, a `kid` of the provider's keys, the RSA
 * signature, its issuer, not expired. Verified with Node's crypto, synchronously: on the `ai/authorize/` and
 * introspection paths the Web Crypto route jose takes costs more than the database does. The keys are the provider's
 * public keys, read again when a token names a kid not held or after a minute.
 */
export function createAccessTokenVerifier({ keys, clock, issuer }: Deps) {
  let cached: { version: string; byKid: Map<string, KeyObject>; readAt: number } | undefined;

  async function keyFor(kid: string): Promise<KeyObject | undefined> {
    const now = Date.now();
    if (cached && cached.byKid.has(kid) && now - cached.readAt < KEYS_FRESH_MS) return cached.byKid.get(kid);
    const set = await keys.providerKeys();
    if (cached?.version !== set.version) {
      const rsa = (set.keys as unknown as Array<Record<string, unknown>>).filter((k) => k.kty === 'RSA' && typeof k.kid === 'string');
      cached = { version: set.version, readAt: now,
        byKid: new Map(rsa.map((k) => [k.kid as string, createPublicKey({ key: publicJwk(k) as never, format: 'jwk' })])) };
    } else {
      cached.readAt = now;
    }
    return cached.byKid.get(kid);
  }

  /**
   * Verified tokens by the SHA-256 of their text, oldest first: a signature holds until the token expires, and what the
   * token may do is read from the database on every use, so only the RSA check is saved. Bounded: the oldest go first.
   */
  const verified = new Map<string, AccessTokenClaims>();

  async function verify(token: string): Promise<VerifiedAccessToken> {
    const id = createHash('sha256').update(token).digest('base64url');
    const held = verified.get(id);
    if (held) {
      if (held.exp > clock.now().getTime() / 1000) return held;
      verified.delete(id);
      return 'expired';
    }
    const result = await check(token);
    if (result !== null && result !== 'expired') {
      if (verified.size >= VERIFIED_HELD) verified.delete(verified.keys().next().value!);
      verified.set(id, result);
    }
    return result;
  }

  async function check(token: string): Promise<VerifiedAccessToken> {
    const parts = token.split('.');
    if (parts.length !== 3 || !parts.every((p) => /^[A-Za-z0-9_-]+$/.test(p))) return null;
    const header = segment(parts[0]!);
    if (!header || header.alg !== 'RS256' || header.typ !== 'at+jwt' || typeof header.kid !== 'string') return null;
    const key = await keyFor(header.kid);
    if (!key || !verifySignature('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), key, Buffer.from(parts[2]!, 'base64url'))) return null;
    const claims = segment(parts[1]!);
    if (!claims || claims.iss !== issuer || typeof claims.jti !== 'string' || claims.jti === '' || typeof claims.exp !== 'number') return null;
    const now = clock.now().getTime() / 1000;
    if (typeof claims.nbf === 'number' && claims.nbf > now) return null;
    if (claims.exp <= now) return 'expired';
    const aud = (claims.aud === undefined ? [] : [claims.aud].flat()).filter((a): a is string => typeof a === 'string');
    return { jti: claims.jti, aud, iss: claims.iss, iat: typeof claims.iat === 'number' ? claims.iat : undefined, exp: claims.exp,
      delegated: typeof claims.act === 'object' && claims.act !== null,
      sub: typeof claims.sub === 'string' ? claims.sub : undefined, client_id: typeof claims.client_id === 'string' ? claims.client_id : undefined };
  }

  return { verify };
}

export type AccessTokenVerifier = ReturnType<typeof createAccessTokenVerifier>;
