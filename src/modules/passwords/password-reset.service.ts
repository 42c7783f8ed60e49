import { randomUUID } from 'node:crypto';
import type { Config } from '../../config/settings.js';
import { addSeconds, type Clock } from '../../core/clock.js';
import { AppError, isAppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { PasswordHasher } from '../../security/password-hash.js';
import type { AuditService } from '../audit/audit.service.js';
import type { OtpService } from '../otp/otp.service.js';
import type { RequestMeta, SessionService } from '../sessions/sessions.service.js';
import { canSignIn } from '../users/account-state.js';
import type { WebhookEvents } from '../webhooks/webhook-events.service.js';
import * as users from '../users/users.repo.js';
import type { PasswordService } from './passwords.service.js';

type Deps = {
  db: Db; clock: Clock; config: Config; hasher: PasswordHasher; audit: AuditService; sessions: SessionService;
  passwords: PasswordService; otp: OtpService; events: WebhookEvents;
};

export type ResetTarget = { email: string } | { phone: string };


/** SPEC.md "Passwords": password/reset/request/ and password/reset/confirm/ (a code by email or SMS). */
export function createPasswordResetService({ db, clock, config, hasher, audit, sessions, passwords, otp, events }: Deps) {
  /**
   * Sends a reset code to the address given when it belongs to an account. The answer has the same shape and
   * fields whether or not it does, so it reveals nothing about which addresses are registered.
   */
  async function request(target: ResetTarget, meta: RequestMeta) {
    const otpType = 'email' in target ? 'email' as const : 'phone' as const;
    const user = await users.findUserForLogin(db, target);
    // Inactive, banned and deleted accounts are treated as unknown: no code, and the same answer.
    if (user && canSignIn(user)) {
      const sent = await otp.issue(user.id, 'password_reset', otpType, 'password_reset');
      await audit.record({ event_type: 'password_reset_requested', user_id: user.id, application_id: meta.applicationId,
        ip_address: meta.ip, user_agent: meta.userAgent, details: { channel: sent.channel } });
      return { otp_id: sent.otpId, expires_at: sent.expiresAt, channel: sent.channel };
    }
    return { otp_id: randomUUID(), expires_at: addSeconds(clock.now(), config.OTP_LIFETIME), channel: otpType === 'email' ? 'email' as const : 'sms' as const };
  }

  /**
   * Checks the code, applies the policy, stores the new password and ends every session and access token of
   * the account. It does not sign in: the next login (with its second factor) does. Unknown accounts, wrong,
   * expired and used codes all answer 401 OTP_EXPIRED.
   */
  async function confirm(target: ResetTarget, code: string, newPassword: string, meta: RequestMeta) {
    const user = await users.findUserForLogin(db, target);
    const context = user ? await passwords.contextOf(user.id) : { email: 'email' in target ? target.email : null };
    const problems = passwords.check(newPassword, context);
    if (problems.length) throw AppError.validation({ new_password: problems });
    if (!user || !canSignIn(user)) throw new AppError('OTP_EXPIRED');
    let live;
    try {
      live = await otp.consume(user.id, 'password_reset', code);
    } catch (err) {
      if (isAppError(err) && err.code === 'INVALID_OTP') throw new AppError('OTP_EXPIRED');
      throw err;
    }
    const { safe } = await passwords.screen(newPassword, user.id);
    const hash = await hasher.hash(newPassword);
    const revoked = await db.transaction().execute(async (trx) => {
      if (!await otp.claim(trx, live)) throw new AppError('OTP_EXPIRED');
      await passwords.store(trx, user.id, hash, clock.now());
      await events.emit(trx, 'password.changed', { user_id: user.id, method: 'reset' });
      return sessions.revokeAll(trx, user.id, 'password_reset');
    });
    await audit.record({ event_type: 'password_reset', user_id: user.id, application_id: meta.applicationId,
      ip_address: meta.ip, user_agent: meta.userAgent, details: { sessions_revoked: revoked.sessions } });
    return { message: 'Password has been reset. Sign in with the new password.', tokens_revoked: revoked.sessions, password_safe: safe };
  }

  return { request, confirm };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
