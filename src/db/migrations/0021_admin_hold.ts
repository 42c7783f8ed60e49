// An administrator's deactivation is a hold that only an administrator lifts (docs/security.md "Account safety").
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Set when an administrator deactivates the account, cleared when one reactivates it: the deletion flow, which also
  // deactivates and reactivates accounts, reads it and leaves such an account inactive.
  await sql`alter table users add column admin_deactivated_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column if exists admin_deactivated_at`.execute(db);
}
