// Two-factor authentication: the sealed TOTP secret (pending during setup, active once confirmed), the last accepted time step, and hashed single-use backup codes.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table totp_credentials (
      user_id bigint primary key references users (id) on delete cascade,
      secret_sealed text,
      pending_secret_sealed text,
      last_step bigint,
      confirmed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table backup_codes (
      id bigint generated always as identity primary key,
      user_id bigint not null references users (id) on delete cascade,
      code_hash text not null,
      created_at timestamptz not null default now(),
      consumed_at timestamptz
    )`.execute(db);
  await sql`create unique index backup_codes_user_hash_idx on backup_codes (user_id, code_hash)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists backup_codes`.execute(db);
  await sql`drop table if exists totp_credentials`.execute(db);
}
