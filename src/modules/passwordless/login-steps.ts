import { isAppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { AuditService } from '../audit/audit.service.js';
import type { LockErrorOptions, LockoutService } from '../auth/lockout.service.js';
import type { LoginMeta, LoginService } from '../auth/login.service.js';
import type { LoginUser } from '../users/users.repo.js';

/** Inactive, banned and deleted accounts sign in by no method. */
export const isUsable = (u: Pick<LoginUser, 'is_active' | 'is_banned' | 'deleted_at'>) =>
  u.is_active && !u.is_banned && u.deleted_at === null;

export const failureReasonOf = (u: Pick<LoginUser, 'is_banned' | 'deleted_at'>) =>
  u.is_banned ? 'banned' : u.deleted_at !== null ? 'deleted' : 'inactive';

type Deps = { db: Db; login: LoginService; lockout: LockoutService; audit: AuditService };

/** The steps passwordless logins share with password logins, recorded the same way. */
export function createLoginSteps({ db, login, lockout, audit }: Deps) {
  /** A failed attempt: the login-attempt row and the `login_failed` audit event. */
  async function failed(identifier: string, meta: LoginMeta, userId: number | null, reason: string): Promise<void> {
    await login.recordAttempt(identifier, meta, userId, false, reason);
    await audit.record({ event_type: 'login_failed', user_id: userId, application_id: meta.applicationId, ip_address: meta.ip,
      user_agent: meta.userAgent, details: { method: meta.method, reason } });
  }

  /**
   * Runs a step of the shared login (second factor, session) and restates a 423 it throws in the form the
   * caller's endpoint uses for `retry_after`.
   */
  async function restatingLock<T>(userId: number, opts: LockErrorOptions, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (err) {
      if (isAppError(err) && err.code === 'ACCOUNT_LOCKED' && opts.retryAfter === 'timestamp') {
        throw await lockout.lockedErrorOf(userId, db, opts);
      }
      throw err;
    }
  }

  return { failed, restatingLock };
}

export type LoginSteps = ReturnType<typeof createLoginSteps>;
