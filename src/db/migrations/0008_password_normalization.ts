// Passwords are hashed as NFKC from now on; every hash made before holds the raw text, so it is marked to be tried raw once and upgraded.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column password_hash_unnormalized boolean not null default false`.execute(db);
  await sql`update users set password_hash_unnormalized = true where password_hash is not null`.execute(db);
  await sql`alter table password_history add column unnormalized boolean not null default false`.execute(db);
  await sql`update password_history set unnormalized = true`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table password_history drop column if exists unnormalized`.execute(db);
  await sql`alter table users drop column if exists password_hash_unnormalized`.execute(db);
}
