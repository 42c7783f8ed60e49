import { createHmac, createSecretKey, randomUUID, webcrypto, type KeyObject } from 'node:crypto';
import { errors, jwtVerify } from 'jose';

export type TokenScope = 'full' | 'password_change_only' | '2fa_setup_only' | 'deletion_pending';
export const TOKEN_SCOPES: readonly TokenScope[] = ['full', 'password_change_only', '2fa_setup_only', 'deletion_pending'];

/** DECISIONS.md claim set. No personal data: `sub` is the user id, nothing else about the person. */
export interface AccessClaims {
  sub: string;
  app: number | null;
  sid: string;
  jti: string;
  iat: number;
  exp: number;
  scope: TokenScope;
}

export interface JwtKey {
  /** The one algorithm this key signs and accepts; a token naming any other (`none` included) is refused. */
  alg: 'HS256';
  secret: Uint8Array;
  issuer: string;
}

export const hmacKey = (secret: string, issuer: string): JwtKey =>
  ({ alg: 'HS256', secret: new TextEncoder().encode(secret), issuer });

// Importing the raw secret as a WebCrypto key on every sign and verify costs more than the HMAC itself:
// import it once per key.
const imported = new WeakMap<JwtKey, Promise<webcrypto.CryptoKey>>();
function cryptoKeyOf(key: JwtKey): Promise<webcrypto.CryptoKey> {
  let k = imported.get(key);
  if (!k) {
    k = webcrypto.subtle.importKey('raw', key.secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    imported.set(key, k);
  }
  return k;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const signingKeys = new WeakMap<JwtKey, KeyObject>();

/**
 * Signs with node:crypto's HMAC, synchronously: an HS256 signature over a few hundred bytes takes microseconds,
 * less than dispatching a WebCrypto job to the thread pool, where it would wait behind password hashes.
 */
function hs256(key: JwtKey, input: string): string {
  let secret = signingKeys.get(key);
  if (!secret) {
    secret = createSecretKey(key.secret);
    signingKeys.set(key, secret);
  }
  return createHmac('sha256', secret).update(input).digest('base64url');
}

/** Role and permission codes for the client to read (SDK-COMPAT.md rule 20); never trusted when the token comes back. */
export interface GrantClaims {
  roles: readonly string[];
  permissions: readonly string[];
}

/**
 * At most this many codes of each kind ride in a token: it travels in a header on every request, and proxies
 * commonly refuse headers past 8 KB.
 */
export const MAX_GRANT_CLAIMS = 100;

/** The first `MAX_GRANT_CLAIMS` codes of each kind in sorted order (the same ones at every signing), flagging a cut list. */
export function grantClaims(grants: GrantClaims) {
  const cut = (codes: readonly string[]) => [...codes].sort().slice(0, MAX_GRANT_CLAIMS);
  return {
    roles: cut(grants.roles),
    permissions: cut(grants.permissions),
    ...(grants.roles.length > MAX_GRANT_CLAIMS ? { roles_truncated: true } : {}),
    ...(grants.permissions.length > MAX_GRANT_CLAIMS ? { permissions_truncated: true } : {}),
  };
}

export async function signAccessToken(key: JwtKey,
  claims: { sub: string; app: number | null; sid: string; scope: TokenScope; grants?: GrantClaims },
  now: Date, lifetimeSeconds: number): Promise<{ token: string; jti: string; expiresAt: Date }> {
  const iat = Math.floor(now.getTime() / 1000);
  const jti = randomUUID();
  const payload = { app: claims.app, sid: claims.sid, scope: claims.scope, ...(claims.grants ? grantClaims(claims.grants) : {}),
    typ: 'access', iss: key.issuer, sub: claims.sub, jti, iat, nbf: iat, exp: iat + lifetimeSeconds };
  const input = `${HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return { token: `${input}.${hs256(key, input)}`, jti, expiresAt: new Date((iat + lifetimeSeconds) * 1000) };
}

export type VerifyFailure = 'expired' | 'invalid';

// `sub` and `sid` name bigint rows: decimal digits that fit a safe integer, so they reach a query intact.
const isRowId = (v: unknown): v is string => typeof v === 'string' && /^[1-9]\d{0,14}$/.test(v);

/**
 * Verifies signature, algorithm, issuer, time claims and the claim shapes; `now` comes from the caller's clock. The
 * `roles` and `permissions` claims are left out of the answer: what a request may do is always read from the database.
 */
export async function verifyAccessToken(key: JwtKey, token: string, now: Date):
  Promise<{ ok: true; claims: AccessClaims } | { ok: false; reason: VerifyFailure }> {
  try {
    const { payload } = await jwtVerify(token, await cryptoKeyOf(key), {
      algorithms: [key.alg],
      issuer: key.issuer,
      currentDate: now,
      requiredClaims: ['sub', 'jti', 'iat', 'exp', 'sid'],
    });
    const scope = payload.scope as TokenScope;
    if (payload.typ !== 'access' || !TOKEN_SCOPES.includes(scope) || !isRowId(payload.sid) || !isRowId(payload.sub)
      || typeof payload.jti !== 'string' || !(Number.isSafeInteger(payload.app) || payload.app === null)) {
      return { ok: false, reason: 'invalid' };
    }
    return { ok: true, claims: { sub: payload.sub, app: payload.app as number | null, sid: payload.sid, jti: payload.jti,
      iat: payload.iat!, exp: payload.exp!, scope } };
  } catch (err) {
    return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
}
