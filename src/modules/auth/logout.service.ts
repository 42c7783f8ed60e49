import type { Db } from '../../db/database.js';
import type { AuditService } from '../audit/audit.service.js';
import type { AuthContext } from '../sessions/bearer.service.js';
import type { RequestMeta, SessionService } from '../sessions/sessions.service.js';

type Deps = { db: Db; sessions: SessionService; audit: AuditService };

export function createLogoutService({ db, sessions, audit }: Deps) {
  /** POST logout/: ends the refresh token's session and blacklists the presented access token. */
  async function logout(refreshToken: string, auth: AuthContext | null, meta: RequestMeta): Promise<void> {
    const ended = await sessions.revokeByRefreshToken(refreshToken, meta);
    if (auth) await sessions.blacklist(db, auth.claims, auth.user.id, 'logout');
    const userId = ended?.userId ?? auth?.user.id ?? null;
    if (userId !== null) {
      await audit.record({ event_type: 'logout', user_id: userId, application_id: meta.applicationId, ip_address: meta.ip,
        user_agent: meta.userAgent, details: { session_id: ended?.sessionId ?? null } });
    }
  }

  /**
   * POST logout/ with a `deletion_pending` bearer, whose session never handed out a refresh token: the bearer's own
   * session ends and the token is blacklisted.
   */
  async function logoutBearerSession(auth: AuthContext, meta: RequestMeta): Promise<void> {
    const sessionId = Number(auth.claims.sid);
    await db.transaction().execute(async (trx) => {
      await sessions.endSession(trx, sessionId, 'logout');
      await sessions.blacklist(trx, auth.claims, auth.user.id, 'logout');
    });
    await audit.record({ event_type: 'logout', user_id: auth.user.id, application_id: meta.applicationId, ip_address: meta.ip,
      user_agent: meta.userAgent, details: { session_id: sessionId } });
  }

  /** POST logout/all/: every session ends and every earlier access token stops working; answers the device count. */
  async function logoutAll(auth: AuthContext, meta: RequestMeta): Promise<number> {
    const result = await db.transaction().execute(async (trx) => {
      const revoked = await sessions.revokeAll(trx, auth.user.id, 'logout_all');
      await sessions.blacklist(trx, auth.claims, auth.user.id, 'logout');
      return revoked;
    });
    await audit.record({ event_type: 'logout_all', user_id: auth.user.id, application_id: meta.applicationId,
      ip_address: meta.ip, user_agent: meta.userAgent, details: { sessions: result.sessions, devices: result.devices } });
    return result.devices;
  }

  return { logout, logoutBearerSession, logoutAll };
}

export type LogoutService = ReturnType<typeof createLogoutService>;
