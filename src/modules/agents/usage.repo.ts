import { CompiledQuery } from 'kysely';
import type { AgentTokenStatus, Executor } from '../../db/database.js';
import { BREAKER_SQL } from './agent-auth.repo.js';

const FRESH = BREAKER_SQL.heartbeatFresh;

/**
 * heartbeat/: records the beat of an active, unexpired token in one statement. A beat that comes after the
 * deadline revives nothing: the same statement suspends the token for HEARTBEAT_MISSING, as the breaker would.
 * `$1` is the token, `$2` the time. Nothing is answered for a token that is not active or has expired.
 */
const BEAT = `
  update agent_tokens a set
    last_heartbeat_at = case when ${FRESH} then $2::timestamptz else a.last_heartbeat_at end,
    status = case when ${FRESH} then a.status else 'SUSPENDED' end,
    suspended_reason = case when ${FRESH} then a.suspended_reason else 'HEARTBEAT_MISSING' end,
    status_changed_at = case when ${FRESH} then a.status_changed_at else $2::timestamptz end,
    updated_at = $2::timestamptz
  where a.id = $1 and a.status = 'ACTIVE' and a.expires_at > $2::timestamptz
  returning a.status, a.suspended_reason, a.last_heartbeat_at`;

export async function beat(db: Executor, tokenId: number, now: Date) {
  const { rows } = await db.executeQuery<{ status: AgentTokenStatus; suspended_reason: string | null; last_heartbeat_at: Date | null }>(
    CompiledQuery.raw(BEAT, [tokenId, now.toISOString()]));
  return rows[0];
}

/** The cost of this report, rounded to the column's 8 decimals so the budget is compared with what is stored. */
const COST = 'round($3::numeric, 8)';
const REACHES_BUDGET = `(a.budget_limit_usd is not null and a.spend_usd + ${COST} >= a.budget_limit_usd)`;
const TRIPS = `(a.status = 'ACTIVE' and ${REACHES_BUDGET})`;

/**
 * report-usage/: adds the cost (exact decimal arithmetic, `$3` a decimal string) and token counts in one statement,
 * to the token and to each of its ancestors (a delegated token's spend is its ancestors' too, docs/agents.md
 * "Delegation"), and suspends an active one for BUDGET_EXCEEDED when this report brings its spend to its budget. The
 * rows are locked first, root first, so the status each had before is known; concurrent reports serialize on them and
 * none is lost. Answers nothing for a token that is revoked, expired or past its expiry.
 */
const ADD_USAGE = `
  with before as (
    select id, status from agent_tokens
    where id = $1 or id = any(coalesce((select ancestor_ids from agent_tokens where id = $1), '{}'::bigint[]))
    order by depth for update
  )
  update agent_tokens a set
    spend_usd = a.spend_usd + ${COST},
    prompt_tokens = a.prompt_tokens + $4::bigint,
    completion_tokens = a.completion_tokens + $5::bigint,
    status = case when ${TRIPS} then 'SUSPENDED' else a.status end,
    suspended_reason = case when ${TRIPS} then 'BUDGET_EXCEEDED' else a.suspended_reason end,
    status_changed_at = case when ${TRIPS} then $2::timestamptz else a.status_changed_at end,
    updated_at = $2::timestamptz
  from before
  where a.id = before.id and a.status in ('ACTIVE', 'SUSPENDED') and a.expires_at > $2::timestamptz
  returning a.id, a.user_id, a.agent_id, a.status, a.spend_usd, a.budget_limit_usd, a.budget_limit_usd - a.spend_usd as remaining_usd,
    (a.budget_limit_usd is not null and a.spend_usd >= a.budget_limit_usd) as over_budget,
    (before.status = 'ACTIVE' and a.status = 'SUSPENDED') as tripped`;

export interface UsageRow {
  id: number;
  user_id: number;
  agent_id: string;
  status: AgentTokenStatus;
  spend_usd: string;
  budget_limit_usd: string | null;
  remaining_usd: string | null;
  /** The spend is at or above the budget (compared in exact decimals). */
  over_budget: boolean;
  /** This report suspended the token. */
  tripped: boolean;
}

/** Answers the token's own row and its ancestors' (nothing when the token itself is no longer live). */
export async function addUsage(db: Executor, tokenId: number, usage: { cost: string; promptTokens: number; completionTokens: number },
  now: Date): Promise<{ own: UsageRow; chain: UsageRow[] } | undefined> {
  const { rows } = await db.executeQuery<UsageRow>(CompiledQuery.raw(ADD_USAGE,
    [tokenId, now.toISOString(), usage.cost, usage.promptTokens, usage.completionTokens]));
  const own = rows.find((r) => Number(r.id) === tokenId);
  return own ? { own, chain: rows } : undefined;
}

/** The agent-heartbeats job: every active token past its heartbeat deadline is suspended, with the breaker's condition. */
export async function suspendStaleHeartbeats(db: Executor, now: Date) {
  const { rows } = await db.executeQuery<{ id: number; user_id: number; agent_id: string }>(CompiledQuery.raw(`
    update agent_tokens a set status = 'SUSPENDED', suspended_reason = $1, status_changed_at = $2::timestamptz, updated_at = $2::timestamptz
    where a.status = 'ACTIVE' and a.heartbeat_required_every is not null and a.expires_at > $2::timestamptz and not ${FRESH}
    returning a.id, a.user_id, a.agent_id`, ['HEARTBEAT_MISSING', now.toISOString()]));
  return rows;
}

/** The agent-heartbeats job: active and suspended tokens past their expiry become EXPIRED. Answers how many. */
export async function expirePastDue(db: Executor, now: Date): Promise<number> {
  const result = await db.updateTable('agent_tokens').set({ status: 'EXPIRED', status_changed_at: now, updated_at: now })
    .where('status', 'in', ['ACTIVE', 'SUSPENDED']).where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numUpdatedRows);
}
