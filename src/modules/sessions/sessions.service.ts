import { createHmac } from 'node:crypto';
import type { Config } from '../../config/settings.js';
import { addSeconds, type Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Db, Executor } from '../../db/database.js';
import { signAccessToken, type GrantClaims, type TokenScope } from '../../security/jwt.js';
import { sha256Hex } from '../../security/random.js';
import { newRefreshToken, successorOf } from '../../security/refresh-token.js';
import type { AuditService } from '../audit/audit.service.js';
import type { DelegationService } from '../agents/delegations.service.js';
import type { KeyService } from '../keys/keys.service.js';
import type { RbacService } from '../rbac/rbac.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.service.js';
import { describeDevice, deviceIdFor } from './device.js';
import { tokenScopeFor, type ScopeSubject } from './scope.js';
import { deviceFits, jsLogic, limitsOff, sessionCreatedPayload, sessionFits } from './session-rules.js';
import * as sessions from './sessions.repo.js';
import * as tokens from './tokens.repo.js';

type Deps = {
  db: Db; clock: Clock; config: Config; audit: AuditService; events: WebhookEvents; keys: KeyService;
  /** What the person delegated, ended with their sessions (docs/agents.md "Threat model"). */
  delegations: Pick<DelegationService, 'revokeIssuedBefore'>;
  /** The codes a new access token carries, when the caller has not just read them. */
  rbac: Pick<RbacService, 'grantsOfUserId'>;
};

export interface RequestMeta {
  applicationId: number | null;
  ip: string | null;
  userAgent: string | null;
}

export interface SessionUser {
  id: number;
  max_sessions: number | null;
  max_devices: number | null;
}

/** A session about to be opened: what its row holds, its first refresh token, and the limits it must fit in. */
export interface PreparedSession extends Omit<sessions.NewSession, 'tokenHash'> {
  refresh: { raw: string; hash: string };
  /** 0: no limit. */
  maxDevices: number;
  maxSessions: number;
}

export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_expires_in: number;
  session_id: string;
  device_id: string;
  device_summary: string | null;
  token_scope: TokenScope;
}

