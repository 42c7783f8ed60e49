// Public applications (docs/decisions.md "Public applications"): browser code identified by its key and origin, holding no secret.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table applications add column kind text not null default 'confidential'
    check (kind in ('confidential', 'public'))`.execute(db);
  await sql`alter table applications alter column secret_hash drop not null`.execute(db);
  // A confidential application always has a secret; a public one never has one.
  await sql`alter table applications add constraint applications_secret_by_kind
    check ((kind = 'confidential') = (secret_hash is not null))`.execute(db);
  // What `gatehouse seed` created and keeps up to date ('console'); null for an operator's application. Unique, so
  // instances seeding at once create it once.
  await sql`alter table applications add column builtin text unique`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from applications where kind = 'public'`.execute(db);
  await sql`alter table applications drop column if exists builtin`.execute(db);
  await sql`alter table applications drop constraint if exists applications_secret_by_kind`.execute(db);
  await sql`alter table applications alter column secret_hash set not null`.execute(db);
  await sql`alter table applications drop column if exists kind`.execute(db);
}
