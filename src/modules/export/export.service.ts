import type { Config } from '../../config/settings.js';
import type { Clock } from '../../core/clock.js';
import { toIso } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { RETENTION } from '../../core/retention.js';
import type { Db, Executor, Trx } from '../../db/database.js';
import { toLoginAttempt } from '../admin/security.schemas.js';
import type { AgentTokenRecordBody } from '../agents/agent-tokens.schemas.js';
import type { AuditService } from '../audit/audit.service.js';
import type { LockoutService } from '../auth/lockout.service.js';
import type { RequestMeta } from '../../core/request-meta.js';
import type { RbacService } from '../rbac/rbac.service.js';
import type { PasswordVerifier } from '../users/password-verifier.js';
import * as repo from './export.repo.js';
import {
  toAuditLog, toDeletionRequest, toMembership, toPasskey, toPermission, toRole, toSocialAccount, toUserInfo, type ExportResponseBody,
} from './export.schemas.js';
import { applicationIdsOf, applicationsOf, devicesOf, toSession } from './session-history.js';

type Deps = {
  db: Db; clock: Clock; config: Pick<Config, 'ACCOUNT_DELETION_GRACE_PERIOD_DAYS' | 'PURGE_IP_ON_DELETION'>;
  verifyPassword: PasswordVerifier['verify']; audit: AuditService; lockout: LockoutService; rbac: RbacService;
  /** Audit rows still queued (agent requests' `agent_action` rows): written before the export reads the trail. */
  pendingAudit?: { flush(): Promise<void> };
  /** The person's agent tokens as their records show them (the agents module's). */
  agentTokenRecords: (db: Executor, userId: number) => Promise<AgentTokenRecordBody[]>;
};

/** The most recent records of the long lists that are exported; export_metadata says when older ones were left out. */
export const EXPORT_LIMITS = { auditLogs: 1000, loginAttempts: 1000 } as const;

/** The newest `limit` rows of a list read with one row more, and whether there were more. */
const capped = <T>(rows: T[], limit: number) => ({ rows: rows.slice(0, limit), truncated: rows.length > limit });

