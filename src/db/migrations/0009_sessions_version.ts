// A counter on the account that every new session bumps, so a login can open its session in one statement and still see every concurrent one.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column sessions_version bigint not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column if exists sessions_version`.execute(db);
}
