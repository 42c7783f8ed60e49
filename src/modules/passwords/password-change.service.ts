import type { Clock } from '../../core/clock.js';
import { AppError, isAppError } from '../../core/errors.js';
import type { Db, Trx } from '../../db/database.js';
import type { PasswordHasher } from '../../security/password-hash.js';
import type { PasswordVerifier } from '../users/password-verifier.js';
import type { AuditService } from '../audit/audit.service.js';
import type { LockoutService } from '../auth/lockout.service.js';
import type { OtpService } from '../otp/otp.service.js';
import type { AuthContext } from '../sessions/bearer.service.js';
import type { RequestMeta } from '../../core/request-meta.js';
import type { IssuedTokens, SessionService } from '../sessions/sessions.service.js';
import * as repo from './passwords.repo.js';
import type { ChangeInput, SetInitialInput } from './passwords.schemas.js';
import type { PasswordService } from './passwords.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.service.js';

/** Consumes a fresh login code of the account's phone: 400 OTP_REQUIRED without one, 400 OTP_INVALID when wrong. */
export type LoginCodeConsumer = (userId: number, code: string) => Promise<void>;

type Deps = {
  db: Db; clock: Clock; hasher: PasswordHasher; verifyPassword: PasswordVerifier['verify']; audit: AuditService; lockout: LockoutService;
  sessions: SessionService;
  passwords: PasswordService; otp: OtpService; consumeLoginCode: LoginCodeConsumer; events: WebhookEvents;
};

type Account = NonNullable<Awaited<ReturnType<typeof repo.findAccount>>>;

/** The token pair a restricted (`password_change_only`) caller gets once the password is changed or set. */
const pairOf = ({ access_token, refresh_token, token_type, expires_in, refresh_expires_in }: IssuedTokens) =>
  ({ access_token, refresh_token, token_type, expires_in, refresh_expires_in });

/** docs/passwords-and-codes.md "Changing a password" and "Setting a first password": password/change/ and password/set-initial/. */
export function createPasswordChangeService(deps: Deps) {
  const { db, clock, hasher, verifyPassword, audit, lockout, sessions, passwords, otp, consumeLoginCode, events } = deps;

  async function accountOf(auth: AuthContext): Promise<Account> {
    const account = await repo.findAccount(db, auth.user.id);
    if (!account) throw new AppError('UNAUTHORIZED');
    return account;
  }

  const contextOf = (a: Account) => ({ email: a.email, first_name: a.first_name, last_name: a.last_name });

  /** The current password, checked like a login: a lock answers 423 and every wrong one counts toward it. */
  async function proveWithPassword(account: Account, password: string, meta: RequestMeta): Promise<void> {
    const target = { userId: account.id, lockedUntil: account.locked_until };
    await lockout.assertNotLocked(target);
    if (await verifyPassword(account, password)) return;
    await audit.record({ event_type: 'password_change_failed', severity: 'warning', user_id: account.id,
      application_id: meta.applicationId, ip_address: meta.ip, user_agent: meta.userAgent, details: { reason: 'invalid_password' } });
    await lockout.recordFailure(target, meta);
    throw new AppError('INVALID_PASSWORD');
  }

  /** A code from otp/request/ with purpose `password_change`; a wrong one answers 400 INVALID_OTP. */
  async function proveWithCode(account: Account, code: string) {
    try {
      return await otp.consume(account.id, 'password_change', code);
    } catch (err) {
      if (isAppError(err) && err.code === 'INVALID_OTP') throw new AppError('INVALID_OTP', { status: 400 });
      throw err;
    }
  }

  interface CommitOptions {
    reason: string;
    /** Ends every other session of the account (a changed password), or leaves them (a first password). */
    endOthers: boolean;
    /** Runs first in the transaction (consuming the proof code). */
    before?: (trx: Trx) => Promise<void>;
  }

  /**
   * Stores the new password and, when asked, ends the other sessions. A restricted caller's own session is
   * replaced by a full-scope one whose pair is answered; a full-scope caller keeps its session.
   */
  async function commit(auth: AuthContext, account: Account, hash: string, meta: RequestMeta, { reason, endOthers, before }: CommitOptions) {
    const restricted = auth.claims.scope === 'password_change_only';
    const sessionId = Number(auth.claims.sid);
    const now = clock.now();
    return db.transaction().execute(async (trx) => {
      if (before) await before(trx);
      await passwords.store(trx, account.id, hash, now);
      await events.emit(trx, 'password.changed', { user_id: account.id, method: reason === 'password_set' ? 'set' : 'change' });
      const revoked = endOthers ? await sessions.revokeOthers(trx, account.id, sessionId, reason) : 0;
      const issued = restricted ? await sessions.reopenFull(trx, account, sessionId, reason, meta) : null;
      return { revoked, issued };
    });
  }

  /** POST password/change/: proof by current password or a fresh code, then the policy, then the new password. */
  async function change(auth: AuthContext, input: ChangeInput, meta: RequestMeta) {
    const account = await accountOf(auth);
    if (!account.has_usable_password || !account.password_hash) throw new AppError('PASSWORDLESS_ACCOUNT_USE_SET_INITIAL_PASSWORD');
    if (!input.current_password && !input.otp_code) {
      throw AppError.validation({ current_password: ['Provide current_password, or otp_code from otp/request/ with purpose password_change.'] });
    }
    const live = input.current_password ? (await proveWithPassword(account, input.current_password, meta), null)
      : await proveWithCode(account, input.otp_code!);
    const { hash } = await passwords.vet({ password: input.new_password, userId: account.id, context: contextOf(account) });
    const { revoked, issued } = await commit(auth, account, hash, meta, {
      reason: 'password_change', endOthers: true,
      before: live ? async (trx) => {
        if (!await otp.claim(trx, live)) throw new AppError('INVALID_OTP', { status: 400 });
      } : undefined,
    });
    await audit.record({ event_type: 'password_change', user_id: account.id, application_id: meta.applicationId,
      ip_address: meta.ip, user_agent: meta.userAgent, details: { sessions_revoked: revoked, proof: live ? 'otp' : 'password' } });
    return {
      message: 'Password changed successfully.',
      password_strength: passwords.strength(input.new_password, contextOf(account)).strength,
      sessions_revoked: revoked,
      ...(issued ? pairOf(issued) : {}),
    };
  }

  /** POST password/set-initial/: a passwordless account proves its phone with a fresh login code and gets a password. */
  async function setInitial(auth: AuthContext, input: SetInitialInput, meta: RequestMeta) {
    const account = await accountOf(auth);
    if (account.has_usable_password && account.password_hash) throw new AppError('ALREADY_HAS_PASSWORD');
    const problems = passwords.check(input.new_password, contextOf(account));
    if (problems.length) throw AppError.validation({ new_password: problems });
    await passwords.screen(input.new_password, account.id);
    await consumeLoginCode(account.id, input.otp_code);
    const hash = await hasher.hash(input.new_password);
    const { issued } = await commit(auth, account, hash, meta, { reason: 'password_set', endOthers: false });
    await audit.record({ event_type: 'password_set', user_id: account.id, application_id: meta.applicationId,
      ip_address: meta.ip, user_agent: meta.userAgent });
    return { message: 'Password set successfully.', ...(issued ? pairOf(issued) : {}) };
  }

  return { change, setInitial };
}

export type PasswordChangeService = ReturnType<typeof createPasswordChangeService>;
