import type { Config } from '../../config/settings.js';
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import { verifyAccessToken, type AccessClaims } from '../../security/jwt.js';
import type { KeyService } from '../keys/keys.service.js';
import * as tokens from './tokens.repo.js';

export type AuthUser = Omit<NonNullable<Awaited<ReturnType<typeof tokens.findBearerState>>>,
  'is_blacklisted' | 'session_open' | 'tokens_valid_after' | 'deleted_at' | 'is_banned' | 'deletion_scheduled_at'>;

export interface AuthContext {
  user: AuthUser;
  claims: AccessClaims;
}

type Deps = { db: Db; clock: Clock; config: Config; keys: Pick<KeyService, 'resolve' | 'accepts'> };

/** Bounded memory of tokens known to be blacklisted, so a replayed revoked token costs no query. */
const KNOWN_BLACKLISTED_MAX = 10_000;
/**
 * Bounded memory of tokens whose signature and claims verified, by token text. It matters most with an asymmetric
 * algorithm, whose verification costs far more than an HMAC's.
 */
const VERIFIED_MAX = 10_000;

/**
 * Authenticates `Authorization: Bearer <jwt>`: signature by the key its `kid` names, that key's algorithm, and expiry; then
 * the token's application, then one query for the user, the blacklist and the session.
 */
export function createBearerService({ db, clock, config, keys }: Deps) {
  const knownBlacklisted = new Map<string, number>(); // jti → exp (seconds)
  const verifiedTokens = new Map<string, { claims: AccessClaims; kid: string | undefined }>();

  /**
   * A client sends the same access token with every request of its lifetime: its signature is checked once per
   * process, and its expiry and its key's standing (a key retires) on every request. Only tokens that verified are kept,
   * by their exact text.
   */
  async function claimsOf(token: string, now: Date): Promise<AccessClaims> {
    const known = verifiedTokens.get(token);
    if (known) {
      const expired = known.claims.exp * 1000 <= now.getTime();
      if (!expired && keys.accepts(known.kid, now)) return known.claims;
      verifiedTokens.delete(token);
      throw new AppError(expired ? 'TOKEN_EXPIRED' : 'TOKEN_INVALID');
    }
    const verified = await verifyAccessToken(keys.resolve, token, now);
    if (!verified.ok) throw new AppError(verified.reason === 'expired' ? 'TOKEN_EXPIRED' : 'TOKEN_INVALID');
    if (verifiedTokens.size >= VERIFIED_MAX) verifiedTokens.delete(verifiedTokens.keys().next().value!);
    verifiedTokens.set(token, { claims: verified.claims, kid: verified.kid });
    return verified.claims;
  }

  async function authenticate(token: string, applicationId: number | null): Promise<AuthContext> {
    const now = clock.now();
    const claims = await claimsOf(token, now);
    if (config.APPLICATION_AUTH_ENABLED && claims.app !== applicationId) throw new AppError('TOKEN_APP_MISMATCH');
    if (knownBlacklisted.has(claims.jti)) throw new AppError('TOKEN_BLACKLISTED');
    const row = await tokens.findBearerState(db, Number(claims.sub), claims.jti, Number(claims.sid), now);
    if (!row) throw new AppError('TOKEN_INVALID');
    const invalidated = row.tokens_valid_after !== null && claims.iat * 1000 < row.tokens_valid_after.getTime();
    if (row.is_blacklisted) remember(claims, now);
    // An account inactive only because its deletion waits for the grace period takes its `deletion_pending` tokens.
    const active = row.is_active || (claims.scope === 'deletion_pending' && row.deletion_scheduled_at !== null);
    if (row.is_blacklisted || !row.session_open || invalidated || !active || row.is_banned || row.deleted_at !== null) {
      throw new AppError('TOKEN_BLACKLISTED');
    }
    const { is_blacklisted: _b, session_open: _s, tokens_valid_after: _t, deleted_at: _d, is_banned: _x, deletion_scheduled_at: _p,
      ...user } = row;
    return { user, claims };
  }

  function remember(claims: AccessClaims, now: Date) {
    if (knownBlacklisted.size >= KNOWN_BLACKLISTED_MAX) {
      const nowSec = now.getTime() / 1000;
      for (const [jti, exp] of knownBlacklisted) if (exp < nowSec) knownBlacklisted.delete(jti);
      if (knownBlacklisted.size >= KNOWN_BLACKLISTED_MAX) knownBlacklisted.clear();
    }
    knownBlacklisted.set(claims.jti, claims.exp);
  }

  return { authenticate, remember };
}

export type BearerService = ReturnType<typeof createBearerService>;
