import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { Range } from './period.js';

/** Deletion requests by status (a small table). */
export async function deletionRequestsByStatus(db: Executor) {
  const { rows } = await sql<{ status: string; n: number }>`
    select status, count(*)::int as n from account_deletion_requests group by status`.execute(db);
  return rows;
}

/** Confirmed requests whose grace period ends within `range` (`account_deletion_requests_status_idx`). */
export async function graceEndingBetween(db: Executor, range: Range): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from account_deletion_requests
    where status = 'confirmed' and grace_period_ends_at >= ${range.from} and grace_period_ends_at < ${range.until}`.execute(db);
  return rows[0]?.n ?? 0;
}

/** `data_exported` audit events since `dayStart` and since `monthStart`, up to `until` (`audit_events_type_idx`). */
export async function exportCounts(db: Executor, dayStart: Date, monthStart: Date, until: Date) {
  const { rows } = await sql<{ today: number; this_month: number }>`
    select (count(*) filter (where created_at >= ${dayStart}))::int as today, count(*)::int as this_month from audit_events
    where event_type = 'data_exported' and created_at >= ${monthStart} and created_at < ${until}`.execute(db);
  return rows[0]!;
}
