import { randomUUID } from 'node:crypto';
import type { Config } from '../../config/settings.js';
import { addSeconds, type Clock } from '../../core/clock.js';
import { AppError, isAppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import { OTP_MAX_ATTEMPTS, otpHmac, sameHmac } from '../../security/otp-code.js';
import type { AuditService } from '../audit/audit.service.js';
import type { LockErrorOptions, LockoutService, LockTarget } from '../auth/lockout.service.js';
import type { LoginMeta, SignInService } from '../auth/sign-in.service.js';
import * as codes from '../otp/codes.js';
import type { OtpService } from '../otp/otp.service.js';
import { canSignIn } from '../users/account-state.js';
import * as userRepo from '../users/lookup.js';
import type { UserService } from '../users/users.service.js';
import type { IdentifierProof } from './identifier-proof.js';
import { createLoginSteps, failureReasonOf } from './login-steps.js';

type Deps = {
  db: Db; clock: Clock; config: Config; users: UserService; otp: OtpService; signIn: SignInService; lockout: LockoutService;
  audit: AuditService; proof: IdentifierProof;
  /** The key the one-time-code module stores code HMACs under. */
  codeKey: Buffer;
};

export interface OtpLoginInput {
  /** E.164. */
  phone: string;
  otp_code: string;
  totp_code?: string | undefined;
  device_info?: string | undefined;
}

const PURPOSE = 'login' as const;
/** The 423 of login/otp/verify/ states `retry_after` as a timestamp (docs/authentication.md "Passwordless login"). */
const AS_TIMESTAMP: LockErrorOptions = { retryAfter: 'timestamp' };

/**
 * Passwordless phone login (login/otp/*; docs/authentication.md "Passwordless login"). Login codes are one-time codes of purpose `login`: HMAC-stored,
 * 5 attempts counted before comparison, single use, sent by SMS through the outbox with the code.
 */
export function createOtpLoginService(deps: Deps) {
  const { db, clock, config, users, otp, signIn, lockout, audit, proof, codeKey } = deps;
  const steps = createLoginSteps(deps);

  /** A passwordless account for a phone nobody has. Of two concurrent requests for one phone, the unique index picks one. */
  async function register(phone: string, meta: LoginMeta) {
    try {
      const created = await users.create({ phone, email: null, password: null });
      await audit.record({ event_type: 'register', user_id: created.id, application_id: meta.applicationId, ip_address: meta.ip,
        user_agent: meta.userAgent, details: { method: 'otp' } });
    } catch (err) {
      if (!isAppError(err) || err.code !== 'VALIDATION_ERROR') throw err;
    }
    return userRepo.findUserForLogin(db, { phone });
  }

  /**
   * POST login/otp/request/. Unknown phones (auto-registration off) and inactive, banned or deleted accounts get
   * an answer of the same shape — a fresh id and the usual expiry — and no SMS.
   */
  async function request(phone: string, meta: LoginMeta): Promise<{ otpId: string; expiresAt: Date }> {
    let user = await userRepo.findUserForLogin(db, { phone });
    if (!user && config.OTP_LOGIN_AUTO_REGISTER) user = await register(phone, meta);
    if (!user || !canSignIn(user)) return { otpId: randomUUID(), expiresAt: addSeconds(clock.now(), config.OTP_LIFETIME) };
    const sent = await otp.issue(user.id, PURPOSE, 'phone');
    return { otpId: sent.otpId, expiresAt: sent.expiresAt };
  }

  /**
   * POST login/otp/verify/, as named steps: find account → locked? → count an attempt on the live code → compare →
   * account state → second factor → consume the code and verify the phone (one transaction; the first proof of a phone
   * removes a password set before it, identifier-proof.ts) → session and tokens.
   * Wrong, expired, used, other-purpose codes and unknown phones all answer 401 OTP_INVALID and count toward lockout.
   */
  async function verify(input: OtpLoginInput, meta: LoginMeta) {
    const identifier = input.phone;
    const user = await userRepo.findUserForLogin(db, { phone: input.phone });
    const target: LockTarget = user ? { userId: user.id, lockedUntil: user.locked_until } : { identifier };
    try {
      await lockout.assertNotLocked(target, AS_TIMESTAMP);
    } catch (err) {
      await signIn.failed(identifier, meta, user?.id ?? null, 'account_locked');
      throw err;
    }
    const now = clock.now();
    const live = user ? await codes.takeAttempt(db, user.id, PURPOSE, now, OTP_MAX_ATTEMPTS) : undefined;
    // Computed for unknown phones too, so both answers cost the same.
    const presented = otpHmac(codeKey, input.otp_code, { userId: user?.id ?? 0, purpose: PURPOSE });
    // A code proves the phone it was sent to: if the account's phone changed since, it proves nothing.
    if (!user || !live || live.recipient !== user.phone || !sameHmac(live.code_hmac, presented)) {
      await signIn.failed(identifier, meta, user?.id ?? null, 'invalid_code');
      await lockout.recordFailure(target, meta, AS_TIMESTAMP);
      throw new AppError('OTP_INVALID');
    }
    if (!canSignIn(user)) {
      await signIn.failed(identifier, meta, user.id, failureReasonOf(user));
      throw new AppError('OTP_INVALID');
    }
    // The second factor is checked before the code is consumed, so a 2FA_REQUIRED answer leaves it usable for the retry.
    await steps.restatingLock(user.id, AS_TIMESTAMP, () => signIn.secondFactor(user, input.totp_code, target, identifier, meta));
    const consumed = await db.transaction().execute(async (trx) => {
      const row = await codes.consumeCode(trx, live.id, now);
      return row ? proof.prove(trx, user.id, { kind: 'phone', value: row.recipient }, meta) : null;
    });
    if (!consumed) {
      // A concurrent request with the same code won. The code was right, so this is not counted toward lockout.
      await signIn.failed(identifier, meta, user.id, 'code_already_used');
      throw new AppError('OTP_INVALID');
    }
    if (consumed.passwordRevoked) proof.kick();
    const body = await steps.restatingLock(user.id, AS_TIMESTAMP,
      () => signIn.completeLogin(user, identifier, input.device_info, meta));
    return { ...body, user: { ...body.user, has_usable_password: user.has_usable_password && !consumed.passwordRevoked } };
  }

  const invalidForSetInitial = (remaining: number) => new AppError('OTP_INVALID', {
    status: 400, message: `Invalid code. ${remaining} attempt${remaining === 1 ? '' : 's'} remaining.`,
  });

  /**
   * The fresh proof password/set-initial/ asks for: the account's live login code. Throws 400 OTP_REQUIRED when
   * there is none, 400 OTP_INVALID naming the attempts left when the code is wrong (or its attempts are spent),
   * and consumes the code in one statement when it is right.
   */
  async function consumeLoginCodeForSetInitial(userId: number, code: string): Promise<void> {
    const now = clock.now();
    const live = await codes.takeAttempt(db, userId, PURPOSE, now, OTP_MAX_ATTEMPTS);
    if (!live) {
      if (!(await codes.findLiveCode(db, userId, PURPOSE, now))) throw new AppError('OTP_REQUIRED');
      throw invalidForSetInitial(0);
    }
    if (!sameHmac(live.code_hmac, otpHmac(codeKey, code, { userId, purpose: PURPOSE }))) {
      const attempts = (await codes.findLiveCode(db, userId, PURPOSE, now))?.attempts ?? OTP_MAX_ATTEMPTS;
      throw invalidForSetInitial(Math.max(0, OTP_MAX_ATTEMPTS - attempts));
    }
    if (!(await codes.consumeCode(db, live.id, now))) throw invalidForSetInitial(0);
  }

  return { request, verify, consumeLoginCodeForSetInitial };
}

export type OtpLoginService = ReturnType<typeof createOtpLoginService>;
