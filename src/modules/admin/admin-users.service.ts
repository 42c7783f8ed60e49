import { addSeconds, type Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { pageRequest } from '../../core/pagination.js';
import type { Db, Executor, RowUpdate } from '../../db/database.js';
import type { AuditService } from '../audit/audit.service.js';
import { auditOrigin, ownAccountRefusal, refusalFor, type Actor } from '../rbac/actor.js';
import { dateRange, orderOf } from '../../core/listing.js';
import type { RbacService } from '../rbac/rbac.service.js';
import type { SessionService } from '../sessions/sessions.service.js';
import type { TwoFactorService } from '../twofactor/twofactor.service.js';
import type { SecurityNoticeService } from '../users/security-notices.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.service.js';
import * as repo from './admin-users.repo.js';
import {
  toAdminUserDetail, toAdminUserSummary, type AdminUserListInput, type AdminUserPatch, type BanInput, type LockInput,
} from './admin-users.schemas.js';

type Deps = {
  db: Db; clock: Clock; audit: AuditService; rbac: RbacService; sessions: SessionService; events: WebhookEvents;
  twofactor: Pick<TwoFactorService, 'removeForReset'>; notices: Pick<SecurityNoticeService, 'twoFactorReset' | 'deliver'>;
};

/** Flags that only a superuser may change, and that nobody may change on their own account. */
const PRIVILEGE_FLAGS = ['is_staff', 'is_superuser'] as const;

/**
 * Administration of accounts: listing, editing, ban, lock and soft deletion. Taking access away (ban, lock,
 * deactivation, deletion) ends every session and invalidates every access token already issued. A superuser's
 * account is changed only by a superuser, and nobody bans, locks, deactivates or deletes their own account.
 */
export function createAdminUserService({ db, clock, audit, rbac, sessions, events, twofactor, notices }: Deps) {
  async function list(query: AdminUserListInput) {
    const page = pageRequest(query);
    const now = clock.now();
    const { rows, count } = await repo.listUsers(db, {
      search: query.search, isActive: query.is_active, isLocked: query.is_locked, isBanned: query.is_banned,
      isDeleted: query.is_deleted, isStaff: query.is_staff, isSuperuser: query.is_superuser, role: query.role,
      ...dateRange(query), now,
    }, orderOf<repo.AdminUserOrderColumn>(query.ordering, '-created_at'), page.pageSize, page.offset);
    const roles = await repo.roleCodesByUser(db, rows.map((r) => r.id));
    return { results: rows.map((r) => toAdminUserSummary(r, roles.get(r.id) ?? [], now)), count, page };
  }

  async function load(trx: Executor, id: number) {
    const user = await repo.findAdminUser(trx, id);
    if (!user) throw new AppError('NOT_FOUND');
    return user;
  }

  async function present(trx: Executor, id: number) {
    const user = await load(trx, id);
    return toAdminUserDetail(user, await rbac.grantsOf(user, trx), clock.now());
  }

  const get = (id: number) => present(db, id);

  /** The account an action targets, after the rules on superusers and on one's own account. */
  async function loadForChange(trx: Executor, actor: Actor, id: number, opts: { selfAllowed: boolean }) {
    const user = await load(trx, id);
    if (user.is_superuser && !actor.is_superuser) throw refusalFor(actor);
    if (!opts.selfAllowed && user.id === actor.id) throw ownAccountRefusal();
    return user;
  }

  /** PATCH admin/users/<id>/: `updated_fields` lists what changed; deactivation ends the account's sessions. */
  async function update(actor: Actor, id: number, input: AdminUserPatch) {
    return db.transaction().execute(async (trx) => {
      const user = await loadForChange(trx, actor, id, { selfAllowed: true });
      const changes: RowUpdate<'users'> = {};
      for (const field of ['first_name', 'last_name', 'must_change_password', 'is_active', 'is_staff', 'is_superuser',
        'max_sessions', 'max_devices'] as const) {
        const value = input[field];
        if (value !== undefined && value !== user[field]) (changes as Record<string, unknown>)[field] = value;
      }
      // An administrator's deactivation holds the account inactive until an administrator reactivates it: the deletion
      // flow never lifts it (docs/security.md "Account safety"). Asked again of an account already inactive, it still holds.
      const holds = input.is_active === false && user.admin_deactivated_at === null;
      const lifts = input.is_active === true && user.admin_deactivated_at !== null;
      if (holds || lifts) changes.is_active = input.is_active;
      const fields = Object.keys(changes);
      const privileged = PRIVILEGE_FLAGS.some((f) => f in changes);
      if (privileged && !actor.is_superuser) throw refusalFor(actor);
      if (user.id === actor.id && (privileged || 'is_active' in changes)) throw ownAccountRefusal();
      if (fields.length === 0) return { message: 'Nothing to update', updated_fields: [], user: await present(trx, id) };

      const now = clock.now();
      await repo.updateUser(trx, id, { ...changes, ...(holds ? { admin_deactivated_at: now } : lifts ? { admin_deactivated_at: null } : {}),
        updated_at: now });
      const deactivated = changes.is_active === false;
      const ended = deactivated ? await sessions.revokeAll(trx, id, 'deactivated') : null;
      await audit.record({ event_type: 'user_updated', severity: privileged || 'is_active' in changes ? 'warning' : 'info',
        user_id: id, ...auditOrigin(actor), details: { fields, ...(ended ? { sessions_revoked: ended.sessions } : {}) } }, trx);
      await events.emit(trx, 'user.updated', { user_id: id, email: user.email, changed_fields: fields, actor_id: actor.id }, id);
      return { message: 'User updated', updated_fields: fields, user: await present(trx, id) };
    });
  }

  /** DELETE admin/users/<id>/: a soft deletion (the row stays, for audit); repeating it changes nothing. */
  async function remove(actor: Actor, id: number) {
    await db.transaction().execute(async (trx) => {
      const user = await loadForChange(trx, actor, id, { selfAllowed: false });
      if (user.deleted_at !== null) return;
      const now = clock.now();
      await repo.updateUser(trx, id, { deleted_at: now, is_active: false, updated_at: now });
      const ended = await sessions.revokeAll(trx, id, 'deleted');
      await audit.record({ event_type: 'user_deleted', severity: 'warning', user_id: id, ...auditOrigin(actor),
        details: { sessions_revoked: ended.sessions } }, trx);
      await events.emit(trx, 'user.deleted', { user_id: id, anonymized: false, deleted_at: now.toISOString(), actor_id: actor.id }, id);
    });
    return { message: 'User deleted' };
  }

  async function ban(actor: Actor, id: number, input: BanInput) {
    return db.transaction().execute(async (trx) => {
      const user = await loadForChange(trx, actor, id, { selfAllowed: false });
      const now = clock.now();
      await repo.updateUser(trx, id, {
        is_banned: true, banned_at: user.banned_at ?? now, ban_reason: input.reason?.trim() || user.ban_reason, updated_at: now,
      });
      const ended = await sessions.revokeAll(trx, id, 'banned');
      await audit.record({ event_type: 'user_banned', severity: 'warning', user_id: id, ...auditOrigin(actor),
        details: { reason: input.reason ?? null, sessions_revoked: ended.sessions } }, trx);
      await events.emit(trx, 'user.banned', { user_id: id, email: user.email, reason: input.reason?.trim() || null,
        actor_id: actor.id });
      return { message: 'User banned', sessions_revoked: ended.sessions, user: await present(trx, id) };
    });
  }

  async function unban(actor: Actor, id: number) {
    return db.transaction().execute(async (trx) => {
      const user = await loadForChange(trx, actor, id, { selfAllowed: false });
      if (user.is_banned) {
        await repo.updateUser(trx, id, { is_banned: false, banned_at: null, ban_reason: null, updated_at: clock.now() });
        await audit.record({ event_type: 'user_unbanned', user_id: id, ...auditOrigin(actor) }, trx);
      }
      return { message: user.is_banned ? 'User unbanned' : 'User was not banned', user: await present(trx, id) };
    });
  }

  /** A lock for a set time (default 30 minutes): sign-in answers 423 ACCOUNT_LOCKED until it ends or is lifted. */
  async function lock(actor: Actor, id: number, input: LockInput) {
    return db.transaction().execute(async (trx) => {
      await loadForChange(trx, actor, id, { selfAllowed: false });
      const now = clock.now();
      const minutes = input.duration_minutes ?? 30;
      const lockedUntil = addSeconds(now, minutes * 60);
      await repo.updateUser(trx, id, { locked_until: lockedUntil, updated_at: now });
      const ended = await sessions.revokeAll(trx, id, 'locked');
      await audit.record({ event_type: 'user_locked', severity: 'warning', user_id: id, ...auditOrigin(actor),
        details: { duration_minutes: minutes, reason: input.reason ?? null, sessions_revoked: ended.sessions } }, trx);
      await events.emit(trx, 'user.locked', { user_id: id, locked_until: lockedUntil.toISOString(), reason: input.reason?.trim() || 'admin',
        actor_id: actor.id }, id);
      return { message: 'User locked', sessions_revoked: ended.sessions, user: await present(trx, id) };
    });
  }

  /** Lifts a lock, whether an administrator or failed sign-ins set it, and forgets the failure count. */
  async function unlock(actor: Actor, id: number) {
    return db.transaction().execute(async (trx) => {
      const user = await loadForChange(trx, actor, id, { selfAllowed: false });
      const wasLocked = user.locked_until !== null && user.locked_until > clock.now();
      await repo.updateUser(trx, id, { locked_until: null, failed_login_count: 0, lockout_count: 0, updated_at: clock.now() });
      if (wasLocked) await audit.record({ event_type: 'user_unlocked', user_id: id, ...auditOrigin(actor) }, trx);
      return { message: wasLocked ? 'User unlocked' : 'User was not locked', user: await present(trx, id) };
    });
  }

  /**
   * POST admin/users/<id>/reset-2fa/, and `gatehouse user reset-2fa` (no actor): for a person who lost their
   * authenticator and their backup codes. The secret and every backup code go, every session ends (a lost phone may
   * still hold one), the account is told, and its next sign-in needs the password alone — a staff account's meets the
   * administrators' 2FA gate and sets it up again. Nobody resets their own: `2fa/disable/` asks for a code.
   */
  async function resetTwoFactor(actor: Actor | null, id: number) {
    const answer = await db.transaction().execute(async (trx) => {
      if (actor) await loadForChange(trx, actor, id, { selfAllowed: false });
      else await load(trx, id);
      if (!(await twofactor.removeForReset(trx, id))) {
        return { message: 'Two-factor authentication was not set up', user: await present(trx, id) };
      }
      const ended = await sessions.revokeAll(trx, id, '2fa_reset');
      await audit.record({ event_type: '2fa_reset', severity: 'warning', user_id: id, ...(actor ? auditOrigin(actor) : {}),
        details: { by: actor ? 'administrator' : 'command_line', sessions_revoked: ended.sessions } }, trx);
      await events.emit(trx, '2fa.disabled', { user_id: id, actor_id: actor?.id ?? null });
      await notices.twoFactorReset(trx, id);
      return { message: 'Two-factor authentication reset', sessions_revoked: ended.sessions, user: await present(trx, id) };
    });
    notices.deliver();
    return answer;
  }

  /** The id of the account with this email (the command line names accounts by email). */
  const idByEmail = async (email: string) => (await repo.findUserIdByEmail(db, email))?.id;

  return { list, get, update, remove, ban, unban, lock, unlock, resetTwoFactor, idByEmail };
}

export type AdminUserService = ReturnType<typeof createAdminUserService>;
