// The OpenID Provider's records (docs/oauth.md "Storage"): authorization codes, tokens, grants, sessions, interactions and
// registered clients, one row each. Rows are found by the SHA-256 of their id, never by the id itself: an id is a
// code, a token or a cookie value, and the database holds only hashes of those.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table oauth_records (
      model text not null,
      id_hash text not null,
      payload jsonb not null,
      grant_id text,
      uid text,
      expires_at timestamptz,
      consumed_at timestamptz,
      primary key (model, id_hash)
    )`.execute(db);
  // Revoking a grant revokes every code and token it issued; a session is found by its uid.
  await sql`create index oauth_records_grant_idx on oauth_records (grant_id) where grant_id is not null`.execute(db);
  await sql`create index oauth_records_uid_idx on oauth_records (model, uid) where uid is not null`.execute(db);
  await sql`create index oauth_records_expiry_idx on oauth_records (expires_at) where expires_at is not null`.execute(db);
  // Where a signed-out user is sent back after RP-initiated logout (docs/oauth.md "Clients").
  await sql`alter table applications add column post_logout_redirect_uris jsonb not null default '[]'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table applications drop column if exists post_logout_redirect_uris`.execute(db);
  await sql`drop table if exists oauth_records`.execute(db);
}
