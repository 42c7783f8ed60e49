// Signing keys gain a purpose: the OpenID Provider's RS256 keys ('oauth') are kept beside the access-token keys, one
// signing key per purpose (docs/resource-servers.md "The OpenID Provider's keys").
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table signing_keys add column purpose text not null default 'access'
    constraint signing_keys_purpose_check check (purpose in ('access', 'oauth'))`.execute(db);
  await sql`drop index signing_keys_one_active_idx`.execute(db);
  // One signing key per purpose, whatever the number of instances creating one at once.
  await sql`create unique index signing_keys_one_active_idx on signing_keys (purpose) where superseded_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Before there were purposes every key signed access tokens: the OpenID Provider's keys have no place to go.
  await sql`delete from signing_keys where purpose <> 'access'`.execute(db);
  await sql`drop index signing_keys_one_active_idx`.execute(db);
  await sql`create unique index signing_keys_one_active_idx on signing_keys ((superseded_at is null)) where superseded_at is null`
    .execute(db);
  await sql`alter table signing_keys drop column purpose`.execute(db);
}
