// Webhooks (issue 19): subscriptions with a sealed signing secret, and the outbox of their deliveries.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webhooks (
      id bigint generated always as identity primary key,
      url text not null,
      description text not null default '',
      events jsonb not null default '[]',
      is_active boolean not null default true,
      secret_sealed text not null,
      created_by bigint references users (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table webhook_deliveries (
      id bigint generated always as identity primary key,
      webhook_id bigint not null references webhooks (id) on delete cascade,
      event_id text not null,
      type text not null,
      payload jsonb not null,
      user_id bigint,
      status text not null default 'pending' check (status in ('pending', 'sending', 'delivered', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      locked_until timestamptz,
      last_status_code integer,
      last_error text,
      replay_of bigint references webhook_deliveries (id) on delete set null,
      created_at timestamptz not null,
      delivered_at timestamptz
    )`.execute(db);
  await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at)
    where status in ('pending', 'sending')`.execute(db);
  await sql`create index webhook_deliveries_webhook_idx on webhook_deliveries (webhook_id, id)`.execute(db);
  await sql`create index webhook_deliveries_user_idx on webhook_deliveries (user_id) where user_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists webhook_deliveries`.execute(db);
  await sql`drop table if exists webhooks`.execute(db);
}
