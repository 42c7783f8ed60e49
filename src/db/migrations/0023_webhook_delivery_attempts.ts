// Webhook deliveries keep each attempt (time, status code or error, duration), not only the last one (issue 30).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webhook_delivery_attempts (
      delivery_id bigint not null references webhook_deliveries (id) on delete cascade,
      attempt integer not null,
      attempted_at timestamptz not null,
      status_code integer,
      error text,
      duration_ms integer not null,
      primary key (delivery_id, attempt)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists webhook_delivery_attempts`.execute(db);
}
