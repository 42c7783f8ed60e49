// Each OAuth grant for a registered resource is a delegation (docs/oauth.md "Grants and ai/authorize/"): an agent token
// row that no one holds, bound to the grant, carries its breakers, budget and approvals.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table agent_tokens add column oauth_grant_id text`.execute(db);
  await sql`create unique index agent_tokens_oauth_grant_idx on agent_tokens (oauth_grant_id) where oauth_grant_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists agent_tokens_oauth_grant_idx`.execute(db);
  await sql`alter table agent_tokens drop column if exists oauth_grant_id`.execute(db);
}
