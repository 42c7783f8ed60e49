import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { pageRequest } from '../../core/pagination.js';
import type { Db } from '../../db/database.js';
import type { AuditService } from '../audit/audit.service.js';
import type { SessionService } from '../sessions/sessions.service.js';
import { auditOrigin, type Actor } from '../rbac/actor.js';
import { dateRange, orderOf } from '../../core/listing.js';
import * as repo from './security.repo.js';
import {
  toBlacklistedToken, toLoginAttempt, toRefreshTokenRecord, type BlacklistInput, type LoginAttemptInput, type RefreshTokenInput,
} from './security.schemas.js';

type Deps = { db: Db; clock: Clock; audit: AuditService; sessions: SessionService };

/** The phrase that confirms a refresh-token revocation (docs/access-control.md "Administration"). */
export const REVOKE_PHRASE = 'REVOKE';

/** The token and sign-in listings of docs/access-control.md "Administration", blacklist cleanup and refresh-token revocation. */
export function createSecurityService({ db, clock, audit, sessions }: Deps) {
  async function blacklisted(query: BlacklistInput) {
    const page = pageRequest(query);
    const now = clock.now();
    const { rows, count } = await repo.listBlacklist(db, { userId: query.user_id, reason: query.reason, expired: query.expired, now },
      orderOf<repo.BlacklistOrderColumn>(query.ordering, '-blacklisted_at'), page.pageSize, page.offset);
    return { results: rows.map((r) => toBlacklistedToken(r, now)), count, page };
  }

  async function cleanupBlacklist(actor: Actor) {
    const deleted = await repo.deleteExpiredBlacklist(db, clock.now());
    await audit.record({ event_type: 'blacklist_cleanup', ...auditOrigin(actor), details: { deleted_count: deleted } });
    return { message: `${deleted} expired blacklist entr${deleted === 1 ? 'y' : 'ies'} removed`, deleted_count: deleted };
  }

  async function refreshTokens(query: RefreshTokenInput) {
    const page = pageRequest(query);
    const now = clock.now();
    const { rows, count } = await repo.listRefreshTokens(db, {
      userId: query.user_id, applicationId: query.application_id, isRevoked: query.is_revoked, expired: query.expired, now,
    }, orderOf<repo.RefreshTokenOrderColumn>(query.ordering, '-created_at'), page.pageSize, page.offset);
    return { results: rows.map((r) => toRefreshTokenRecord(r, now)), count, page };
  }

  /**
   * POST admin/refresh-tokens/<id>/revoke/: the phrase is checked first, then the token. Revoking ends the token's
   * whole session, so the access tokens issued in it stop working too. The phrase may be missing only from a request
   * that sent no body at all (docs/migrating-from-tenxyte.md, rule 13: a relaxation for one client: revoking only takes access away);
   * any body, `{}` included, must carry it.
   */
  async function revokeRefreshToken(actor: Actor, id: number, confirmation: string | undefined, opts: { bodySent: boolean }) {
    const confirmed = confirmation === REVOKE_PHRASE;
    if (!confirmed && (opts.bodySent || confirmation !== undefined)) {
      throw new AppError('CONFIRMATION_REQUIRED', { message: `Send {"confirmation": "${REVOKE_PHRASE}"} to revoke this token` });
    }
    const now = clock.now();
    const row = await db.transaction().execute(async (trx) => {
      const token = await repo.findRefreshTokenRecord(trx, id);
      if (!token) throw new AppError('NOT_FOUND');
      if (token.is_revoked) throw new AppError('ALREADY_REVOKED', { message: 'This refresh token is already revoked' });
      await sessions.endSession(trx, token.session_id, 'admin_revoked');
      await audit.record({ event_type: 'refresh_token_revoked', severity: 'warning', user_id: token.user_id, ...auditOrigin(actor),
        details: { refresh_token_id: id, session_id: token.session_id, confirmed } }, trx);
      return (await repo.findRefreshTokenRecord(trx, id))!;
    });
    return { message: 'Refresh token revoked', token: toRefreshTokenRecord(row, now) };
  }

  async function loginAttempts(query: LoginAttemptInput) {
    const page = pageRequest(query);
    const { rows, count } = await repo.listLoginAttempts(db, {
      identifier: query.identifier?.trim().toLowerCase(), ipAddress: query.ip_address?.trim(), success: query.success,
      userId: query.user_id, applicationId: query.application_id, ...dateRange(query),
    }, orderOf<repo.LoginAttemptOrderColumn>(query.ordering, '-created_at'), page.pageSize, page.offset);
    return { results: rows.map(toLoginAttempt), count, page };
  }

  return { blacklisted, cleanupBlacklist, refreshTokens, revokeRefreshToken, loginAttempts };
}

export type SecurityService = ReturnType<typeof createSecurityService>;
