import { createHash, createHmac, createSecretKey, randomUUID, webcrypto, type KeyObject } from 'node:crypto';
import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';

export type TokenScope = 'full' | 'password_change_only' | '2fa_setup_only' | 'deletion_pending';
export const TOKEN_SCOPES: readonly TokenScope[] = ['full', 'password_change_only', '2fa_setup_only', 'deletion_pending'];

export const JWT_ALGORITHMS = ['HS256', 'EdDSA', 'ES256', 'RS256'] as const;
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];
export type AsymmetricAlgorithm = Exclude<JwtAlgorithm, 'HS256'>;

/** The claim set of docs/resource-servers.md "What a token holds". No personal data: `sub` is the user id, nothing else about the person. */
export interface AccessClaims {
  sub: string;
  app: number | null;
  sid: string;
  jti: string;
  iat: number;
  exp: number;
  scope: TokenScope;
  /**
   * When the person last proved a credential interactively (seconds, as OpenID Connect's `auth_time`); null for a token
   * that carries none (issued before the claim existed), which never counts as a recent sign-in.
   */
  auth_time: number | null;
}

/** A key signs and accepts its one algorithm; a token naming any other (`none` included) is refused. */
export interface HmacJwtKey {
  alg: 'HS256';
  kid: string;
  secret: Uint8Array;
  issuer: string;
}

export interface AsymmetricJwtKey {
  alg: AsymmetricAlgorithm;
  kid: string;
  publicKey: webcrypto.CryptoKey;
  /** Null for a key that only verifies (superseded by a newer one). */
  privateKey: webcrypto.CryptoKey | null;
  issuer: string;
}

export type JwtKey = HmacJwtKey | AsymmetricJwtKey;

/** The key a token's `kid` names. A retired key's signatures are recognised (an expired token says so), never accepted. */
export interface KeyChoice {
  key: JwtKey;
  retired: boolean;
}
export type KeyResolver = (kid: string | undefined) => KeyChoice | undefined | Promise<KeyChoice | undefined>;

/**
 * The kid of an HMAC secret: a hash of it, stable for as long as the secret is. It tells nothing that the HMAC on every
 * token does not already (both allow only an offline guess of the secret, which has at least 32 bytes).
 */
const hmacKid = (secret: string): string =>
  createHash('sha256').update('gatehouse:jwt-kid:').update(secret).digest('base64url').slice(0, 16);

export const hmacKey = (secret: string, issuer: string): HmacJwtKey =>
  ({ alg: 'HS256', kid: hmacKid(secret), secret: new TextEncoder().encode(secret), issuer });

/** Whether a token's `kid` names `key`. Tokens signed before kids existed carry none: accepted for the HMAC secret only. */
export const namesKey = (key: JwtKey, kid: string | undefined): boolean =>
  kid === key.kid || (kid === undefined && key.alg === 'HS256');

