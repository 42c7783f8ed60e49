// Sessions keep when their person last proved a credential (`auth_time`), so a refreshed access token still says it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Null for the sessions opened before: their tokens never count as a recent sign-in.
  await sql`alter table sessions add column auth_time timestamptz`.execute(db);
  // Passkey registration now needs a recent sign-in at its first step: a ceremony begun before that rule is not finished.
  await sql`delete from webauthn_challenges where purpose = 'register'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions drop column if exists auth_time`.execute(db);
}
