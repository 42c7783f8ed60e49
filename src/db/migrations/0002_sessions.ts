// Sign-in: sessions (refresh-token families), refresh tokens, the access-token blacklist, login attempts and lockouts of unknown identifiers.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sessions (
      id bigint generated always as identity primary key,
      user_id bigint not null references users (id) on delete cascade,
      application_id bigint references applications (id) on delete set null,
      device_id text not null,
      device_info text,
      device_summary text,
      ip_address text,
      user_agent text,
      created_at timestamptz not null default now(),
      last_used_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz,
      revoke_reason text
    )`.execute(db);
  await sql`create index sessions_user_active_idx on sessions (user_id) where revoked_at is null`.execute(db);

  await sql`
    create table refresh_tokens (
      id bigint generated always as identity primary key,
      session_id bigint not null references sessions (id) on delete cascade,
      user_id bigint not null references users (id) on delete cascade,
      application_id bigint references applications (id) on delete set null,
      token_hash text not null unique,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      last_used_at timestamptz,
      rotated_at timestamptz,
      replaced_by_id bigint references refresh_tokens (id) on delete set null,
      revoked_at timestamptz,
      ip_address text,
      device_info text
    )`.execute(db);
  await sql`create index refresh_tokens_session_idx on refresh_tokens (session_id)`.execute(db);
  await sql`create index refresh_tokens_user_idx on refresh_tokens (user_id, created_at)`.execute(db);

  await sql`
    create table token_blacklist (
      id bigint generated always as identity primary key,
      jti text not null unique,
      user_id bigint references users (id) on delete cascade,
      session_id bigint,
      reason text not null,
      blacklisted_at timestamptz not null default now(),
      expires_at timestamptz not null
    )`.execute(db);
  await sql`create index token_blacklist_expires_idx on token_blacklist (expires_at)`.execute(db);

  await sql`
    create table login_attempts (
      id bigint generated always as identity primary key,
      identifier text not null,
      method text not null,
      user_id bigint references users (id) on delete set null,
      ip_address text,
      application_id bigint references applications (id) on delete set null,
      success boolean not null,
      failure_reason text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index login_attempts_created_idx on login_attempts (created_at)`.execute(db);
  await sql`create index login_attempts_identifier_idx on login_attempts (identifier, created_at)`.execute(db);

  await sql`
    create table identifier_lockouts (
      identifier text primary key,
      failed_count integer not null default 0,
      lockout_count integer not null default 0,
      locked_until timestamptz,
      updated_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['identifier_lockouts', 'login_attempts', 'token_blacklist', 'refresh_tokens', 'sessions']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
