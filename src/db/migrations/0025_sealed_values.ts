// A check value sealed with the current encryption key, proving at start-up that the key opens what is stored, and the
// backup-code key sealed with it, so that changing the encryption key keeps every backup code working.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sealed_values (
      name text primary key,
      sealed text not null,
      updated_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists sealed_values`.execute(db);
}
