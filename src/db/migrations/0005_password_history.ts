// Password history: the hashes of an account's recent passwords, so a new password can be refused when reused.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table password_history (
      id bigint generated always as identity primary key,
      user_id bigint not null references users (id) on delete cascade,
      password_hash text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index password_history_user_idx on password_history (user_id, created_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists password_history`.execute(db);
}
