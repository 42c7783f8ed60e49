import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../db/database.js';
import { membersOf, onlyMembers } from './daily-counts.repo.js';

const count = async (db: Executor, query: RawBuilder<{ n: number }>) => (await query.execute(db)).rows[0]?.n ?? 0;

/** Sessions neither revoked nor expired (`sessions_live_expiry_idx`). */
export const activeSessions = (db: Executor, now: Date, organizationId?: number) => count(db, sql<{ n: number }>`
  select count(*)::int as n from sessions where revoked_at is null and expires_at > ${now} ${onlyMembers('user_id', organizationId)}`);

/** Deletion requests still open: pending, confirmation sent, or confirmed and waiting for the grace period to end. */
export const pendingDeletions = (db: Executor, organizationId?: number) => count(db, sql<{ n: number }>`
  select count(*)::int as n from account_deletion_requests
  where status in ('pending', 'confirmation_sent', 'confirmed') ${onlyMembers('user_id', organizationId)}`);

/** Every organization, or an organization with its sub-organizations at any depth. */
export const organizationCount = (db: Executor, organizationId?: number) => count(db, organizationId === undefined
  ? sql<{ n: number }>`select count(*)::int as n from organizations`
  : sql<{ n: number }>`select count(*)::int as n from organizations
      where id = ${organizationId} or ancestor_ids @> array[${organizationId}]::bigint[]`);

export const applicationCount = (db: Executor) => count(db, sql<{ n: number }>`select count(*)::int as n from applications`);

/** An organization's active members whose account is not deleted. */
export const memberAccounts = (db: Executor, organizationId: number) => count(db, sql<{ n: number }>`
  select count(*)::int as n from users where deleted_at is null and id in ${membersOf(organizationId)}`);
