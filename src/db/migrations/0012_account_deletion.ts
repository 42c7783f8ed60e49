// Account deletion requests (grace period, confirmation, admin processing) and the account's deletion mark.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Set while a confirmed request waits for its grace period to end: the account is inactive, yet it may sign in
  // with a `deletion_pending` token.
  await sql`alter table users add column deletion_scheduled_at timestamptz`.execute(db);
  await sql`
    create table account_deletion_requests (
      id bigint generated always as identity primary key,
      user_id bigint not null references users (id) on delete cascade,
      user_email text,
      status text not null default 'pending'
        check (status in ('pending', 'confirmation_sent', 'confirmed', 'completed', 'cancelled')),
      reason text,
      ip_address text,
      confirmation_hash text unique,
      confirmation_expires_at timestamptz,
      confirmation_message_id bigint,
      cancellation_token text not null unique,
      requested_at timestamptz not null default now(),
      confirmed_at timestamptz,
      grace_period_ends_at timestamptz not null,
      completed_at timestamptz,
      cancelled_at timestamptz,
      admin_notes text,
      processed_by bigint references users (id) on delete set null,
      attempts integer not null default 0,
      last_error text
    )`.execute(db);
  // One open request per account, enforced by the database (two parallel requests: one wins).
  await sql`create unique index account_deletion_requests_open_idx on account_deletion_requests (user_id)
    where status in ('pending', 'confirmation_sent', 'confirmed')`.execute(db);
  await sql`create index account_deletion_requests_user_idx on account_deletion_requests (user_id, requested_at)`.execute(db);
  await sql`create index account_deletion_requests_requested_idx on account_deletion_requests (requested_at)`.execute(db);
  await sql`create index account_deletion_requests_status_idx on account_deletion_requests (status, grace_period_ends_at)`.execute(db);
  // An account's whole history (export, anonymization) is read by user, ended sessions included (login attempts: 0013).
  await sql`create index sessions_user_created_idx on sessions (user_id, created_at)`.execute(db);
  // The audit rows by an account (as actor), whose origins the deletion blanks.
  await sql`create index audit_events_actor_idx on audit_events (actor_id, created_at) where actor_id is not null`.execute(db);
  await sql`create index account_deletion_requests_message_idx on account_deletion_requests (confirmation_message_id)
    where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists account_deletion_requests`.execute(db);
  await sql`drop index if exists audit_events_actor_idx`.execute(db);
  await sql`drop index if exists sessions_user_created_idx`.execute(db);
  await sql`alter table users drop column if exists deletion_scheduled_at`.execute(db);
}
