import { Readable } from 'node:stream';
import { createLocalJWKSet, jwtVerify, type JWK } from 'jose';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { sha256Hex } from '../../security/random.js';
import { publicJwk } from './access-token-verifier.js';
import type { OauthAccounts } from './accounts.js';
import { RESOURCE_URI, type OauthClients } from './clients.js';
import * as repo from './records.repo.js';

/**
 * Whether a token may be introspected as active (docs/oauth.md "Resources", "Grants"), for an opaque token and a JWT
 * alike: a resource sees only the tokens whose audience it is, and a token of a person who can no longer sign in, or
 * issued before their `tokens_valid_after`, is inactive.
 */
export async function introspectable(accounts: OauthAccounts, callerResource: string | undefined,
  token: { aud?: string | string[] | undefined; accountId?: string | undefined; iat?: number | undefined }): Promise<boolean> {
  if (callerResource !== undefined && !(token.aud === undefined ? [] : [token.aud].flat()).includes(callerResource)) return false;
  return !token.accountId || (await accounts.find(token.accountId, { iat: token.iat })) !== undefined;
}

/** The record kept for each JWT access token, so that it can be introspected and revoked (docs/oauth.md "Tokens"). */
export const JWT_RECORD = 'JwtAccessToken';
const BODY_LIMIT = 56 * 1024;
/** Scopes that are not permissions: never filtered by what the person holds. */
export const OPENID_SCOPES = new Set(['openid', 'profile', 'email', 'phone', 'offline_access']);

/** A JWT access token as the provider hands it to `extraTokenClaims` (the part read here). */
export interface IssuingToken {
  jti: string;
  kind: string;
  grantId?: string;
  accountId?: string;
  clientId?: string;
  scope?: string;
  iat?: number;
  exp?: number;
  expiration?: number;
  resourceServer?: { audience?: string };
}

interface StoredJwt { clientId: string; accountId?: string; scope?: string; aud?: string; authTime?: number }

type Deps = { db: Db; clock: Clock; accounts: OauthAccounts; clients: OauthClients;
  held: (userId: number) => Promise<Set<string>>;
  /** The provider's issuer and its signing keys (private JWKs): what a JWT access token is verified against. */
  issuer: string; keys: JWK[] };

async function readBody(ctx: KoaContextWithOIDC): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) ctx.throw(413);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const isJwt = (token: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);

/**
 * JWT access tokens (RFC 9068) for registered resources, introspectable and revocable like opaque ones
 * (docs/oauth.md "Tokens"): `oidc-provider` keeps no record of them and refuses both, so each one is recorded when it
 * is issued, and introspection and revocation of a JWT are answered here — after the caller's credentials, the
 * signature, the record, the person's state and, for a resource, the audience are checked.
 */
