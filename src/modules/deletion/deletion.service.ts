import type { Config } from '../../config/settings.js';
import { addSeconds, toIso, type Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Db, Executor } from '../../db/database.js';
import type { OutboxService } from '../../notifications/outbox.service.js';
import { newOpaqueToken, randomHex, sha256Hex } from '../../security/random.js';
import type { AuditService } from '../audit/audit.service.js';
import type { LockoutService, LockTarget } from '../auth/lockout.service.js';
import type { AuthContext } from '../sessions/bearer.service.js';
import type { RequestMeta } from '../../core/request-meta.js';
import type { IssuedTokens, SessionService } from '../sessions/sessions.service.js';
import type { PasswordVerifier } from '../users/password-verifier.js';
import type { WebhookEvents } from '../webhooks/webhook-events.service.js';
import * as repo from './deletion.repo.js';
import type { CancelDeletionAnswer, ConfirmDeletionAnswer, RequestDeletionInput } from './deletion.schemas.js';

/** A TOTP or backup code of the account (the two-factor module's login check). */
export type SecondFactorCheck = (user: { id: number }, code: string) => Promise<boolean>;

type Deps = {
  db: Db; clock: Clock; config: Config; audit: AuditService; lockout: LockoutService; sessions: SessionService;
  outbox: OutboxService; verifyPassword: PasswordVerifier['verify']; verifySecondFactor: SecondFactorCheck; events: WebhookEvents;
};

const DAY_SECONDS = 86_400;

/** The pair a `deletion_pending` caller gets back when it cancels: the account is active again. */
const pairOf = ({ access_token, refresh_token, token_type, expires_in, refresh_expires_in }: IssuedTokens) =>
  ({ access_token, refresh_token, token_type, expires_in, refresh_expires_in });

/**
 * Account deletion (docs/privacy.md "The lifecycle", docs/decisions.md "Account deletion"): the request, its
 * emailed confirmation, the grace period during which the account is inactive, and cancellation. Completion (the
 * anonymization) is the completion service's.
 */
