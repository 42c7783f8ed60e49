import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { AccountCountRow, Counts, IncidentCountRow, LoginCountRow } from './counts.js';
import type { Range } from './period.js';

/** The accounts an organization's figures count: its active members. */
export const membersOf = (organizationId: number) =>
  sql`(select user_id from organization_members where organization_id = ${organizationId} and status = 'active')`;

/** `and <column> in (members)` for an organization's figures; nothing otherwise. */
export const onlyMembers = (column: string, organizationId: number | undefined): RawBuilder<unknown> =>
  (organizationId === undefined ? sql`` : sql`and ${sql.ref(column)} in ${membersOf(organizationId)}`);

/** Rows are counted by UTC hour (to close hours) or by UTC day (to read a range at once). */
export type Bucket = 'hour' | 'day';

/** The start of a timestamp's UTC hour or day, in ISO 8601. */
const bucketOf = (column: string, unit: Bucket) =>
  sql`to_char(date_trunc(${unit}, ${sql.ref(column)} at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/** `login_attempts.method` as `login_by_method` names it: a password sign-in with a phone number (E.164) is `phone_password`. */
const METHOD_KEY = sql`case when method = 'password' and identifier like '+%' then 'phone_password' else method end`;

/**
 * Sign-in attempts of a range by bucket, counted three ways in one pass (grouping sets): by outcome and method, by
 * outcome and failure reason, by outcome and application. Reads the range of `login_attempts_created_idx` (an
 * organization's: each member's range of `login_attempts_user_idx`).
 */
export async function loginCounts(db: Executor, range: Range, unit: Bucket, organizationId?: number): Promise<LoginCountRow[]> {
  const { rows } = await sql<{ bucket: string; success: boolean; method: string | null; reason: string | null; app: string | null; g: number; n: number }>`
    select bucket, success, method, failure_reason as reason, application_id::text as app,
      grouping(method, failure_reason, application_id) as g, count(*)::int as n
    from (
      select ${bucketOf('created_at', unit)} as bucket, success, ${METHOD_KEY} as method, failure_reason, application_id
      from login_attempts where created_at >= ${range.from} and created_at < ${range.until} ${onlyMembers('user_id', organizationId)}
    ) a
    group by grouping sets ((bucket, success, method), (bucket, success, failure_reason), (bucket, success, application_id))`.execute(db);
  // grouping(): a bit set for each column rolled up, the first column the highest bit.
  return rows.map((r) => r.g === 3 ? { bucket: r.bucket, kind: 'method', success: r.success, key: r.method, n: r.n }
    : r.g === 5 ? { bucket: r.bucket, kind: 'reason', success: r.success, key: r.reason, n: r.n }
      : { bucket: r.bucket, kind: 'application', success: r.success, key: r.app, n: r.n });
}

/** Accounts created and accounts deleted in a range, by bucket (`users_created_at_idx`, `users_deleted_at_idx`). */
export async function accountCounts(db: Executor, range: Range, unit: Bucket, organizationId?: number): Promise<AccountCountRow[]> {
  const { rows } = await sql<AccountCountRow>`
    select bucket, sum(registered)::int as registered, sum(deleted)::int as deleted from (
      select ${bucketOf('created_at', unit)} as bucket, 1 as registered, 0 as deleted from users
      where created_at >= ${range.from} and created_at < ${range.until} ${onlyMembers('id', organizationId)}
      union all
      select ${bucketOf('deleted_at', unit)}, 0, 1 from users
      where deleted_at >= ${range.from} and deleted_at < ${range.until} ${onlyMembers('id', organizationId)}
    ) a group by bucket`.execute(db);
  return rows;
}

/**
 * Security incidents: an account locked by failed attempts, a refresh token presented again after rotation, an agent
 * token suspended by its breakers (an owner's own suspension is a decision, not an incident).
 */
export const INCIDENT_EVENTS = ['account_locked', 'refresh_token_reuse', 'agent_token_suspended'] as const;

/** Security incidents of a range by bucket (`audit_events_type_idx`; an organization's: `audit_events_user_idx`). */
export async function incidentCounts(db: Executor, range: Range, unit: Bucket, organizationId?: number): Promise<IncidentCountRow[]> {
  const { rows } = await sql<IncidentCountRow>`
    select ${bucketOf('created_at', unit)} as bucket, count(*)::int as n from audit_events
    where event_type in (${sql.join([...INCIDENT_EVENTS])}) and not (event_type = 'agent_token_suspended' and details->>'reason' = 'MANUAL')
      and created_at >= ${range.from} and created_at < ${range.until} ${onlyMembers('user_id', organizationId)}
    group by 1`.execute(db);
  return rows;
}

const asDate = (value: Date | string | null | undefined): Date | null => (value ? new Date(value) : null);

/** The start of the last closed hour, or null before the first hour is closed. */
export async function lastClosedHour(db: Executor): Promise<Date | null> {
  const { rows } = await sql<{ at: Date | string | null }>`select max(starts_at) as at from dashboard_counts where hours = 1`.execute(db);
  return asDate(rows[0]?.at);
}

/** When the first account was created or the first sign-in attempted (both columns indexed), or null on an empty database. */
export async function firstActivity(db: Executor): Promise<Date | null> {
  const { rows } = await sql<{ at: Date | string | null }>`
    select least((select min(created_at) from users), (select min(created_at) from login_attempts)) as at`.execute(db);
  return asDate(rows[0]?.at);
}

// An arbitrary constant naming the closing of dashboard hours among the application's advisory locks.
const CLOSING_LOCK = 0x64617368;

/** One closer at a time across instances; the others go on with the hours already closed. */
export async function tryLockClosing(trx: Executor): Promise<boolean> {
  const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${CLOSING_LOCK}) as locked`.execute(trx);
  return rows[0]?.locked === true;
}

