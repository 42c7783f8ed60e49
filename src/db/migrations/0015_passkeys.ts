// Passkeys: the WebAuthn credentials of each account, the single-use challenges of the two ceremonies, and the mark
// of a session whose sign-in proved two factors with a passkey (the administrators' 2FA gate counts it on refresh).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webauthn_credentials (
      id bigint generated always as identity primary key,
      user_id bigint not null references users (id) on delete cascade,
      credential_id text not null unique,
      public_key bytea not null,
      user_handle text not null,
      sign_count bigint not null default 0,
      transports text[] not null default '{}',
      device_name text not null default '',
      device_type text not null check (device_type in ('singleDevice', 'multiDevice')),
      backed_up boolean not null default false,
      authenticator_type text check (authenticator_type in ('platform', 'cross-platform')),
      is_resident_key boolean not null default false,
      aaguid text,
      is_active boolean not null default true,
      created_at timestamptz not null default now(),
      last_used_at timestamptz
    )`.execute(db);
  await sql`create index webauthn_credentials_user_idx on webauthn_credentials (user_id)`.execute(db);

  await sql`
    create table webauthn_challenges (
      id bigint generated always as identity primary key,
      challenge_hash text not null unique,
      purpose text not null check (purpose in ('register', 'authenticate')),
      user_id bigint references users (id) on delete cascade,
      user_handle text,
      user_verification text not null check (user_verification in ('required', 'preferred')),
      application_id bigint references applications (id) on delete cascade,
      expires_at timestamptz not null,
      consumed_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index webauthn_challenges_expires_idx on webauthn_challenges (expires_at)`.execute(db);

  await sql`alter table sessions add column second_factor text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions drop column if exists second_factor`.execute(db);
  await sql`drop table if exists webauthn_challenges`.execute(db);
  await sql`drop table if exists webauthn_credentials`.execute(db);
}