// Importing the raw secret as a WebCrypto key on every verify costs more than the HMAC itself: import it once per key.
const imported = new WeakMap<HmacJwtKey, Promise<webcrypto.CryptoKey>>();
function verifyKeyOf(key: JwtKey): webcrypto.CryptoKey | Promise<webcrypto.CryptoKey> {
  if (key.alg !== 'HS256') return key.publicKey;
  let k = imported.get(key);
  if (!k) {
    k = webcrypto.subtle.importKey('raw', key.secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    imported.set(key, k);
  }
  return k;
}

const hmacState = new WeakMap<HmacJwtKey, { secret: KeyObject; header: string }>();

/**
 * Signs with node:crypto's HMAC, synchronously: an HS256 signature over a few hundred bytes takes microseconds,
 * less than dispatching a WebCrypto job to the thread pool, where it would wait behind password hashes.
 */
function hs256Token(key: HmacJwtKey, payload: object): string {
  let state = hmacState.get(key);
  if (!state) {
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', kid: key.kid, typ: 'JWT' })).toString('base64url');
    state = { secret: createSecretKey(key.secret), header };
    hmacState.set(key, state);
  }
  const input = `${state.header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${input}.${createHmac('sha256', state.secret).update(input).digest('base64url')}`;
}

/** Role and permission codes for the client to read (docs/migrating-from-tenxyte.md, rule 20); never trusted when the token comes back. */
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

/** HS256 is signed by hand (above); the asymmetric algorithms by jose, with the key's one algorithm and its kid. */
export async function signAccessToken(key: JwtKey,
  claims: { sub: string; app: number | null; sid: string; scope: TokenScope; grants?: GrantClaims; authTime?: Date | null },
  now: Date, lifetimeSeconds: number): Promise<{ token: string; jti: string; expiresAt: Date }> {
  const iat = Math.floor(now.getTime() / 1000);
  const jti = randomUUID();
  const authTime = claims.authTime ? { auth_time: Math.floor(claims.authTime.getTime() / 1000) } : {};
  const payload = { app: claims.app, sid: claims.sid, scope: claims.scope, ...authTime, ...(claims.grants ? grantClaims(claims.grants) : {}),
    typ: 'access', iss: key.issuer, sub: claims.sub, jti, iat, nbf: iat, exp: iat + lifetimeSeconds };
  let token: string;
  if (key.alg === 'HS256') token = hs256Token(key, payload);
  else if (key.privateKey) {
    token = await new SignJWT(payload).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' }).sign(key.privateKey);
  }
  else throw new Error(`signing key ${key.kid} only verifies`);
  return { token, jti, expiresAt: new Date((iat + lifetimeSeconds) * 1000) };
}

export type VerifyFailure = 'expired' | 'invalid';

// `sub` and `sid` name bigint rows: decimal digits that fit a safe integer, so they reach a query intact.
const isRowId = (v: unknown): v is string => typeof v === 'string' && /^[1-9]\d{0,14}$/.test(v);

/**
 * Verifies signature, algorithm, issuer, time claims and the claim shapes; `now` comes from the caller's clock. The key
 * is the one the token's `kid` names, and only that key's algorithm is accepted (no `alg` confusion between an HMAC and
 * a public key, RFC 8725 §2.1). The `roles` and `permissions` claims are left out of the answer: what a request may do
 * is always read from the database.
 */
export async function verifyAccessToken(keys: JwtKey | KeyResolver, token: string, now: Date):
  Promise<{ ok: true; claims: AccessClaims; kid: string | undefined } | { ok: false; reason: VerifyFailure }> {
  try {
    const header = decodeProtectedHeader(token);
    const kid = typeof header.kid === 'string' ? header.kid : undefined;
    const choice = typeof keys === 'function' ? await keys(kid) : namesKey(keys, kid) ? { key: keys, retired: false } : undefined;
    if (!choice || header.alg !== choice.key.alg) return { ok: false, reason: 'invalid' };
    const { key } = choice;
    const { payload } = await jwtVerify(token, await verifyKeyOf(key), {
      algorithms: [key.alg],
      issuer: key.issuer,
      currentDate: now,
      requiredClaims: ['sub', 'jti', 'iat', 'exp', 'sid'],
    });
    const scope = payload.scope as TokenScope;
    if (choice.retired || payload.typ !== 'access' || !TOKEN_SCOPES.includes(scope) || !isRowId(payload.sid) || !isRowId(payload.sub)
      || typeof payload.jti !== 'string' || !(Number.isSafeInteger(payload.app) || payload.app === null)) {
      return { ok: false, reason: 'invalid' };
    }
    // A malformed `auth_time` is read as none: the token stays valid, and never counts as a recent sign-in.
    const authTime = Number.isSafeInteger(payload.auth_time) ? payload.auth_time as number : null;
    return { ok: true, kid, claims: { sub: payload.sub, app: payload.app as number | null, sid: payload.sid, jti: payload.jti,
      iat: payload.iat!, exp: payload.exp!, scope, auth_time: authTime } };
  } catch (err) {
    return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
}
