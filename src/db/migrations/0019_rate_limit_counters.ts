// Several instances (issue 20): rate-limit counters shared through PostgreSQL when Redis is not configured or is down.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Unlogged: a counter lost in a crash only forgets part of a window, and the table takes a write per limited request.
  await sql`
    create unlogged table rate_limit_counters (
      key text primary key,
      count integer not null,
      window_ends timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists rate_limit_counters`.execute(db);
}
