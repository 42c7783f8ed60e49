// Agent tokens (hash of the secret, grants, limits and their counters on one row) and the actions they wait on.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table agent_tokens (
      id bigint generated always as identity primary key,
      user_id bigint not null references users (id) on delete cascade,
      organization_id bigint references organizations (id) on delete cascade,
      agent_id text not null,
      token_hash text not null unique,
      status text not null default 'ACTIVE' check (status in ('ACTIVE', 'SUSPENDED', 'REVOKED', 'EXPIRED')),
      suspended_reason text,
      granted_permissions text[] not null default '{}',
      expires_at timestamptz not null,
      max_requests_per_minute integer not null check (max_requests_per_minute > 0),
      max_requests_total bigint not null check (max_requests_total > 0),
      max_failed_requests integer not null check (max_failed_requests > 0),
      heartbeat_required_every integer check (heartbeat_required_every > 0),
      budget_limit_usd numeric(20, 8) check (budget_limit_usd >= 0),
      request_count bigint not null default 0,
      window_started_at timestamptz,
      window_count integer not null default 0,
      failed_count integer not null default 0,
      spend_usd numeric(20, 8) not null default 0,
      prompt_tokens bigint not null default 0,
      completion_tokens bigint not null default 0,
      last_heartbeat_at timestamptz,
      last_used_at timestamptz,
      status_changed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index agent_tokens_user_idx on agent_tokens (user_id, created_at)`.execute(db);
  // The agent-heartbeats job reads only the live tokens that must beat.
  await sql`create index agent_tokens_heartbeat_idx on agent_tokens (id) where status = 'ACTIVE' and heartbeat_required_every is not null`.execute(db);

  await sql`
    create table agent_pending_actions (
      id bigint generated always as identity primary key,
      agent_token_id bigint not null references agent_tokens (id) on delete cascade,
      user_id bigint not null references users (id) on delete cascade,
      confirmation_hash text not null unique,
      token_nonce text not null,
      permission text,
      method text not null,
      path text not null,
      org_slug text,
      body_sha256 text not null,
      payload jsonb,
      prompt_trace_id text,
      status text not null default 'pending' check (status in ('pending', 'approved', 'rejected', 'executed')),
      expires_at timestamptz not null,
      created_at timestamptz not null default now(),
      decided_at timestamptz,
      executed_at timestamptz
    )`.execute(db);
  await sql`create index agent_pending_actions_user_idx on agent_pending_actions (user_id, created_at) where status = 'pending'`.execute(db);
  await sql`create index agent_pending_actions_token_idx on agent_pending_actions (agent_token_id)`.execute(db);

  // Agent activity is listed per token and audit logs are filtered by trace.
  await sql`alter table audit_events add column agent_token_id bigint`.execute(db);
  await sql`create index audit_events_agent_token_idx on audit_events (agent_token_id, created_at) where agent_token_id is not null`.execute(db);
  await sql`create index audit_events_trace_idx on audit_events (trace_id, created_at) where trace_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists audit_events_trace_idx`.execute(db);
  await sql`alter table audit_events drop column if exists agent_token_id`.execute(db);
  await sql`drop table if exists agent_pending_actions`.execute(db);
  await sql`drop table if exists agent_tokens`.execute(db);
}