export function createJwtAccessTokens({ db, clock, accounts, clients, held, issuer, keys }: Deps) {
  // The public parts of the provider's keys, once: they change only with a new provider.
  const jwks = createLocalJWKSet({ keys: keys.map((k) => publicJwk(k as Record<string, unknown>)) });

  /** Called while the provider issues an access token: records a JWT one, and answers the claims it adds. */
  async function issued(ctx: KoaContextWithOIDC, token: IssuingToken): Promise<Record<string, unknown> | undefined> {
    if (token.kind !== 'AccessToken' || !token.resourceServer) return undefined;
    const authTime = (ctx.oidc.entities.AuthorizationCode as { authTime?: number } | undefined)?.authTime
      ?? (ctx.oidc.entities.RefreshToken as { authTime?: number } | undefined)?.authTime;
    const exp = token.exp ?? Math.floor(clock.now().getTime() / 1000) + (token.expiration ?? 0);
    const stored: StoredJwt = { clientId: token.clientId ?? '', accountId: token.accountId, scope: token.scope,
      aud: token.resourceServer.audience, authTime };
    await repo.upsertRecord(db, { model: JWT_RECORD, idHash: sha256Hex(token.jti), payload: stored as unknown as Record<string, unknown>,
      grantId: token.grantId ?? null, uid: null, accountId: token.accountId ? Number(token.accountId) : null, expiresAt: new Date(exp * 1000) });
    return authTime !== undefined ? { auth_time: authTime } : undefined;
  }

  /** The caller's client id when its credentials (basic or post) are right, or null. */
  async function callerOf(ctx: KoaContextWithOIDC, form: URLSearchParams): Promise<string | null> {
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    const header = ctx.get('authorization');
    if (header.toLowerCase().startsWith('basic ')) {
      const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      if (i < 0) return null;
      id = decodeURIComponent(decoded.slice(0, i).replace(/\+/g, '%20'));
      secret = decodeURIComponent(decoded.slice(i + 1).replace(/\+/g, '%20'));
    }
    if (!id || !secret) return null;
    return (await clients.verifySecret(id, secret)) ? id : null;
  }

  /** The token's claims when its signature and issuer hold, or null. */
  async function verified(token: string) {
    try {
      return (await jwtVerify(token, jwks, { issuer, typ: 'at+jwt', currentDate: clock.now() })).payload;
    } catch {
      return null;
    }
  }

  /**
   * The provider's pre-middleware for its introspection and revocation endpoints: a JWT is answered here; anything
   * else goes on to the provider with its body as it came.
   */
  async function middleware(ctx: KoaContextWithOIDC, next: () => Promise<unknown>, routes: { introspection: string; revocation: string }) {
    const route = ctx.path === routes.introspection ? 'introspection' : ctx.path === routes.revocation ? 'revocation' : null;
    if (!route || ctx.method !== 'POST' || !ctx.is('application/x-www-form-urlencoded')) return next();
    const body = await readBody(ctx);
    const form = new URLSearchParams(body.toString('utf8'));
    const token = form.get('token') ?? '';
    if (!isJwt(token)) {
      // The provider reads the body again, from a stream of what was read.
      (ctx as { req: unknown }).req = Object.assign(Readable.from([body]), { headers: ctx.req.headers });
      return next();
    }
    ctx.set('cache-control', 'no-store');
    const caller = await callerOf(ctx, form);
    if (!caller) {
      ctx.status = 401;
      ctx.body = { error: 'invalid_client', error_description: 'client authentication failed' };
      return;
    }
    const claims = await verified(token);
    const record = claims?.jti ? await repo.findJwtRecord(db, JWT_RECORD, sha256Hex(String(claims.jti)), clock.now()) : undefined;
    const stored = record?.payload as StoredJwt | undefined;
    if (route === 'revocation') {
      if (claims?.jti && stored && stored.clientId === caller) await repo.deleteRecord(db, JWT_RECORD, sha256Hex(String(claims.jti)));
      ctx.status = 200;
      ctx.body = '';
      return;
    }
    ctx.body = record?.delegation_live ? await introspection(caller, claims, stored) : { active: false };
  }

  async function introspection(caller: string, claims: Record<string, unknown> | null, stored: StoredJwt | undefined) {
    if (!claims || !stored) return { active: false };
    const callerResource = (await clients.metadataOf(caller))?.[RESOURCE_URI] as string | undefined;
    if (!(await introspectable(accounts, callerResource, { aud: stored.aud, accountId: stored.accountId, iat: Number(claims.iat) }))) {
      return { active: false };
    }
    // What the grant may do now: its permission scopes the person still holds (docs/oauth.md "Scopes").
    const now = stored.accountId ? await held(Number(stored.accountId)) : new Set<string>();
    const scope = (stored.scope ?? '').split(' ').filter((s) => s && (OPENID_SCOPES.has(s) || s.startsWith('org:') || now.has(s))).join(' ');
    return {
      active: true, scope: scope || undefined, client_id: stored.clientId, sub: stored.accountId, aud: stored.aud, iss: claims.iss,
      exp: claims.exp, iat: claims.iat, auth_time: stored.authTime, token_type: 'Bearer', jti: claims.jti,
    };
  }

  return { issued, middleware };
}

export type JwtAccessTokens = ReturnType<typeof createJwtAccessTokens>;
