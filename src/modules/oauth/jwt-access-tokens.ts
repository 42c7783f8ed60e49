import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { sha256Hex } from '../../security/random.js';
import { permissionGraph } from '../rbac/permission-graph.js';
import { permissionSet } from '../rbac/permission-set.js';
import type { AccessTokenClaims, AccessTokenVerifier } from './access-token-verifier.js';
import type { TokenExchange } from './token-exchange.js';
import { admits, type OauthAccounts } from './accounts.js';
import type { OauthClients } from './clients.js';
import * as repo from './records.repo.js';
import { handBack, readBody } from './request-body.js';

/**
 * Whether a token the provider introspects itself (an opaque one) may be answered as active (docs/oauth.md "Resources",
 * "Grants"): a resource sees only the tokens whose audience it is, and a token of a person who can no longer sign in, or
 * issued before their `tokens_valid_after`, is inactive. A JWT is answered by {@link createJwtAccessTokens}, which reads
 * the same in its one statement.
 */
export async function introspectable(accounts: OauthAccounts, callerResource: string | undefined,
  token: { aud?: string | string[] | undefined; accountId?: string | undefined; iat?: number | undefined }): Promise<boolean> {
  if (callerResource !== undefined && !(token.aud === undefined ? [] : [token.aud].flat()).includes(callerResource)) return false;
  return !token.accountId || (await accounts.find(token.accountId, { iat: token.iat })) !== undefined;
}

/** The record kept for each JWT access token, so that it can be introspected and revoked (docs/oauth.md "Tokens"). */
export const JWT_RECORD = 'JwtAccessToken';
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

type Deps = { db: Db; clock: Clock; clients: OauthClients;
  /** Checks a JWT access token's signature, issuer and expiry against the provider's keys. */
  verifier: AccessTokenVerifier;
  /** What a person holds in an organization (a grant bound by `org:<slug>`), or null without a role there. */
  orgPermissions: (slug: string, userId: number) => Promise<ReadonlySet<string> | null>;
  /** The JWTs the token-exchange grant issued: delegated agents, introspected and revoked as such (token-exchange.ts). */
  exchanged: Pick<TokenExchange, 'introspect' | 'revoke'> };

/** A confidential caller of introspection or revocation, with the resource it is when it is one. */
type Caller = { clientId: string; resource?: string };

const isJwt = (token: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);

/**
 * JWT access tokens (RFC 9068) for registered resources, introspectable and revocable like opaque ones
 * (docs/oauth.md "Tokens"): `oidc-provider` keeps no record of them and refuses both, so each one is recorded when it
 * is issued, and introspection and revocation of a JWT are answered here — after the caller's credentials, the
 * signature, the record, the person's state and, for a resource, the audience are checked.
 */
export function createJwtAccessTokens({ db, clock, clients, verifier, orgPermissions, exchanged }: Deps) {
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

  /** The caller when its credentials (basic or post) are right, or null. */
  async function callerOf(ctx: KoaContextWithOIDC, form: URLSearchParams): Promise<Caller | null> {
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
    return clients.authenticateCaller(id, secret);
  }

  /** The token's claims when its signature, issuer and expiry hold, or null. */
  async function verified(token: string): Promise<AccessTokenClaims | null> {
    const result = await verifier.verify(token);
    return result === 'expired' ? null : result;
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
      handBack(ctx, body);
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
    if (claims?.delegated) {
      if (route === 'revocation') await exchanged.revoke(claims, caller.clientId);
      ctx.status = 200;
      ctx.body = route === 'revocation' ? '' : await exchanged.introspect(claims, caller.resource);
      return;
    }
    if (route === 'revocation') {
      const hash = claims ? sha256Hex(claims.jti) : undefined;
      const record = hash ? await repo.findRecord(db, JWT_RECORD, hash, clock.now()) : undefined;
      if (hash && (record?.payload as StoredJwt | undefined)?.clientId === caller.clientId) await repo.deleteRecord(db, JWT_RECORD, hash);
      ctx.status = 200;
      ctx.body = '';
      return;
    }
    ctx.body = claims ? await introspection(caller, claims) : { active: false };
  }

  /**
   * One statement reads the token's record, its delegation's state and its person with what they hold now: inactive
   * when any of them says so, or for a resource that is not the token's audience (docs/oauth.md "Resources").
   */
  async function introspection(caller: Caller, claims: AccessTokenClaims) {
    const now = clock.now();
    const row = await repo.introspectJwt(db, JWT_RECORD, sha256Hex(claims.jti), now);
    const stored = row?.payload as StoredJwt | undefined;
    if (!row || !stored || !row.delegation_live) return { active: false };
    if (caller.resource !== undefined && stored.aud !== caller.resource) return { active: false };
    if (row.user_id !== null && !admits(row, now, claims.iat)) return { active: false };
    // What the grant may do now: its permission scopes the person still holds (docs/oauth.md "Scopes").
    const holds = row.user_id === null ? permissionSet([])
      : (await permissionGraph(db, row.user_grants.version)).permissionSetOf(row.user_grants, row.is_superuser);
    // A grant bound to an organization may use what the person holds there too (their role there, now).
    const inOrg = row.organization_slug && row.user_id !== null ? await orgPermissions(row.organization_slug, row.user_id) : null;
    const scope = (stored.scope ?? '').split(' ')
      .filter((s) => s && (OPENID_SCOPES.has(s) || s.startsWith('org:') || holds.has(s) || inOrg?.has(s))).join(' ');
    return {
      active: true, scope: scope || undefined, client_id: stored.clientId, sub: stored.accountId, aud: stored.aud, iss: claims.iss,
      exp: claims.exp, iat: claims.iat, auth_time: stored.authTime, token_type: 'Bearer', jti: claims.jti,
    };
  }

  return { issued, middleware };
}

export type JwtAccessTokens = ReturnType<typeof createJwtAccessTokens>;