export function createDeletionService(deps: Deps) {
  const { db, clock, config, audit, lockout, sessions, outbox, verifyPassword, verifySecondFactor, events } = deps;
  const graceDays = config.ACCOUNT_DELETION_GRACE_PERIOD_DAYS;
  outbox.onDelivered('deletion_confirmation', (messageId) => repo.markConfirmationSent(db, messageId));

  const event = (eventType: string, userId: number, meta: RequestMeta, details: Record<string, unknown> = {}) => ({
    // A GDPR record: written whatever SVC_AUDIT_LOGGING_ENABLED says about routine events.
    event_type: eventType, severity: 'warning' as const, user_id: userId, application_id: meta.applicationId,
    ip_address: meta.ip, user_agent: meta.userAgent, details,
  });

  /** The account's emails go to its address, or by SMS to its phone when it has none. */
  const recipientOf = (account: repo.DeletionAccount) => (account.email
    ? { channel: 'email' as const, to: account.email } : account.phone ? { channel: 'sms' as const, to: account.phone } : null);

  async function notify(trx: Executor, account: repo.DeletionAccount, purpose: 'deletion_confirmation' | 'deletion_confirmed'
    | 'deletion_cancelled', vars: Record<string, string | number>, expiresAt: Date): Promise<number | null> {
    const recipient = recipientOf(account);
    if (!recipient) return null;
    return outbox.enqueue(trx, { ...recipient, purpose, language: account.language, vars, expiresAt });
  }

  async function accountOf(userId: number): Promise<repo.DeletionAccount> {
    const account = await repo.findAccount(db, userId);
    if (!account) throw new AppError('UNAUTHORIZED');
    return account;
  }

  /**
   * Proof of ownership: each failure answers 400 naming its field and counts toward the account lockout, so a stolen
   * access token cannot be used to guess the password or the second factor.
   */
  async function provePassword(account: repo.DeletionAccount, password: string, meta: RequestMeta): Promise<void> {
    const target: LockTarget = { userId: account.id, lockedUntil: account.locked_until };
    await lockout.assertNotLocked(target);
    if (await verifyPassword(account, password)) return;
    await lockout.recordFailure(target, meta);
    throw AppError.validation({ password: ['The password is incorrect.'] });
  }

  /** For an account with 2FA: a TOTP or backup code. */
  async function proveSecondFactor(account: repo.DeletionAccount, code: string | undefined, meta: RequestMeta): Promise<void> {
    if (!account.is_2fa_enabled) return;
    if (!code) throw AppError.validation({ otp_code: ['A two-factor code is required for this account.'] });
    if (await verifySecondFactor(account, code)) return;
    await lockout.recordFailure({ userId: account.id, lockedUntil: account.locked_until }, meta);
    throw AppError.validation({ otp_code: ['The two-factor code is incorrect.'] });
  }

  const retentionPolicy = () => ({
    anonymization_after: `${graceDays} days after confirmation`,
    final_deletion_after: 'Personal data is anonymized at the end of the grace period; audit records are kept without it.',
  });

  const alreadyPending = (open: repo.OwnRequest) => new AppError('DELETION_ALREADY_PENDING', { extra: {
    existing_request: { scheduled_deletion_date: toIso(open.grace_period_ends_at), cancellation_token: open.cancellation_token },
  } });

  /** POST request-account-deletion/: a `pending` request and its emailed single-use confirmation token. */
  async function request(auth: AuthContext, input: RequestDeletionInput, meta: RequestMeta) {
    const account = await accountOf(auth.user.id);
    const open = await repo.findOpenRequest(db, account.id);
    // The password first, so a request already pending costs a guess like any other; the second factor only when
    // a request will be made, so it burns no backup code for nothing.
    await provePassword(account, input.password, meta);
    if (open) throw alreadyPending(open);
    await proveSecondFactor(account, input.otp_code, meta);

    const now = clock.now();
    const token = newOpaqueToken(32);
    const confirmationExpiresAt = addSeconds(now, config.ACCOUNT_DELETION_CONFIRMATION_LIFETIME);
    const created = await db.transaction().execute(async (trx) => {
      const row = await repo.insertRequest(trx, {
        user_id: account.id, user_email: account.email, status: 'pending', reason: input.reason?.trim() || null, ip_address: meta.ip,
        confirmation_hash: token.hash, confirmation_expires_at: confirmationExpiresAt, cancellation_token: randomHex(16),
        requested_at: now, grace_period_ends_at: addSeconds(now, graceDays * DAY_SECONDS),
      });
      if (!row) return null;
      const messageId = await notify(trx, account, 'deletion_confirmation', {
        token: token.raw, reference: row.cancellation_token, days: graceDays,
        minutes: Math.round(config.ACCOUNT_DELETION_CONFIRMATION_LIFETIME / 60),
      }, confirmationExpiresAt);
      if (messageId !== null) await repo.setConfirmationMessage(trx, row.id, messageId);
      await audit.record(event('account_deletion_requested', account.id, meta, { deletion_request_id: row.id }), trx);
      await events.emit(trx, 'deletion.requested', { user_id: account.id, email: account.email, deletion_request_id: row.id,
        reason: input.reason?.trim() || null, requested_at: now.toISOString(),
        grace_period_ends_at: row.grace_period_ends_at.toISOString() });
      return row;
    });
    if (!created) {
      // A parallel request won the race for the account's one open request.
      const winner = await repo.findOpenRequest(db, account.id);
      throw winner ? alreadyPending(winner) : new AppError('DELETION_ALREADY_PENDING');
    }
    outbox.kick();
    return {
      message: 'Account deletion requested. Confirm it with the token sent to your email address.',
      deletion_request_id: created.id,
      scheduled_deletion_date: toIso(created.grace_period_ends_at)!,
      grace_period_days: graceDays,
      cancellation_token: created.cancellation_token,
      data_retention_policy: retentionPolicy(),
    };
  }

  /**
   * POST confirm-account-deletion/: consumes the token (one winner), deactivates the account for the grace period
   * and ends every session, in one transaction.
   */
  async function confirm(token: string, meta: RequestMeta): Promise<ConfirmDeletionAnswer> {
    const now = clock.now();
    const hash = sha256Hex(token);
    const graceEndsAt = addSeconds(now, graceDays * DAY_SECONDS);
    const confirmed = await db.transaction().execute(async (trx) => {
      const row = await repo.consumeConfirmation(trx, hash, now, graceEndsAt);
      if (!row) return null;
      await repo.scheduleAccountDeletion(trx, row.user_id, graceEndsAt, now);
      await sessions.revokeAll(trx, row.user_id, 'account_deletion');
      const account = (await repo.findAccount(trx, row.user_id))!;
      await notify(trx, account, 'deletion_confirmed', { date: graceEndsAt.toISOString().slice(0, 10), reference: row.cancellation_token },
        graceEndsAt);
      await audit.record(event('account_deletion_confirmed', row.user_id, meta, { deletion_request_id: row.id }), trx);
      return row;
    });
    if (!confirmed) {
      const unconfirmed = await repo.findUnconfirmedByHash(db, hash);
      if (unconfirmed?.confirmation_expires_at) {
        throw new AppError('TOKEN_EXPIRED', { status: 410, message: 'The confirmation token has expired',
          extra: { expired_at: unconfirmed.confirmation_expires_at.toISOString() } });
      }
      throw new AppError('INVALID_TOKEN', { status: 400, message: 'Invalid or already used confirmation token' });
    }
    outbox.kick();
    return {
      message: 'Account deletion confirmed. Your account is deactivated until the grace period ends, then deleted.',
      deletion_confirmed: true,
      grace_period_ends: graceEndsAt.toISOString(),
      cancellation_instructions: `Until ${graceEndsAt.toISOString()}, sign in and call cancel-account-deletion/ with your password to keep your account.`,
    };
  }

  /**
   * POST cancel-account-deletion/: from any open state. A confirmed request's account is reactivated; a caller
   * holding a `deletion_pending` token gets a full-scope pair in place of it.
   */
  async function cancel(auth: AuthContext, password: string, meta: RequestMeta): Promise<CancelDeletionAnswer> {
    const account = await accountOf(auth.user.id);
    await provePassword(account, password, meta);
    const now = clock.now();
    const restricted = auth.claims.scope === 'deletion_pending';
    const done = await db.transaction().execute(async (trx) => {
      const cancelled = await repo.cancelOpenRequest(trx, account.id, now);
      if (!cancelled) return null;
      const reactivated = cancelled.previous_status === 'confirmed' && await repo.reactivateAccount(trx, account.id, now);
      // An account an administrator deactivated stays inactive: its `deletion_pending` session ends with nothing in place.
      const held = restricted && !reactivated;
      if (held) await sessions.endSession(trx, Number(auth.claims.sid), 'deletion_cancelled');
      const tokens = restricted && !held ? await sessions.reopenFull(trx, account, Number(auth.claims.sid), 'deletion_cancelled', meta) : null;
      await notify(trx, account, 'deletion_cancelled', { date: now.toISOString().slice(0, 10) }, addSeconds(now, DAY_SECONDS));
      await audit.record(event('account_deletion_cancelled', account.id, meta, { deletion_request_id: cancelled.id }), trx);
      return { reactivated, tokens };
    });
    if (!done) throw new AppError('NO_PENDING_DELETION');
    outbox.kick();
    return {
      message: 'Account deletion cancelled.',
      deletion_cancelled: true,
      account_reactivated: done.reactivated,
      cancellation_time: now.toISOString(),
      security_note: 'If you did not ask for this deletion, change your password and review your active sessions.',
      ...(done.tokens ? pairOf(done.tokens) : {}),
    };
  }

  /** GET account-deletion-status/: the open request (with whole days left) and every request of the account. */
  async function status(userId: number) {
    const now = clock.now();
    const rows = await repo.listRequestsOf(db, userId);
    const open = rows.find((r) => r.status === 'pending' || r.status === 'confirmation_sent' || r.status === 'confirmed');
    return {
      total_requests: rows.length,
      active_request: open ? {
        id: open.id, status: open.status, requested_at: toIso(open.requested_at)!, grace_period_ends_at: toIso(open.grace_period_ends_at)!,
        days_remaining: Math.max(0, Math.ceil((open.grace_period_ends_at.getTime() - now.getTime()) / (DAY_SECONDS * 1000))),
      } : null,
      history: rows.map((r) => ({
        id: r.id, status: r.status, requested_at: toIso(r.requested_at)!, confirmed_at: toIso(r.confirmed_at),
        completed_at: toIso(r.completed_at), reason: r.reason,
      })),
    };
  }

  return { request, confirm, cancel, status };
}

export type DeletionService = ReturnType<typeof createDeletionService>;
