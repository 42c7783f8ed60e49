// Delegation chains (docs/agents.md "Delegation"): an agent token may hand a narrower child to a sub-agent. A token
// knows its parent, its depth (a token the person creates is 1) and its ancestors from the root, so one statement can
// check and count a request against the whole chain. What happens to an ancestor happens to its descendants, in the
// same transaction, whatever changed it: suspended → the active ones are suspended with PARENT_SUSPENDED; resumed →
// exactly those come back (once no other ancestor holds them); revoked or expired → every live one is revoked.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table agent_tokens add column parent_id bigint references agent_tokens (id) on delete cascade`.execute(db);
  await sql`alter table agent_tokens add column depth integer not null default 1 check (depth >= 1)`.execute(db);
  await sql`alter table agent_tokens add column ancestor_ids bigint[] not null default '{}'`.execute(db);
  await sql`alter table agent_tokens add column can_delegate boolean not null default false`.execute(db);
  await sql`create index agent_tokens_parent_idx on agent_tokens (parent_id) where parent_id is not null`.execute(db);
  await sql`create index agent_tokens_ancestors_idx on agent_tokens using gin (ancestor_ids)`.execute(db);
  await sql`
    create function agent_token_chain_follows() returns trigger language plpgsql as $$
    declare
      at timestamptz := coalesce(new.status_changed_at, now());
    begin
      if new.status = 'SUSPENDED' and old.status = 'ACTIVE' then
        update agent_tokens set status = 'SUSPENDED', suspended_reason = 'PARENT_SUSPENDED', status_changed_at = at, updated_at = at
        where ancestor_ids @> array[new.id] and status = 'ACTIVE';
      elsif new.status = 'ACTIVE' and old.status = 'SUSPENDED' then
        update agent_tokens d set status = 'ACTIVE', suspended_reason = null, status_changed_at = at, updated_at = at,
          window_count = 0, window_started_at = null, failed_count = 0
        where d.ancestor_ids @> array[new.id] and d.status = 'SUSPENDED' and d.suspended_reason = 'PARENT_SUSPENDED'
          and not exists (select 1 from agent_tokens p where p.id = any(d.ancestor_ids) and p.id <> new.id and p.status <> 'ACTIVE');
      elsif new.status in ('REVOKED', 'EXPIRED') and old.status in ('ACTIVE', 'SUSPENDED') then
        update agent_tokens set status = 'REVOKED', status_changed_at = at, updated_at = at
        where ancestor_ids @> array[new.id] and status in ('ACTIVE', 'SUSPENDED');
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger agent_tokens_chain_follows after update of status on agent_tokens
    for each row when (old.status is distinct from new.status) execute function agent_token_chain_follows()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists agent_tokens_chain_follows on agent_tokens`.execute(db);
  await sql`drop function if exists agent_token_chain_follows()`.execute(db);
  await sql`drop index if exists agent_tokens_ancestors_idx`.execute(db);
  await sql`drop index if exists agent_tokens_parent_idx`.execute(db);
  for (const column of ['can_delegate', 'ancestor_ids', 'depth', 'parent_id']) {
    await sql`alter table agent_tokens drop column if exists ${sql.id(column)}`.execute(db);
  }
}
