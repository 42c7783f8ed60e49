// Whose each OAuth record is (docs/oauth.md "Grants"): a person's grants are listed and revoked by account, and every
// event that ends a person's sessions revokes their grants in the same transaction.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table oauth_records add column account_id bigint`.execute(db);
  await sql`create index oauth_records_account_idx on oauth_records (account_id, model) where account_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists oauth_records_account_idx`.execute(db);
  await sql`alter table oauth_records drop column if exists account_id`.execute(db);
}
