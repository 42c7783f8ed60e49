import type { Config } from '../../config/settings.js';
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Db, Executor } from '../../db/database.js';
import type { AuditService } from '../audit/audit.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.service.js';
import * as repo from './lockout.repo.js';

type Deps = { db: Db; clock: Clock; config: Config; audit: AuditService; events: WebhookEvents };

/** Who a failure is counted against: the account, or — when no account matches — the identifier typed. */
export type LockTarget = { userId: number; lockedUntil: Date | null } | { identifier: string };

const MAX_LOCK_SECONDS = 24 * 3600;

/**
 * How a 423 says when to come back: `retry_after` in seconds (docs/decisions.md), or — where the API asks for it,
 * as on login/otp/verify/ — the time the lock ends, as an ISO 8601 timestamp.
 */
export interface LockErrorOptions {
  retryAfter?: 'seconds' | 'timestamp';
}

/**
 * Progressive lockout (docs/decisions.md "Sign-in"): every failed password or second-factor check counts;
 * at the threshold the account locks for the preset duration, doubling on each repeat up to 24 h. Unknown
 * identifiers are counted the same way, so a 423 says nothing about whether the account exists.
 */
export function createLockoutService({ db, clock, config, audit, events }: Deps) {
  const enabled = () => config.ACCOUNT_LOCKOUT_ENABLED;

  const lockedError = (until: Date, opts: LockErrorOptions = {}) => new AppError('ACCOUNT_LOCKED', {
    extra: { retry_after: opts.retryAfter === 'timestamp' ? until.toISOString()
      : Math.max(1, Math.ceil((until.getTime() - clock.now().getTime()) / 1000)) },
  });

  /**
   * Throws 423 ACCOUNT_LOCKED while the target is locked. An account locked by an administrator stays locked
   * even when automatic lockout is switched off; identifier counters exist only with lockout on.
   */
  async function assertNotLocked(target: LockTarget, opts: LockErrorOptions = {}): Promise<void> {
    if (!enabled() && !('userId' in target)) return;
    const until = 'userId' in target ? target.lockedUntil : (await repo.findIdentifierLock(db, target.identifier))?.locked_until ?? null;
    if (until && until > clock.now()) throw lockedError(until, opts);
  }

  const lockOf = async (target: LockTarget, trx: Executor = db) => ('userId' in target
    ? await repo.findUserLock(trx, target.userId) : await repo.findIdentifierLock(trx, target.identifier))?.locked_until ?? null;

  /** Counts a failure; when it reaches the threshold the target locks and 423 is thrown. */
  async function recordFailure(target: LockTarget, meta: { ip: string | null; applicationId: number | null },
    opts: LockErrorOptions = {}): Promise<void> {
    if (!enabled()) return;
    const now = clock.now();
    const policy = { threshold: config.MAX_LOGIN_ATTEMPTS, baseSeconds: config.LOCKOUT_DURATION, maxSeconds: MAX_LOCK_SECONDS };
    // The lock and its `user.locked` event commit together (a transaction only when a webhook wants the event).
    const counted = 'userId' in target ? await events.atomically('user.locked', async (trx) => {
      const row = await repo.countUserFailure(trx, target.userId, now, policy);
      if (row?.locked_until && row.locked_until > now) {
        await events.emit(trx, 'user.locked', { user_id: target.userId, locked_until: row.locked_until.toISOString(),
          reason: 'failed_attempts', actor_id: null }, target.userId);
      }
      return row;
    }) : await repo.countIdentifierFailure(db, target.identifier, now, policy);
    if (!counted) {
      // A concurrent attempt locked the target while this one was being checked: it answers as locked too,
      // rather than as one more wrong password.
      const until = await lockOf(target);
      if (until && until > now) throw lockedError(until, opts);
      return;
    }
    const until = counted.locked_until;
    if (!until || until <= now) return;
    await audit.record({ event_type: 'account_locked', severity: 'warning', user_id: 'userId' in target ? target.userId : null,
      application_id: meta.applicationId, ip_address: meta.ip,
      details: { locked_seconds: Math.round((until.getTime() - now.getTime()) / 1000) } });
    throw lockedError(until, opts);
  }

  /** The 423 for an account found locked when its login completes (a concurrent failure locked it meanwhile). */
  async function lockedErrorOf(userId: number, trx: Executor = db, opts: LockErrorOptions = {}): Promise<AppError> {
    return lockedError((await lockOf({ userId, lockedUntil: null }, trx)) ?? clock.now(), opts);
  }

  return { enabled, assertNotLocked, recordFailure, lockedError, lockedErrorOf };
}

export type LockoutService = ReturnType<typeof createLockoutService>;