export interface StoredCounts {
  starts_at: string;
  hours: 1 | 24;
  counts: Counts;
}

export const insertCounts = (trx: Executor, rows: StoredCounts[]) =>
  sql`insert into dashboard_counts (starts_at, hours, counts)
    select r.starts_at::timestamptz, r.hours, r.counts
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(starts_at text, hours smallint, counts jsonb)`.execute(trx);

/** The closed hours from `from` (inclusive) to `until` (exclusive). */
export async function hourCounts(db: Executor, range: Range): Promise<StoredCounts[]> {
  const { rows } = await sql<StoredCounts>`
    select ${bucketOf('starts_at', 'hour')} as starts_at, hours, counts from dashboard_counts
    where hours = 1 and starts_at >= ${range.from} and starts_at < ${range.until}`.execute(db);
  return rows;
}

/** Closed whole days from `from` to `daysUntil`, then closed hours from there to `hoursUntil` (each bound exclusive). */
export async function closedCounts(db: Executor, from: Date, daysUntil: Date, hoursUntil: Date): Promise<StoredCounts[]> {
  const { rows } = await sql<StoredCounts>`
    select to_char(starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as starts_at, hours, counts from dashboard_counts
    where (hours = 24 and starts_at >= ${from} and starts_at < ${daysUntil})
      or (hours = 1 and starts_at >= ${daysUntil} and starts_at < ${hoursUntil})`.execute(db);
  return rows;
}

/**
 * Moves the accounts that signed in during `range` (closed hours) to the last hour they did: first out of the hour they
 * were counted on, then into the new one, and records that hour as theirs.
 */
export async function moveLastSignIns(trx: Executor, range: Range): Promise<void> {
  const signedIn = sql`select user_id, max(date_trunc('hour', created_at at time zone 'UTC')) at time zone 'UTC' as hour from login_attempts
    where success and user_id is not null and created_at >= ${range.from} and created_at < ${range.until} group by user_id`;
  await sql`
    update dashboard_counts c set last_sign_ins = c.last_sign_ins - m.n
    from (select l.hour, count(*)::int as n from dashboard_last_sign_ins l join (${signedIn}) s using (user_id) group by l.hour) m
    where c.hours = 1 and c.starts_at = m.hour`.execute(trx);
  await sql`
    with latest as (${signedIn}),
    recorded as (
      insert into dashboard_last_sign_ins (user_id, hour) select user_id, hour from latest
      on conflict (user_id) do update set hour = excluded.hour)
    update dashboard_counts c set last_sign_ins = c.last_sign_ins + m.n
    from (select hour, count(*)::int as n from latest group by hour) m where c.hours = 1 and c.starts_at = m.hour`.execute(trx);
}

/**
 * Accounts created less accounts deleted over every closed hour: the whole days' rows, and the hours of the days
 * after the last whole one.
 */
export async function closedNetAccounts(db: Executor): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select (coalesce(sum((counts->>'registered')::bigint), 0) - coalesce(sum((counts->>'deleted')::bigint), 0))::int as n from (
      select counts from dashboard_counts where hours = 24
      union all
      select counts from dashboard_counts where hours = 1
        and starts_at >= coalesce((select max(starts_at) from dashboard_counts where hours = 24) + interval '24 hours', '-infinity')
    ) c`.execute(db);
  return rows[0]?.n ?? 0;
}

/** Accounts whose last closed sign-in falls in `range` (closed hours). */
export async function lastSignInsDuring(db: Executor, range: Range): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select coalesce(sum(last_sign_ins), 0)::int as n from dashboard_counts
    where hours = 1 and starts_at >= ${range.from} and starts_at < ${range.until}`.execute(db);
  return rows[0]?.n ?? 0;
}

/** Accounts that signed in during `range` and not in a closed hour from `since` on (nor ever, as far as closed hours tell). */
export async function newlySignedIn(db: Executor, range: Range, since: Date): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from (
      select distinct user_id from login_attempts
      where success and user_id is not null and created_at >= ${range.from} and created_at < ${range.until}
    ) a
    where not exists (select 1 from dashboard_last_sign_ins l where l.user_id = a.user_id and l.hour >= ${since})`.execute(db);
  return rows[0]?.n ?? 0;
}

/** Accounts with a successful sign-in in `range`, counted on the attempts themselves (an organization's: its members'). */
export async function signedInDuring(db: Executor, range: Range, organizationId?: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(distinct user_id)::int as n from login_attempts
    where success and user_id is not null and created_at >= ${range.from} and created_at < ${range.until}
      ${onlyMembers('user_id', organizationId)}`.execute(db);
  return rows[0]?.n ?? 0;
}
