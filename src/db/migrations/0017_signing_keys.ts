// Asymmetric access-token signing keys (docs/resource-servers.md): the private part sealed, at most one signing.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table signing_keys (
      id bigint generated always as identity primary key,
      kid text not null unique,
      algorithm text not null check (algorithm in ('EdDSA', 'ES256', 'RS256')),
      public_jwk jsonb not null,
      private_key_sealed text not null,
      created_at timestamptz not null default now(),
      activated_at timestamptz not null,
      superseded_at timestamptz,
      verifies_until timestamptz,
      check ((superseded_at is null) = (verifies_until is null))
    )`.execute(db);
  // One signing key at a time, whatever the number of instances creating one at once.
  await sql`create unique index signing_keys_one_active_idx on signing_keys ((superseded_at is null)) where superseded_at is null`
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists signing_keys`.execute(db);
}