/** POST export-user-data/ (docs/privacy.md "Personal-data export"). */
export function createExportService({ db, clock, config, verifyPassword, audit, lockout, rbac, pendingAudit, agentTokenRecords }: Deps) {
  const wrongPassword = (message: string) => AppError.validation({ password: [message] });

  /**
   * The password, checked like a login: a lock answers 423 and every wrong password counts toward it (docs/authentication.md
   * "Lockout and audit": every check of a password counts), so a stolen access token cannot be used to guess it.
   */
  async function provePassword(userId: number, password: string, meta: RequestMeta): Promise<void> {
    const account = await repo.findProofState(db, userId);
    if (!account) throw new AppError('UNAUTHORIZED');
    // Nothing to guess on an account without a password: refused, not counted.
    if (!account.has_usable_password || !account.password_hash) {
      throw wrongPassword('This account has no password: set one (password/set-initial/) before exporting its data.');
    }
    const target = { userId, lockedUntil: account.locked_until };
    await lockout.assertNotLocked(target);
    if (await verifyPassword(account, password)) return;
    await audit.record({ event_type: 'data_export_failed', severity: 'warning', user_id: userId,
      application_id: meta.applicationId, ip_address: meta.ip, user_agent: meta.userAgent, request_id: meta.requestId,
      details: { reason: 'invalid_password' } });
    await lockout.recordFailure(target, meta);
    throw wrongPassword('Password is incorrect.');
  }

  const retentionPolicy = () => ({
    description: `The account and its data are kept until the account is deleted. A confirmed deletion request waits `
      + `${config.ACCOUNT_DELETION_GRACE_PERIOD_DAYS} days, then the account is anonymized and its sessions, tokens, `
      + `memberships and second factors are removed. Ended sessions are removed ${RETENTION.sessionsDays} days after they end, `
      + `login attempts after ${RETENTION.loginAttemptsDays} days. Audit events are kept after deletion, tied to the `
      + `anonymized account${config.PURGE_IP_ON_DELETION ? ', their IP addresses blanked' : ''}.`,
    deletion_grace_period_days: config.ACCOUNT_DELETION_GRACE_PERIOD_DAYS,
    ended_sessions_days: RETENTION.sessionsDays,
    login_attempts_days: RETENTION.loginAttemptsDays,
    audit_ip_addresses_purged_on_deletion: config.PURGE_IP_ON_DELETION,
  });

  /** Everything stored about the account, read in one snapshot. */
  async function collect(trx: Trx, userId: number, now: Date): Promise<ExportResponseBody | undefined> {
    const user = await repo.findUserInfo(trx, userId);
    if (!user) return undefined;
    const grants = await rbac.grantsOf(user, trx);
    const roles = await repo.listRoles(trx, userId);
    const permissions = await repo.listPermissions(trx, userId, grants.permissions);
    const sessions = await repo.listSessions(trx, userId);
    const names = new Map((await repo.findApplicationNames(trx, applicationIdsOf(sessions))).map((a) => [a.id, a.name]));
    const auditLogs = capped(await repo.listAuditEvents(trx, userId, EXPORT_LIMITS.auditLogs + 1), EXPORT_LIMITS.auditLogs);
    const attempts = capped(await repo.listLoginAttempts(trx, userId, EXPORT_LIMITS.loginAttempts + 1), EXPORT_LIMITS.loginAttempts);
    const memberships = await repo.listMemberships(trx, userId);
    const passkeys = await repo.listPasskeys(trx, userId);
    const socialAccounts = await repo.listSocialAccounts(trx, userId);
    const agentTokens = await agentTokenRecords(trx, userId);
    const deletionRequests = await repo.listDeletionRequests(trx, userId);

    const lists = {
      roles: roles.map(toRole),
      permissions: permissions.map(toPermission),
      applications: applicationsOf(sessions, names, now),
      audit_logs: auditLogs.rows.map((e) => toAuditLog(e, userId)),
      sessions: sessions.map((s) => toSession(s, now)),
      devices: devicesOf(sessions, now),
      login_attempts: attempts.rows.map(toLoginAttempt),
      organizations: memberships.map(toMembership),
      passkeys: passkeys.map(toPasskey),
      social_accounts: socialAccounts.map(toSocialAccount),
      agent_tokens: agentTokens,
      deletion_requests: deletionRequests.map(toDeletionRequest),
    };
    return {
      user_info: toUserInfo(user),
      ...lists,
      export_metadata: {
        exported_at: toIso(now)!,
        export_format: 'json',
        total_records: 1 + Object.values(lists).reduce((n, list) => n + list.length, 0),
        data_retention_policy: retentionPolicy(),
        record_limits: {
          audit_logs: { limit: EXPORT_LIMITS.auditLogs, truncated: auditLogs.truncated },
          login_attempts: { limit: EXPORT_LIMITS.loginAttempts, truncated: attempts.truncated },
        },
      },
    };
  }

  /**
   * POST export-user-data/: the password first, then every list read in one repeatable-read transaction (one consistent
   * snapshot) that also writes the `data_exported` audit row, so no export leaves without its record. That row is written
   * whatever SVC_AUDIT_LOGGING_ENABLED says: it is the record of a personal-data disclosure, counted by dashboard/gdpr/.
   */
  async function exportData(userId: number, password: string, meta: RequestMeta): Promise<ExportResponseBody> {
    await provePassword(userId, password, meta);
    await pendingAudit?.flush();
    const now = clock.now();
    return db.transaction().setIsolationLevel('repeatable read').execute(async (trx) => {
      const data = await collect(trx, userId, now);
      if (!data) throw new AppError('UNAUTHORIZED');
      await audit.recordAlways({ event_type: 'data_exported', user_id: userId,
        application_id: meta.applicationId, ip_address: meta.ip, user_agent: meta.userAgent, request_id: meta.requestId,
        details: { total_records: data.export_metadata.total_records } }, trx);
      return data;
    });
  }

  return { exportData };
}

export type ExportService = ReturnType<typeof createExportService>;
