// Social login: identities at external providers, the browser flow's single-use states, and the second-factor
// hand-over of a redirect that could not carry tokens.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table social_accounts (
      id bigint generated always as identity primary key,
      user_id bigint not null references users (id) on delete cascade,
      provider text not null,
      subject text not null,
      email text,
      linked_at timestamptz not null default now(),
      last_login_at timestamptz,
      unique (provider, subject)
    )`.execute(db);
  await sql`create index social_accounts_user_idx on social_accounts (user_id)`.execute(db);

  // The state of one browser sign-in: single use, short-lived, bound to the cookie set on the browser that started it.
  await sql`
    create table social_login_states (
      id bigint generated always as identity primary key,
      state_hash text not null unique,
      cookie_hash text not null,
      provider text not null,
      application_id bigint not null references applications (id) on delete cascade,
      redirect_uri text not null,
      code_verifier_sealed text not null,
      nonce text,
      expires_at timestamptz not null,
      consumed_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index social_login_states_expires_idx on social_login_states (expires_at)`.execute(db);

  // A 2FA account sent back from the browser flow without tokens: this token, with a TOTP code, finishes the login.
  await sql`
    create table social_mfa_tokens (
      id bigint generated always as identity primary key,
      token_hash text not null unique,
      user_id bigint not null references users (id) on delete cascade,
      provider text not null,
      application_id bigint references applications (id) on delete cascade,
      expires_at timestamptz not null,
      consumed_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index social_mfa_tokens_expires_idx on social_mfa_tokens (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists social_mfa_tokens`.execute(db);
  await sql`drop table if exists social_login_states`.execute(db);
  await sql`drop table if exists social_accounts`.execute(db);
}
