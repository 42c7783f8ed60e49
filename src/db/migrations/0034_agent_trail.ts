// The agent trail (docs/agents.md "The trail"): one hash chain per root token over its activity rows, its pending-action
// decisions and the events of every token in its tree. Token events and decisions are queued by triggers in the
// transaction that made them, whatever code path it was (a cascade, an expiry sweep, a breaker); the application takes
// them from the queue, hashes them (the canonical form is JSON, which SQL does not write canonically) and appends them
// under the root's head row, which serialises the appends of one root and nothing else.
import { sql, type Kysely } from 'kysely';

/** The token fields a `token.updated` event records (its counters change on every request and are left out). */
const GRANT_FIELDS = ['agent_id', 'granted_permissions', 'expires_at', 'max_requests_per_minute', 'max_requests_total',
  'max_failed_requests', 'heartbeat_required_every', 'budget_limit_usd', 'can_delegate'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table agent_trail_heads (
      root_token_id bigint primary key references agent_tokens (id) on delete cascade,
      seq bigint not null default 0,
      hash text
    )`.execute(db);
  await sql`
    create table agent_trail (
      root_token_id bigint not null references agent_tokens (id) on delete cascade,
      seq bigint not null check (seq >= 1),
      token_id bigint not null,
      type text not null,
      at text not null,
      data jsonb not null,
      prev_hash text,
      hash text not null,
      primary key (root_token_id, seq)
    )`.execute(db);
  await sql`
    create table agent_trail_queue (
      id bigint generated always as identity primary key,
      root_token_id bigint not null references agent_tokens (id) on delete cascade,
      token_id bigint not null,
      type text not null,
      at timestamptz not null,
      data jsonb not null
    )`.execute(db);
  await sql`create index agent_trail_queue_root_idx on agent_trail_queue (root_token_id, id)`.execute(db);
  // An activity row's place in its root's chain.
  await sql`alter table audit_events add column trail_seq bigint`.execute(db);
  await sql`insert into agent_trail_heads (root_token_id) select id from agent_tokens where parent_id is null`.execute(db);
  // Under HS256 the checkpoints are signed with an Ed25519 key of their own, stored like the others.
  await sql`alter table signing_keys drop constraint signing_keys_purpose_check`.execute(db);
  await sql`alter table signing_keys add constraint signing_keys_purpose_check check (purpose in ('access', 'oauth', 'trail'))`
    .execute(db);

  const grant = (row: 'new' | 'old') => GRANT_FIELDS.map((f) => `${row}.${f}`).join(', ');
  await sql.raw(`
    create function agent_trail_token_event() returns trigger language plpgsql as $$
    declare
      root bigint := coalesce(new.ancestor_ids[1], new.id);
    begin
      if tg_op = 'INSERT' then
        if new.parent_id is null then
          insert into agent_trail_heads (root_token_id) values (new.id) on conflict do nothing;
        end if;
        insert into agent_trail_queue (root_token_id, token_id, type, at, data) values (root, new.id,
          case when new.parent_id is null then 'token.created' else 'token.delegated' end, coalesce(new.created_at, now()),
          jsonb_build_object('agent_id', new.agent_id, 'parent_id', new.parent_id, 'depth', new.depth,
            'organization_id', new.organization_id, 'permissions', to_jsonb(new.granted_permissions),
            'expires_at', to_char(new.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'can_delegate', new.can_delegate, 'budget_limit_usd', new.budget_limit_usd::text));
        return null;
      end if;
      if new.status is distinct from old.status then
        insert into agent_trail_queue (root_token_id, token_id, type, at, data) values (root, new.id,
          case new.status when 'SUSPENDED' then 'token.suspended' when 'ACTIVE' then 'token.resumed'
            when 'REVOKED' then 'token.revoked' else 'token.expired' end,
          coalesce(new.status_changed_at, now()),
          jsonb_build_object('status', new.status, 'reason', case when new.status = 'SUSPENDED' then new.suspended_reason end));
      end if;
      if (${grant('new')}) is distinct from (${grant('old')}) then
        insert into agent_trail_queue (root_token_id, token_id, type, at, data) values (root, new.id, 'token.updated',
          coalesce(new.updated_at, now()),
          jsonb_build_object('agent_id', new.agent_id, 'permissions', to_jsonb(new.granted_permissions),
            'expires_at', to_char(new.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'max_requests_per_minute', new.max_requests_per_minute, 'max_requests_total', new.max_requests_total,
            'max_failed_requests', new.max_failed_requests, 'heartbeat_required_every', new.heartbeat_required_every,
            'budget_limit_usd', new.budget_limit_usd::text, 'can_delegate', new.can_delegate));
      end if;
      return null;
    end $$`).execute(db);
  await sql`create trigger agent_tokens_audit_trail_insert after insert on agent_tokens for each row
    execute function agent_trail_token_event()`.execute(db);
  // The counting statements update every request's token and its ancestors: the condition keeps the function out of them.
  await sql.raw(`
    create trigger agent_tokens_audit_trail_update after update on agent_tokens for each row
    when (old.status is distinct from new.status or (${grant('new')}) is distinct from (${grant('old')}))
    execute function agent_trail_token_event()`).execute(db);

  await sql`
    create function agent_trail_decision() returns trigger language plpgsql as $$
    begin
      insert into agent_trail_queue (root_token_id, token_id, type, at, data)
      select coalesce(t.ancestor_ids[1], t.id), t.id, 'action.' || new.status,
        coalesce(case when new.status = 'executed' then new.executed_at else new.decided_at end, now()),
        jsonb_build_object('action_id', new.id, 'permission', new.permission, 'method', new.method, 'path', new.path,
          'body_sha256', new.body_sha256, 'prompt_trace_id', new.prompt_trace_id)
      from agent_tokens t where t.id = new.agent_token_id;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger agent_pending_actions_trail after update of status on agent_pending_actions for each row
    when (old.status is distinct from new.status) execute function agent_trail_decision()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists agent_pending_actions_trail on agent_pending_actions`.execute(db);
  await sql`drop function if exists agent_trail_decision()`.execute(db);
  await sql`drop trigger if exists agent_tokens_audit_trail_insert on agent_tokens`.execute(db);
  await sql`drop trigger if exists agent_tokens_audit_trail_update on agent_tokens`.execute(db);
  await sql`drop function if exists agent_trail_token_event()`.execute(db);
  await sql`alter table audit_events drop column if exists trail_seq`.execute(db);
  await sql`delete from signing_keys where purpose = 'trail'`.execute(db);
  await sql`alter table signing_keys drop constraint signing_keys_purpose_check`.execute(db);
  await sql`alter table signing_keys add constraint signing_keys_purpose_check check (purpose in ('access', 'oauth'))`.execute(db);
  await sql`drop table if exists agent_trail_queue`.execute(db);
  await sql`drop table if exists agent_trail`.execute(db);
  await sql`drop table if exists agent_trail_heads`.execute(db);
}
