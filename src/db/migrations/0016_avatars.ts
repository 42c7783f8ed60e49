// Avatars uploaded through PATCH me/ (docs/authentication.md "Profile"), kept in the database: instances share nothing else.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table avatars (
      id bigint generated always as identity primary key,
      user_id bigint not null unique references users (id) on delete cascade,
      name text not null unique check (name ~ '^[0-9a-f]{32}\\.(png|jpg|webp)$'),
      content_type text not null check (content_type in ('image/png', 'image/jpeg', 'image/webp')),
      bytes bytea not null check (octet_length(bytes) <= 2097152),
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists avatars`.execute(db);
}
