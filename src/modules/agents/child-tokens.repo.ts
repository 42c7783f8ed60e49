import { sql } from 'kysely';
import type { AgentTokenStatus, Executor } from '../../db/database.js';

/** A parent as delegation reads it (docs/agents.md "Delegation"). */
export interface ParentRow {
  id: number;
  user_id: number;
  organization_id: number | null;
  organization_slug: string | null;
  status: AgentTokenStatus;
  suspended_reason: string | null;
  expires_at: Date;
  depth: number;
  ancestor_ids: number[];
  can_delegate: boolean;
  budget_limit_usd: string | null;
  /**
   * What is left to give children: the budget − the spend (its descendants' included) − what its live children may
   * still spend of theirs (their budgets are reserved until they end). Null without a budget.
   */
  remaining_usd: string | null;
}

/**
 * The parent, locked until the caller's transaction ends (`lock`): delegations from one parent, and its revocation,
 * serialize on its row, so parallel children never reserve more than is left, and none outlives a revocation.
 */
export async function findParent(db: Executor, id: number, now: Date, lock: boolean): Promise<ParentRow | undefined> {
  // Locked first, read after: a statement sees the children committed before it began, so the reading statement must
  // begin once the lock is held (a concurrent delegation's child is then counted).
  if (lock) await sql`select id from agent_tokens where id = ${id} for update`.execute(db);
  const { rows } = await sql<ParentRow>`
    select p.id, p.user_id, p.organization_id, o.slug as organization_slug, p.status, p.suspended_reason, p.expires_at, p.depth,
      p.ancestor_ids, p.can_delegate, p.budget_limit_usd,
      p.budget_limit_usd - p.spend_usd - coalesce((select sum(greatest(c.budget_limit_usd - c.spend_usd, 0)) from agent_tokens c
        where c.parent_id = p.id and c.status in ('ACTIVE', 'SUSPENDED') and c.expires_at > ${now}), 0) as remaining_usd
    from agent_tokens p left join organizations o on o.id = p.organization_id
    where p.id = ${id}`.execute(db);
  return rows[0];
}
