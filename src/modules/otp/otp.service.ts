import { randomUUID } from 'node:crypto';
import type { Config } from '../../config/settings.js';
import { addSeconds, type Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Db, Executor, OtpPurpose } from '../../db/database.js';
import type { OutboxService } from '../../notifications/outbox.service.js';
import type { Purpose as TemplatePurpose } from '../../notifications/templates.js';
import { newOtpCode, OTP_MAX_ATTEMPTS, otpHmac, sameHmac } from '../../security/otp-code.js';
import * as repo from './otp.repo.js';

type Deps = {
  db: Db; clock: Clock; config: Config; outbox: OutboxService; codeKey: Buffer;
  /** Runs once an account's email is verified (organization invitations to it are accepted); must not reject. */
  onEmailVerified?: (user: { id: number }) => Promise<unknown>;
};

export type OtpType = 'email' | 'phone';

/** A code drawn before its account is known: its row's id, the code, and when it expires. */
export interface CodeDraft {
  id: string;
  code: string;
  expiresAt: Date;
}

const PURPOSE_OF: Record<OtpType, OtpPurpose> = { email: 'verify_email', phone: 'verify_phone' };

/** `ann@example.com` → `a**@example.com`: enough to recognise the address, not to learn it. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  return `${local.slice(0, 1)}${'*'.repeat(Math.max(local.length - 1, 1))}${email.slice(at)}`;
}

/** `+33612345678` → `+*******5678`. */
export const maskPhone = (phone: string): string => `+${'*'.repeat(Math.max(phone.length - 5, 1))}${phone.slice(-4)}`;

/** docs/passwords-and-codes.md "Verification codes": for the account's email address and phone. */
export function createOtpService({ db, clock, config, outbox, codeKey, onEmailVerified }: Deps) {
  /** Issues a code for `purpose`, retiring older ones, and queues the message in the same transaction. */
  async function issue(userId: number, purpose: OtpPurpose, otpType: OtpType, template: TemplatePurpose = 'otp') {
    const contact = await repo.findContact(db, userId);
    const recipient = otpType === 'email' ? contact?.email : contact?.phone;
    if (!contact || !recipient) {
      throw AppError.validation({ otp_type: [`This account has no ${otpType === 'email' ? 'email address' : 'phone number'}.`] });
    }
    const channel = otpType === 'email' ? 'email' as const : 'sms' as const;
    const code = newOtpCode();
    const now = clock.now();
    const expiresAt = addSeconds(now, config.OTP_LIFETIME);
    const row = await db.transaction().execute(async (trx) => {
      await repo.lockUser(trx, userId);
      await repo.retireCodes(trx, userId, purpose, now);
      const inserted = await repo.insertCode(trx, {
        id: randomUUID(), user_id: userId, purpose, channel, recipient, created_at: now, expires_at: expiresAt,
        code_hmac: otpHmac(codeKey, code, { userId, purpose }),
      });
      await outbox.enqueue(trx, {
        channel, to: recipient, purpose: template, language: contact.language, expiresAt,
        vars: { code, minutes: Math.ceil(config.OTP_LIFETIME / 60) }, dedupKey: `otp:${inserted.id}`,
      });
      return inserted;
    });
    outbox.kick();
    return { otpId: row.id, expiresAt: row.expires_at, channel, maskedRecipient: otpType === 'email' ? maskEmail(recipient) : maskPhone(recipient) };
  }

  /**
   * A code for an account not looked up yet (password/reset/request/): drawn now, with the id its row will have, and
   * written by `place` only once its message is about to leave and its account is known.
   */
  function draft(): CodeDraft {
    return { id: randomUUID(), code: newOtpCode(), expiresAt: addSeconds(clock.now(), config.OTP_LIFETIME) };
  }

  /**
   * Writes a drafted code for its account, retiring the older ones, as `issue` does, the first time its message is
   * prepared. On a later attempt (the provider failed) the row exists and the message goes out with it as it is,
   * retired by a newer code meanwhile or not, as a message queued with its code always did. Answers the account's
   * language for the message and whether the code was written now; null when the code is another account's (the
   * address changed hands between two attempts), whose message is then not sent.
   */
  async function place(userId: number, purpose: OtpPurpose, d: CodeDraft, to: { channel: 'email' | 'sms'; recipient: string }) {
    const now = clock.now();
    return db.transaction().execute(async (trx) => {
      await repo.lockUser(trx, userId);
      const language = (await repo.findContact(trx, userId))?.language ?? null;
      const existing = await repo.findCodeOwner(trx, d.id);
      if (existing) return existing.user_id === userId && existing.purpose === purpose ? { written: false, language } : null;
      await repo.retireCodes(trx, userId, purpose, now);
      await repo.insertCode(trx, {
        id: d.id, user_id: userId, purpose, channel: to.channel, recipient: to.recipient, created_at: now, expires_at: d.expiresAt,
        code_hmac: otpHmac(codeKey, d.code, { userId, purpose }),
      });
      return { written: true, language };
    });
  }

  /**
   * Checks and consumes a code: the attempt is counted before the comparison (and stays counted when the code
   * is wrong), the comparison is constant-time, and consumption is a single statement so that one of several
   * concurrent submissions wins. Wrong, expired, used, other-purpose and other-account codes all answer
   * 401 INVALID_OTP.
   */
  async function consume(userId: number, purpose: OtpPurpose, code: string) {
    const now = clock.now();
    const live = await repo.takeAttempt(db, userId, purpose, now, OTP_MAX_ATTEMPTS);
    if (!live || !sameHmac(live.code_hmac, otpHmac(codeKey, code, { userId, purpose }))) throw new AppError('INVALID_OTP');
    return { id: live.id, recipient: live.recipient, now };
  }

  /** Consumes a code `consume` accepted, inside the caller's transaction; false when a concurrent use won. */
  const claim = async (trx: Executor, live: { id: string; now: Date }) => Boolean(await repo.consumeCode(trx, live.id, live.now));

  /** otp/request/: a code proving the address (default), or one proving the account for password/change/. */
  async function request(userId: number, otpType: OtpType, purpose: 'verify' | 'password_change' = 'verify') {
    return issue(userId, purpose === 'verify' ? PURPOSE_OF[otpType] : 'password_change', otpType);
  }

  async function verifyEmail(userId: number, code: string) {
    const live = await consume(userId, 'verify_email', code);
    const ok = await db.transaction().execute(async (trx) => {
      if (!await repo.consumeCode(trx, live.id, live.now)) return false;
      // The address may have changed since the code was sent: only the address that received it is verified.
      return !!await repo.markEmailVerified(trx, userId, live.recipient, live.now);
    });
    if (!ok) throw new AppError('INVALID_OTP');
    if (onEmailVerified) await onEmailVerified({ id: userId });
    return { verifiedAt: live.now };
  }

  async function verifyPhone(userId: number, code: string) {
    const live = await consume(userId, 'verify_phone', code);
    const phone = await db.transaction().execute(async (trx) => {
      if (!await repo.consumeCode(trx, live.id, live.now)) return undefined;
      return (await repo.markPhoneVerified(trx, userId, live.recipient, live.now))?.phone ?? undefined;
    });
    if (!phone) throw new AppError('INVALID_OTP');
    return { verifiedAt: live.now, phoneNumber: phone };
  }

  return { issue, draft, place, consume, claim, request, verifyEmail, verifyPhone };
}

export type OtpService = ReturnType<typeof createOtpService>;
