// A social sign-in started from the authorization server's sign-in page (docs/oauth.md "Sign-in and consent") goes
// back to that page's interaction, not to an application's redirect URI: a state holds one or the other.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table social_login_states add column oauth_interaction text`.execute(db);
  await sql`alter table social_login_states alter column application_id drop not null`.execute(db);
  await sql`alter table social_login_states alter column redirect_uri drop not null`.execute(db);
  await sql`alter table social_login_states add constraint social_login_states_destination_check
    check ((application_id is not null and redirect_uri is not null and oauth_interaction is null)
      or (application_id is null and redirect_uri is null and oauth_interaction is not null))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from social_login_states where oauth_interaction is not null`.execute(db);
  await sql`alter table social_login_states drop constraint if exists social_login_states_destination_check`.execute(db);
  await sql`alter table social_login_states alter column redirect_uri set not null`.execute(db);
  await sql`alter table social_login_states alter column application_id set not null`.execute(db);
  await sql`alter table social_login_states drop column if exists oauth_interaction`.execute(db);
}
