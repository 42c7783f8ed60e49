// The APIs that accept Gatehouse's OAuth access tokens (docs/oauth.md "Resources", RFC 8707): each has a URI (the
// tokens' audience), the permission codes it accepts, and credentials of its own for introspection (the secret as a
// SHA-256 hash).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table oauth_resources (
      id bigint generated always as identity primary key,
      uri text not null unique,
      name text not null,
      scopes jsonb not null default '[]',
      client_id text not null unique,
      secret_hash text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists oauth_resources`.execute(db);
}
