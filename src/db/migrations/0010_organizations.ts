// Organizations as a tree (materialized path of ancestor ids), their members with a system role each, and invitations stored as token hashes.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table organizations (
      id bigint generated always as identity primary key,
      name text not null,
      slug text not null unique,
      description text not null default '',
      metadata jsonb not null default '{}',
      is_active boolean not null default true,
      max_members integer not null default 0 check (max_members >= 0),
      parent_id bigint references organizations (id) on delete restrict,
      ancestor_ids bigint[] not null default '{}',
      created_by bigint references users (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index organizations_parent_idx on organizations (parent_id)`.execute(db);
  await sql`create index organizations_ancestors_idx on organizations using gin (ancestor_ids)`.execute(db);

  await sql`
    create table organization_members (
      id bigint generated always as identity primary key,
      organization_id bigint not null references organizations (id) on delete cascade,
      user_id bigint not null references users (id) on delete cascade,
      org_role_id bigint not null references org_roles (id),
      status text not null default 'active',
      invited_by bigint references users (id) on delete set null,
      joined_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (organization_id, user_id)
    )`.execute(db);
  await sql`create index organization_members_user_idx on organization_members (user_id, organization_id)`.execute(db);
  // Member counts (per organization, per role) read the active rows of this index alone.
  await sql`create index organization_members_active_idx on organization_members (organization_id, org_role_id) where status = 'active'`.execute(db);

  await sql`
    create table organization_invitations (
      id bigint generated always as identity primary key,
      organization_id bigint not null references organizations (id) on delete cascade,
      email text not null,
      org_role_id bigint not null references org_roles (id),
      token_hash text not null unique,
      status text not null default 'pending',
      invited_by bigint references users (id) on delete set null,
      accepted_by bigint references users (id) on delete set null,
      expires_at timestamptz not null,
      created_at timestamptz not null default now(),
      responded_at timestamptz
    )`.execute(db);
  await sql`create index organization_invitations_email_idx on organization_invitations (email) where status = 'pending'`.execute(db);
  await sql`create index organization_invitations_org_idx on organization_invitations (organization_id, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists organization_invitations`.execute(db);
  await sql`drop table if exists organization_members`.execute(db);
  await sql`drop table if exists organizations`.execute(db);
}
