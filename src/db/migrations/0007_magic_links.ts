// Magic links: only a SHA-256 of each token is stored, bound to one account, the address it was sent to and the application that asked.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table magic_links (
      id bigint generated always as identity primary key,
      user_id bigint not null references users (id) on delete cascade,
      email text not null,
      token_hash text not null unique,
      application_id bigint references applications (id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      consumed_at timestamptz
    )`.execute(db);
  await sql`create index magic_links_live_email_idx on magic_links (email) where consumed_at is null`.execute(db);
  await sql`create index magic_links_user_idx on magic_links (user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists magic_links`.execute(db);
}
