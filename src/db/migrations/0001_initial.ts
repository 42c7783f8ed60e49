// Initial schema: applications, users, RBAC (permissions tree, roles, grants), organization system roles, audit events.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table applications (
      id bigint generated always as identity primary key,
      name text not null,
      description text not null default '',
      access_key text not null unique,
      secret_hash text not null,
      is_active boolean not null default true,
      redirect_uris jsonb not null default '[]',
      allowed_origins jsonb not null default '[]',
      created_by bigint,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table users (
      id bigint generated always as identity primary key,
      email text,
      username text,
      phone text,
      password_hash text,
      has_usable_password boolean not null default true,
      first_name text not null default '',
      last_name text not null default '',
      avatar text,
      bio text,
      timezone text,
      language text,
      custom_fields jsonb,
      preferences jsonb not null default '{"email_notifications": true, "sms_notifications": false, "marketing_emails": false}',
      is_active boolean not null default true,
      is_email_verified boolean not null default false,
      is_phone_verified boolean not null default false,
      is_2fa_enabled boolean not null default false,
      is_staff boolean not null default false,
      is_superuser boolean not null default false,
      is_banned boolean not null default false,
      banned_at timestamptz,
      ban_reason text,
      locked_until timestamptz,
      failed_login_count integer not null default 0,
      lockout_count integer not null default 0,
      must_change_password boolean not null default false,
      tokens_valid_after timestamptz,
      max_sessions integer,
      max_devices integer,
      deleted_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      last_login timestamptz
    )`.execute(db);
  await sql`create unique index users_email_key on users (email) where email is not null`.execute(db);
  await sql`create unique index users_phone_key on users (phone) where phone is not null`.execute(db);
  await sql`create unique index users_username_key on users (lower(username)) where username is not null`.execute(db);
  await sql`create index users_created_at_idx on users (created_at)`.execute(db);

  await sql`
    create table permissions (
      id bigint generated always as identity primary key,
      code text not null unique,
      name text not null,
      description text not null default '',
      parent_id bigint references permissions (id) on delete set null,
      is_system boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index permissions_parent_idx on permissions (parent_id)`.execute(db);

  await sql`
    create table roles (
      id bigint generated always as identity primary key,
      code text not null unique,
      name text not null,
      description text not null default '',
      is_default boolean not null default false,
      is_system boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table role_permissions (
      role_id bigint not null references roles (id) on delete cascade,
      permission_id bigint not null references permissions (id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (role_id, permission_id)
    )`.execute(db);
  await sql`create index role_permissions_permission_idx on role_permissions (permission_id)`.execute(db);

  await sql`
    create table user_roles (
      user_id bigint not null references users (id) on delete cascade,
      role_id bigint not null references roles (id) on delete cascade,
      assigned_by bigint references users (id) on delete set null,
      created_at timestamptz not null default now(),
      primary key (user_id, role_id)
    )`.execute(db);
  await sql`create index user_roles_role_idx on user_roles (role_id)`.execute(db);

  await sql`
    create table user_permissions (
      user_id bigint not null references users (id) on delete cascade,
      permission_id bigint not null references permissions (id) on delete cascade,
      granted_by bigint references users (id) on delete set null,
      created_at timestamptz not null default now(),
      primary key (user_id, permission_id)
    )`.execute(db);

  await sql`
    create table org_permissions (
      code text primary key,
      name text not null,
      description text not null default ''
    )`.execute(db);

  await sql`
    create table org_roles (
      id bigint generated always as identity primary key,
      code text not null unique,
      name text not null,
      description text not null default '',
      weight integer not null,
      is_system_role boolean not null default false,
      created_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table org_role_permissions (
      org_role_id bigint not null references org_roles (id) on delete cascade,
      permission_code text not null references org_permissions (code) on delete cascade,
      primary key (org_role_id, permission_code)
    )`.execute(db);

  await sql`
    create table audit_events (
      id bigint generated always as identity primary key,
      event_type text not null,
      severity text not null default 'info',
      user_id bigint,
      actor_id bigint,
      application_id bigint,
      ip_address text,
      user_agent text,
      request_id text,
      trace_id text,
      details jsonb not null default '{}',
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index audit_events_created_at_idx on audit_events (created_at)`.execute(db);
  await sql`create index audit_events_user_idx on audit_events (user_id, created_at)`.execute(db);
  await sql`create index audit_events_type_idx on audit_events (event_type, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['audit_events', 'org_role_permissions', 'org_roles', 'org_permissions', 'user_permissions',
    'user_roles', 'role_permissions', 'roles', 'permissions', 'users', 'applications']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
