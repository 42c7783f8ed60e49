import type { Config } from '../../config/settings.js';
import type { Clock } from '../../core/clock.js';
import { AppError, isAppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { OutboxService, Preparer } from '../../notifications/outbox.service.js';
import type { PasswordHasher } from '../../security/password-hash.js';
import type { AuditService } from '../audit/audit.service.js';
import type { OtpService } from '../otp/otp.service.js';
import type { RequestMeta } from '../../core/request-meta.js';
import type { SessionService } from '../sessions/sessions.service.js';
import { canSignIn } from '../users/account-state.js';
import type { WebhookEvents } from '../webhooks/webhook-events.service.js';
import * as users from '../users/lookup.js';
import type { PasswordService } from './passwords.service.js';

type Deps = {
  db: Db; clock: Clock; config: Config; hasher: PasswordHasher; audit: AuditService; sessions: SessionService;
  passwords: PasswordService; otp: OtpService; outbox: OutboxService; events: WebhookEvents;
};

export type ResetTarget = { email: string } | { phone: string };

/** What a queued reset message carries besides its code: the code's row id and the request, for its audit event. */
type ResetRequestContext = { otp_id: string; application_id: number | null; ip: string | null; user_agent: string | null };

/** docs/passwords-and-codes.md "Resetting a forgotten password": password/reset/request/ and password/reset/confirm/ (a code by email or SMS). */
export function createPasswordResetService({ db, clock, config, hasher, audit, sessions, passwords, otp, outbox, events }: Deps) {
  /**
   * Queues a reset code for the address given, and answers. The answer, and the work done before it, are the same
   * whether or not the address belongs to an account (docs/security.md "Same answer, same work"): a code is drawn and
   * its message written to the outbox in every case. Looking the account up, writing the code and its audit event
   * happen when the message is prepared (`prepareReset`), after the answer; an address with no account gets nothing.
   */
  async function request(target: ResetTarget, meta: RequestMeta) {
    const channel = 'email' in target ? 'email' as const : 'sms' as const;
    const draft = otp.draft();
    const context: ResetRequestContext = { otp_id: draft.id, application_id: meta.applicationId, ip: meta.ip, user_agent: meta.userAgent };
    await outbox.enqueue(db, {
      channel, to: 'email' in target ? target.email : target.phone, purpose: 'password_reset', expiresAt: draft.expiresAt,
      vars: { code: draft.code, minutes: Math.ceil(config.OTP_LIFETIME / 60) }, context, dedupKey: `otp:${draft.id}`,
    });
    outbox.kick();
    return { otp_id: draft.id, expires_at: draft.expiresAt, channel };
  }

  /** Sends a queued reset code only to a usable account at that address, whose code is written now. */
  const prepareReset: Preparer = async ({ channel, recipient, vars, context, expiresAt }) => {
    const request = context as ResetRequestContext;
    const user = await users.findUserForLogin(db, channel === 'email' ? { email: recipient } : { phone: recipient });
    // Inactive, banned and deleted accounts are treated as unknown: no code.
    if (!user || !canSignIn(user)) return null;
    const placed = await otp.place(user.id, 'password_reset', { id: request.otp_id, code: vars.code!, expiresAt }, { channel, recipient });
    if (!placed) return null;
    if (placed.written) {
      await audit.record({ event_type: 'password_reset_requested', user_id: user.id, application_id: request.application_id,
        ip_address: request.ip, user_agent: request.user_agent, details: { channel } });
    }
    return { vars, language: placed.language };
  };
  outbox.prepareWith('password_reset', prepareReset);

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
