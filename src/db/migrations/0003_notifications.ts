// Outbox of emails and SMS: written in the transaction that creates the code or link they carry, delivered after commit.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table outbox_messages (
      id bigint generated always as identity primary key,
      channel text not null,
      recipient text not null,
      purpose text not null,
      language text not null default 'en',
      payload text not null,
      dedup_key text unique,
      status text not null default 'pending',
      attempts integer not null default 0,
      next_attempt_at timestamptz not null,
      locked_until timestamptz,
      expires_at timestamptz not null,
      last_error text,
      created_at timestamptz not null default now(),
      sent_at timestamptz
    )`.execute(db);
  await sql`create index outbox_messages_due_idx on outbox_messages (next_attempt_at) where status in ('pending', 'sending')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists outbox_messages`.execute(db);
}
