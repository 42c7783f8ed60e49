import type { Config } from '../../config/settings.js';
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { AuditService } from '../audit/audit.service.js';
import type { AuthContext } from '../sessions/bearer.service.js';
import type { RequestMeta } from '../sessions/sessions.service.js';
import type { PasswordVerifier } from '../users/password-verifier.js';
import * as users from '../users/lookup.js';
import type { LockoutService, LockTarget } from './lockout.service.js';
import type { SecondFactorVerifier } from './sign-in.service.js';

type Deps = {
  db: Db; clock: Clock; config: Config; audit: AuditService; lockout: LockoutService;
  verifyPassword: PasswordVerifier['verify']; verifySecondFactor: SecondFactorVerifier;
};

/** What a request may send instead of a recent sign-in. */
export interface ReauthProof {
  password?: string | undefined;
  totp_code?: string | undefined;
}

const required = () => new AppError('REAUTHENTICATION_REQUIRED');

/**
 * docs/security.md "Recent authentication": the sensitive changes an access token alone may not make once its sign-in is
 * older than SVC_REAUTH_MAX_AGE. A stolen access token (or one refreshed from a stolen refresh token: a refresh keeps
 * `auth_time`) then also needs what only the person knows, as OpenID Connect's `max_age` asks of a relying party.
 */
export function createReauthService({ db, clock, config, audit, lockout, verifyPassword, verifySecondFactor }: Deps) {
  /** Within SVC_REAUTH_MAX_AGE of the token's `auth_time`; a token without one (issued before the claim) never is. */
  const isRecent = (authTime: number | null): boolean =>
    authTime !== null && clock.now().getTime() / 1000 - authTime <= config.REAUTH_MAX_AGE;

  /**
   * Passes a recent sign-in; otherwise needs the account's password, and with 2FA on a TOTP or backup code, checked like
   * a login's: 423 while the account is locked, and each wrong one counts toward the lockout. Anything short of that
   * answers 403 REAUTHENTICATION_REQUIRED, the same whichever part was missing or wrong. With 2FA on and no code, the
   * password is not even checked, so the answer never tells that it was right.
   */
  async function confirm(auth: AuthContext, proof: ReauthProof, meta: RequestMeta): Promise<void> {
    if (isRecent(auth.claims.auth_time)) return;
    if (!proof.password) throw required();
    const account = await users.findUserForLoginById(db, auth.user.id);
    if (!account) throw new AppError('UNAUTHORIZED');
    if (account.is_2fa_enabled && !proof.totp_code) throw required();
    const target: LockTarget = { userId: account.id, lockedUntil: account.locked_until };
    await lockout.assertNotLocked(target);
    // Password first, so a mistyped password spends no backup code.
    const failure = !(await verifyPassword(account, proof.password)) ? 'invalid_password'
      : account.is_2fa_enabled && !(await verifySecondFactor(account, proof.totp_code!)) ? 'invalid_2fa_code' : null;
    if (!failure) return;
    await audit.record({ event_type: 'reauthentication_failed', severity: 'warning', user_id: account.id,
      application_id: meta.applicationId, ip_address: meta.ip, user_agent: meta.userAgent, details: { reason: failure } });
    await lockout.recordFailure(target, meta);
    throw required();
  }

  return { isRecent, confirm };
}

export type ReauthService = ReturnType<typeof createReauthService>;
