import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { Range } from './period.js';

/** Audit events of a range by type and severity (`audit_events_created_at_idx`). */
export async function auditEventCounts(db: Executor, range: Range) {
  const { rows } = await sql<{ event_type: string; severity: string; n: number }>`
    select event_type, severity, count(*)::int as n from audit_events
    where created_at >= ${range.from} and created_at < ${range.until} group by event_type, severity`.execute(db);
  return rows;
}

/** Failed sign-in attempts since `dayAgo` and since `weekAgo`, up to `until` (`login_attempts_failed_idx`). */
export async function failedAttempts(db: Executor, dayAgo: Date, weekAgo: Date, until: Date) {
  const { rows } = await sql<{ last_24h: number; last_7d: number }>`
    select (count(*) filter (where created_at >= ${dayAgo}))::int as last_24h, count(*)::int as last_7d
    from login_attempts where not success and created_at >= ${weekAgo} and created_at < ${until}`.execute(db);
  return rows[0]!;
}

/** The addresses with the most failed attempts in a range, the most first (ties: by address). */
export async function topFailingAddresses(db: Executor, range: Range, limit: number) {
  const { rows } = await sql<{ ip_address: string; events: number }>`
    select ip_address, count(*)::int as events from login_attempts
    where not success and created_at >= ${range.from} and created_at < ${range.until} and ip_address is not null
    group by ip_address order by events desc, ip_address limit ${limit}`.execute(db);
  return rows;
}

/** Accounts not deleted that are locked now, banned, or with 2FA on (each a partial index of its own). */
export async function accountFlags(db: Executor, now: Date) {
  const { rows } = await sql<{ locked: number; banned: number; with_2fa: number }>`
    select
      (select count(*) from users where locked_until > ${now} and deleted_at is null)::int as locked,
      (select count(*) from users where is_banned and deleted_at is null)::int as banned,
      (select count(*) from users where is_2fa_enabled and deleted_at is null)::int as with_2fa`.execute(db);
  return rows[0]!;
}

/** Audit events of the given types in a range (`audit_events_type_idx`). */
export async function eventCount(db: Executor, types: readonly string[], range: Range): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from audit_events
    where event_type in (${sql.join([...types])}) and created_at >= ${range.from} and created_at < ${range.until}`.execute(db);
  return rows[0]?.n ?? 0;
}

export const blacklistedTokens = async (db: Executor, now: Date): Promise<number> =>
  (await sql<{ n: number }>`select count(*)::int as n from token_blacklist where expires_at > ${now}`.execute(db)).rows[0]?.n ?? 0;
