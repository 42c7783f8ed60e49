// Dashboard: the indexes its counts read, and the tables that keep each closed UTC hour's and day's counts once computed.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Live sessions and live refresh tokens by expiry: active_sessions, active_refresh_tokens and expired_today count
  // a range of these partial indexes without reading the tables.
  await sql`create index sessions_live_expiry_idx on sessions (expires_at) where revoked_at is null`.execute(db);
  await sql`create index refresh_tokens_live_expiry_idx on refresh_tokens (expires_at)
    where revoked_at is null and rotated_at is null`.execute(db);
  // An organization's figures read its members' attempts, member by member.
  await sql`create index login_attempts_user_idx on login_attempts (user_id, created_at) include (success)
    where user_id is not null`.execute(db);
  // Suspicious activity: the failed attempts of the last days and their addresses.
  await sql`create index login_attempts_failed_idx on login_attempts (created_at) include (ip_address) where not success`.execute(db);
  // Deleted accounts by day (total_users), and the few locked, banned or 2FA accounts, without a pass over all users.
  await sql`create index users_deleted_at_idx on users (deleted_at) where deleted_at is not null`.execute(db);
  await sql`create index users_locked_idx on users (locked_until) where locked_until is not null and deleted_at is null`.execute(db);
  await sql`create index users_banned_idx on users (id) where is_banned and deleted_at is null`.execute(db);
  await sql`create index users_2fa_idx on users (id) where is_2fa_enabled and deleted_at is null`.execute(db);

  // One row per closed UTC hour (`hours` 1) and one per UTC day whose hours are all closed (`hours` 24): its sign-in,
  // registration, deletion and incident counts, computed once after it ended. On hour rows, `last_sign_ins` counts the
  // accounts whose last sign-in, as far as the closed hours tell, fell in that hour (updated as they sign in again).
  await sql`
    create table dashboard_counts (
      starts_at timestamptz not null,
      hours smallint not null check (hours in (1, 24)),
      counts jsonb not null,
      last_sign_ins integer not null default 0,
      primary key (hours, starts_at)
    )`.execute(db);
  // Each account's last closed hour with a successful sign-in: what moves an account between hours above.
  await sql`
    create table dashboard_last_sign_ins (
      user_id bigint primary key,
      hour timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists dashboard_last_sign_ins`.execute(db);
  await sql`drop table if exists dashboard_counts`.execute(db);
  for (const index of ['users_2fa_idx', 'users_banned_idx', 'users_locked_idx', 'users_deleted_at_idx', 'login_attempts_failed_idx',
    'login_attempts_user_idx', 'refresh_tokens_live_expiry_idx', 'sessions_live_expiry_idx']) {
    await sql`drop index if exists ${sql.id(index)}`.execute(db);
  }
}
