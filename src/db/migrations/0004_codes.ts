// One-time codes: only an HMAC of each code is stored, bound to one account, one purpose and the address it was sent to.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table otp_codes (
      id uuid primary key,
      user_id bigint not null references users (id) on delete cascade,
      purpose text not null,
      channel text not null,
      recipient text not null,
      code_hmac text not null,
      attempts integer not null default 0,
      expires_at timestamptz not null,
      consumed_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index otp_codes_user_purpose_idx on otp_codes (user_id, purpose) where consumed_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists otp_codes`.execute(db);
}