export function createSessionService({ db, clock, config, audit, events, keys, delegations, rbac }: Deps) {
  // A separate key for deriving rotation successors, so the signing key is used for one purpose only. With an asymmetric
  // algorithm the JWT secret may be unset; the encryption key, then required, takes its place.
  const rotationKey = createHmac('sha256', config.JWT_SECRET_KEY ?? config.ENCRYPTION_KEY!).update('gatehouse refresh rotation').digest();
  const accessLifetime = config.JWT_ACCESS_TOKEN_LIFETIME;
  const refreshLifetime = config.JWT_REFRESH_TOKEN_LIFETIME;
  const secondsUntil = (d: Date) => Math.max(0, Math.floor((d.getTime() - clock.now().getTime()) / 1000));

  /**
   * An access token with the user's role and permission codes (for the client to read, never trusted: docs/migrating-from-tenxyte.md)
   * and the session's `auth_time` (docs/security.md "Recent authentication").
   */
  async function accessToken(userId: number, sessionId: number, applicationId: number | null, scope: TokenScope, grants: GrantClaims,
    authTime: Date | null, lifetime = accessLifetime) {
    return signAccessToken(await keys.signingKey(),
      { sub: String(userId), app: applicationId, sid: String(sessionId), scope, grants, authTime }, clock.now(), lifetime);
  }

  /**
   * Device and session limits (docs/decisions.md "Sign-in"; the rules are session-rules.ts's, which the one-statement login
   * checks too): deny with 409, or end the oldest device's or session's sessions.
   */
  async function enforceLimits(trx: Executor, session: PreparedSession, userLocked: boolean): Promise<void> {
    const { userId, deviceId, now, maxDevices, maxSessions } = session;
    if (limitsOff(jsLogic, { maxDevices, maxSessions })) return;
    if (!userLocked) await sessions.lockUserSessions(trx, userId);
    let active = await sessions.listActiveSessions(trx, userId, now);
    const devices = [...new Set(active.map((s) => s.device_id))]; // oldest first
    if (!deviceFits(jsLogic, { maxDevices, knownDevice: devices.includes(deviceId), devices: devices.length })) {
      if (config.DEVICE_LIMIT_ACTION === 'deny') throw new AppError('DEVICE_LIMIT_EXCEEDED');
      const evicted = new Set(devices.slice(0, devices.length - maxDevices + 1));
      const ids = active.filter((s) => evicted.has(s.device_id)).map((s) => s.id);
      await sessions.revokeSessions(trx, ids, now, 'device_limit');
      await sessions.revokeSessionTokens(trx, ids, now);
      if (ids.length) await events.emit(trx, 'session.revoked', { user_id: userId, session_ids: ids, reason: 'device_limit' });
      active = active.filter((s) => !evicted.has(s.device_id));
    }
    if (!sessionFits(jsLogic, { maxSessions, sessions: active.length })) {
      if (config.SESSION_LIMIT_ACTION === 'deny') throw new AppError('SESSION_LIMIT_EXCEEDED');
      const ids = active.slice(0, active.length - maxSessions + 1).map((s) => s.id);
      await sessions.revokeSessions(trx, ids, now, 'session_limit');
      await sessions.revokeSessionTokens(trx, ids, now);
      if (ids.length) await events.emit(trx, 'session.revoked', { user_id: userId, session_ids: ids, reason: 'session_limit' });
    }
  }

  /**
   * Opens a session (a refresh-token family) and issues its first token pair, within the caller's transaction.
   * `userLocked`: the caller's transaction already holds the user's row lock (it updated the row). `grants`: the
   * user's codes when the caller has just read them (else one query reads them). `accessLifetime`: a shorter-lived
   * access token (the admin gate's).
   */
  async function open(trx: Executor, user: SessionUser, scope: TokenScope, deviceInfo: string | null | undefined,
    meta: RequestMeta, opts: { userLocked?: boolean; grants?: GrantClaims; accessLifetime?: number } = {}): Promise<IssuedTokens> {
    const session = prepare(user, deviceInfo, meta);
    await enforceLimits(trx, session, opts.userLocked ?? false);
    const sessionId = await sessions.insertSessionWithToken(trx, { ...session, tokenHash: session.refresh.hash });
    await events.emit(trx, 'session.created', sessionCreatedPayload({ user_id: user.id, session_id: sessionId,
      application_id: meta.applicationId, method: 'method' in meta && typeof meta.method === 'string' ? meta.method : null, scope,
      ip_address: meta.ip }));
    return issue(session, sessionId, scope, opts.grants ?? await rbac.grantsOfUserId(user.id, trx), opts.accessLifetime);
  }

  /** Everything a new session needs that no query decides: device, first refresh token, expiry, limits. */
  function prepare(user: SessionUser, deviceInfo: string | null | undefined, meta: RequestMeta): PreparedSession {
    const now = clock.now();
    const device = describeDevice(deviceInfo, meta.userAgent);
    return {
      userId: user.id, applicationId: meta.applicationId, deviceId: deviceIdFor(user.id, device.normalized),
      deviceInfo: deviceInfo?.slice(0, 512) ?? null, deviceSummary: device.summary, ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 512) ?? null, now, expiresAt: addSeconds(now, refreshLifetime), refresh: newRefreshToken(),
      maxDevices: user.max_devices ?? config.MAX_DEVICES, maxSessions: user.max_sessions ?? config.MAX_SESSIONS,
    };
  }

  /**
   * The token pair of a session just stored (`sessionId`) from `session`, for a user holding `grants`. Every session is
   * opened right after its person proved a credential, so its opening time is its `auth_time` (the insert stores it).
   */
  async function issue(session: PreparedSession, sessionId: number, scope: TokenScope, grants: GrantClaims,
    lifetime = accessLifetime): Promise<IssuedTokens> {
    const access = await accessToken(session.userId, sessionId, session.applicationId, scope, grants, session.now, lifetime);
    return {
      access_token: access.token, refresh_token: session.refresh.raw, token_type: 'Bearer', expires_in: lifetime,
      refresh_expires_in: refreshLifetime, session_id: String(sessionId), device_id: session.deviceId,
      device_summary: session.deviceSummary, token_scope: scope,
    };
  }

  type RefreshOutcome =
    | { kind: 'ok'; refresh: string; refreshExpiresAt: Date; userId: number; sessionId: number; account: ScopeSubject; audited?: boolean;
      grants?: GrantClaims; authTime: Date | null }
    | { kind: 'replay'; userId: number; sessionId: number }
    | { kind: 'failed' };

  /**
   * Reads the token and, with rotation on, retires it in one statement; no transaction is needed because
   * the retiring UPDATE itself decides a race (READ COMMITTED re-checks `rotated_at is null` after waiting).
   */
  async function rotateOrReuse(raw: string, meta: RequestMeta, now: Date): Promise<RefreshOutcome> {
    const row = await tokens.findRefreshToken(db, sha256Hex(raw));
    if (!row) return { kind: 'failed' };
    const usable = row.revoked_at === null && row.session_revoked_at === null && row.expires_at > now
      && row.session_expires_at > now && (!config.APPLICATION_AUTH_ENABLED || row.application_id === meta.applicationId)
      && row.is_active && !row.is_banned && row.deleted_at === null && !(row.locked_until && row.locked_until > now)
      && !(row.tokens_valid_after && row.created_at < row.tokens_valid_after);
    if (!usable) return { kind: 'failed' };
    // A refresh proves no credential: the new access token keeps the session's `auth_time`.
    const base = { userId: row.user_id, sessionId: row.session_id, account: row, authTime: row.auth_time };
    if (!config.REFRESH_TOKEN_ROTATION) {
      await tokens.touchRefreshToken(db, row.id, now);
      await sessions.touchSession(db, row.session_id, now);
      return { kind: 'ok', refresh: raw, refreshExpiresAt: row.expires_at, ...base };
    }
    const next = successorOf(raw, rotationKey);
    const expiresAt = addSeconds(now, refreshLifetime);
    // The session lives as long as its newest token, so the lifetime this response announces holds.
    const rotated = row.rotated_at === null
      ? await tokens.rotateRefreshToken(db, { id: row.id, successorHash: next.hash, now, expiresAt, ip: meta.ip,
        audit: audit.enabled('info'), superuser: row.is_superuser })
      : undefined;
    if (rotated) {
      // The rotation statement wrote the `token_refresh` audit event itself, and read the grants.
      return { kind: 'ok', refresh: next.raw, refreshExpiresAt: expiresAt, ...base, audited: true, grants: rotated.grants };
    }
    // Already rotated. Within the grace window (parallel requests, a lost response) the same successor is
    // returned; after it, presenting a retired token means it was copied: end the whole family
    // (oidc-provider revokes the grant in the same situation).
    const rotatedAt = (await tokens.findRefreshToken(db, sha256Hex(raw)))?.rotated_at ?? now;
    if (now.getTime() - rotatedAt.getTime() <= config.REFRESH_TOKEN_REUSE_GRACE * 1000) {
      const successor = await tokens.findTokenByHash(db, next.hash);
      if (successor && successor.revoked_at === null && successor.expires_at > now) {
        return { kind: 'ok', refresh: next.raw, refreshExpiresAt: successor.expires_at, ...base };
      }
      return { kind: 'failed' };
    }
    return { kind: 'replay', userId: row.user_id, sessionId: row.session_id };
  }

  /** POST refresh/: rotation with a reuse grace window; a replay after the window ends the whole session. */
  async function refresh(raw: string, meta: RequestMeta) {
    const now = clock.now();
    const outcome = await rotateOrReuse(raw, meta, now);
    if (outcome.kind === 'replay') {
      await db.transaction().execute(async (trx) => {
        await endSession(trx, outcome.sessionId, 'refresh_token_reuse');
        await audit.record({ event_type: 'refresh_token_reuse', severity: 'critical', user_id: outcome.userId,
          application_id: meta.applicationId, ip_address: meta.ip, user_agent: meta.userAgent,
          details: { session_id: outcome.sessionId } }, trx);
      });
      throw new AppError('REFRESH_FAILED');
    }
    if (outcome.kind === 'failed') throw new AppError('REFRESH_FAILED');
    // An account made an administrator since its login gets only what it needs to set up 2FA.
    const scope = tokenScopeFor(outcome.account, config);
    const grants = outcome.grants ?? await rbac.grantsOfUserId(outcome.userId);
    const access = await accessToken(outcome.userId, outcome.sessionId, meta.applicationId, scope, grants, outcome.authTime);
    if (!outcome.audited) {
      await audit.record({ event_type: 'token_refresh', user_id: outcome.userId, application_id: meta.applicationId,
        ip_address: meta.ip, details: { session_id: outcome.sessionId } });
    }
    return {
      access_token: access.token, refresh_token: outcome.refresh, token_type: 'Bearer' as const,
      expires_in: accessLifetime, refresh_expires_in: secondsUntil(outcome.refreshExpiresAt),
      must_change_password: outcome.account.must_change_password, token_scope: scope,
    };
  }

  /**
   * The application a refresh token was issued to: the caller of the root refresh alias when it sends no application
   * headers (the root refresh alias, docs/migrating-from-tenxyte.md). Null for an unknown token or one issued to no application.
   */
  async function applicationIdOf(raw: string): Promise<number | null> {
    return (await tokens.findRefreshTokenApplication(db, sha256Hex(raw)))?.application_id ?? null;
  }

  /** Ends one session: its refresh tokens stop refreshing and its access tokens stop authenticating at once. */
  async function endSession(trx: Executor, sessionId: number, reason: string): Promise<void> {
    const now = clock.now();
    const ended = await sessions.revokeSessions(trx, [sessionId], now, reason);
    await sessions.revokeSessionTokens(trx, [sessionId], now);
    if (ended) {
      await events.emit(trx, 'session.revoked', async (t) => ({ user_id: await sessions.ownerOfSession(t, sessionId),
        session_ids: [sessionId], reason }));
    }
  }

  /** Ends the session the refresh token belongs to. Unknown tokens change nothing (and say nothing). */
  async function revokeByRefreshToken(raw: string, meta: RequestMeta): Promise<{ userId: number; sessionId: number } | null> {
    const now = clock.now();
    return db.transaction().execute(async (trx) => {
      const row = await tokens.findRefreshToken(trx, sha256Hex(raw));
      if (!row || (config.APPLICATION_AUTH_ENABLED && row.application_id !== meta.applicationId)) return null;
      await endSession(trx, row.session_id, 'logout');
      return { userId: row.user_id, sessionId: row.session_id };
    });
  }

  /** Blacklists one access token until it expires (docs/decisions.md "Sign-in"). */
  async function blacklist(trx: Executor, token: { jti: string; exp: number; sid: string }, userId: number, reason: string) {
    if (!config.TOKEN_BLACKLIST_ENABLED) return;
    await tokens.insertBlacklistEntry(trx, { jti: token.jti, user_id: userId, session_id: Number(token.sid), reason,
      blacklisted_at: clock.now(), expires_at: new Date(token.exp * 1000) });
  }

  /**
   * Ends every session of the user, invalidates every access token issued before now, on every instance, and revokes
   * the agent tokens the user created before now, in the caller's transaction. `tokens_valid_after` is kept in whole
   * seconds because `iat` is.
   */
  async function revokeAll(trx: Executor, userId: number, reason: string) {
    const now = clock.now();
    await sessions.lockUserSessions(trx, userId);
    const { ids, ...result } = await sessions.revokeAllUserSessions(trx, userId, now, reason);
    if (ids.length) await events.emit(trx, 'session.revoked', { user_id: userId, session_ids: ids, reason });
    await sessions.setTokensValidAfter(trx, userId, new Date(Math.floor(now.getTime() / 1000) * 1000));
    const agentTokens = await delegations.revokeIssuedBefore(trx, userId, now, reason);
    return { ...result, agentTokens };
  }

  /**
   * Ends every session of the user but `keepSessionId` (a changed password): their access tokens stop at once through
   * the session check, while the caller's own session goes on; the agent tokens the user created before now are
   * revoked. Answers how many sessions ended.
   */
  async function revokeOthers(trx: Executor, userId: number, keepSessionId: number | null, reason: string): Promise<number> {
    const now = clock.now();
    await sessions.lockUserSessions(trx, userId);
    const ids = (await sessions.listActiveSessions(trx, userId, now)).map((s) => s.id).filter((id) => id !== keepSessionId);
    await sessions.revokeSessions(trx, ids, now, reason);
    await sessions.revokeSessionTokens(trx, ids, now);
    if (ids.length) await events.emit(trx, 'session.revoked', { user_id: userId, session_ids: ids, reason });
    await delegations.revokeIssuedBefore(trx, userId, now, reason);
    return ids.length;
  }

  /**
   * Holds the account's row (shared) until the caller's transaction ends, and answers whether an access token issued
   * at `issuedAt` (seconds) for `sessionId` is still current: its session open and no `tokens_valid_after` after it.
   * Creating a credential from a bearer does this first, so an event that ends the person's sessions either waits for
   * the creation and then revokes what it created, or has happened and the creation is refused.
   */
  async function holdIfCurrent(trx: Executor, userId: number, sessionId: number, issuedAt: number): Promise<boolean> {
    const state = await sessions.lockSessionState(trx, userId, sessionId);
    if (!state || !state.session_open) return false;
    return state.tokens_valid_after === null || issuedAt * 1000 >= state.tokens_valid_after.getTime();
  }

  /** Replaces a restricted session by a full-scope one on the same device (after a forced password change). */
  async function reopenFull(trx: Executor, user: SessionUser, sessionId: number, reason: string, meta: RequestMeta): Promise<IssuedTokens> {
    const device = await sessions.findSessionDevice(trx, sessionId);
    await endSession(trx, sessionId, reason);
    return open(trx, user, 'full', device?.device_info ?? null, meta);
  }

  return {
    open, prepare, issue, refresh, applicationIdOf, endSession, revokeByRefreshToken, blacklist, revokeAll, revokeOthers, reopenFull,
    holdIfCurrent,
    accessToken,
    /** The key tokens are signed with now (tests forge tokens with it); throws before the keys are loaded. */
    get jwtKey() { return keys.loadedSigningKey(); },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
