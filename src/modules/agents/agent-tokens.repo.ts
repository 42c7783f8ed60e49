import { sql } from 'kysely';
import type { Updateable } from 'kysely';
import type { AgentTokensTable, AgentTokenStatus, Executor, NewRow } from '../../db/database.js';
import type { Order } from '../../core/listing.js';
import type { AgentTokenView } from './agent-tokens.schemas.js';

const VIEW_COLUMNS = ['a.id', 'a.agent_id', 'a.status', 'a.suspended_reason', 'a.granted_permissions', 'o.slug as organization_slug',
  'a.expires_at', 'a.created_at', 'a.last_used_at', 'a.request_count', 'a.failed_count', 'a.spend_usd', 'a.budget_limit_usd',
  'a.max_requests_per_minute', 'a.max_requests_total', 'a.max_failed_requests', 'a.heartbeat_required_every',
  'a.last_heartbeat_at', 'a.parent_id', 'a.depth', 'a.can_delegate'] as const;

/** The chain from the root to the token `a`, inclusive (docs/agents.md "Delegation"). */
const CHAIN = sql<{ id: number; agent_id: string }[]>`(select coalesce(json_agg(json_build_object('id', c.id, 'agent_id', c.agent_id)
  order by c.depth), '[]'::json) from agent_tokens c where c.id = any(a.ancestor_ids) or c.id = a.id)`.as('chain');

const view = (db: Executor) => db.selectFrom('agent_tokens as a').leftJoin('organizations as o', 'o.id', 'a.organization_id');

export const insertToken = (db: Executor, values: NewRow<'agent_tokens'>) =>
  db.insertInto('agent_tokens').values(values).returning('id').executeTakeFirstOrThrow();

/** One of the user's tokens (another user's is not found). */
export const findOwnToken = (db: Executor, userId: number, id: number): Promise<AgentTokenView | undefined> =>
  view(db).select(VIEW_COLUMNS).select(CHAIN).where('a.id', '=', id).where('a.user_id', '=', userId).executeTakeFirst();

/** Every token of the user, newest first (the data export). */
export const allTokensOf = (db: Executor, userId: number): Promise<AgentTokenView[]> =>
  view(db).select(VIEW_COLUMNS).select(CHAIN).where('a.user_id', '=', userId).orderBy('a.created_at', 'desc').orderBy('a.id', 'desc')
    .execute() as Promise<AgentTokenView[]>;

export interface TokenFilters {
  status?: AgentTokenStatus;
  agentId?: string;
}

/** The status a list filters on: a token past its expiry is `EXPIRED` whatever its row says yet. */
const effectiveStatus = (now: Date) => sql<AgentTokenStatus>`case when a.status in ('ACTIVE', 'SUSPENDED') and a.expires_at <= ${now}
  then 'EXPIRED' else a.status end`;

export async function listOwnTokens(db: Executor, userId: number, f: TokenFilters, now: Date, page: { limit: number; offset: number },
  order: Order<'created_at'> = { column: 'created_at', direction: 'desc' }) {
  let q = view(db).where('a.user_id', '=', userId);
  if (f.status !== undefined) q = q.where(effectiveStatus(now), '=', f.status);
  if (f.agentId !== undefined) q = q.where('a.agent_id', '=', f.agentId);
  const [rows, total] = await Promise.all([
    q.select(VIEW_COLUMNS).select(CHAIN).orderBy(`a.${order.column}`, order.direction).orderBy('a.id', order.direction)
      .limit(page.limit).offset(page.offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as AgentTokenView[], count: Number(total.count) };
}

export const updateToken = (db: Executor, userId: number, id: number, values: Updateable<AgentTokensTable>) =>
  db.updateTable('agent_tokens').set(values).where('id', '=', id).where('user_id', '=', userId).execute();

/**
 * A status change in one statement, only from the states `from` (so two concurrent changes cannot both win).
 * Answers whether the row changed.
 */
export async function changeStatus(db: Executor, userId: number, id: number, from: AgentTokenStatus[],
  to: { status: AgentTokenStatus; suspended_reason: string | null; now: Date; resetWindow?: boolean }): Promise<boolean> {
  const result = await db.updateTable('agent_tokens')
    .set({
      status: to.status, suspended_reason: to.suspended_reason, status_changed_at: to.now, updated_at: to.now,
      ...(to.resetWindow ? { window_count: 0, window_started_at: null, failed_count: 0 } : {}),
    })
    .where('id', '=', id).where('user_id', '=', userId).where('status', 'in', from)
    // Only an unexpired token may be resumed, and a child only while every ancestor is active (docs/agents.md "Delegation").
    .$if(to.status === 'ACTIVE', (q) => q.where('expires_at', '>', to.now).where(sql<boolean>`not exists (select 1 from agent_tokens p
      where p.id = any(agent_tokens.ancestor_ids) and p.status <> 'ACTIVE')`))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** revoke-all/: every token of the user not already revoked or expired. */
export async function revokeAllOf(db: Executor, userId: number, now: Date): Promise<number[]> {
  const rows = await db.updateTable('agent_tokens')
    .set({ status: 'REVOKED', status_changed_at: now, updated_at: now })
    .where('user_id', '=', userId).where('status', 'in', ['ACTIVE', 'SUSPENDED']).where('expires_at', '>', now)
    .returning('id').execute();
  return rows.map((r) => r.id);
}

/** Codes among `codes` that name no permission (global, or organization permissions for an organization token). */
export async function unknownCodes(db: Executor, codes: string[], organization: boolean): Promise<string[]> {
  if (codes.length === 0) return [];
  const table = organization ? 'org_permissions' : 'permissions';
  const rows = await db.selectFrom(table).select('code').where('code', 'in', codes).execute();
  const known = new Set(rows.map((r) => r.code));
  return [...new Set(codes)].filter((c) => !known.has(c)).sort();
}

/**
 * Every live token of the user created at or before `before` becomes REVOKED, in the caller's transaction (an event
 * that ends the person's sessions ends what they delegated). Answers the tokens' ids.
 */
export async function revokeIssuedBefore(db: Executor, userId: number, before: Date, now: Date): Promise<number[]> {
  const rows = await db.updateTable('agent_tokens')
    .set({ status: 'REVOKED', status_changed_at: now, updated_at: now })
    .where('user_id', '=', userId).where('status', 'in', ['ACTIVE', 'SUSPENDED']).where('created_at', '<=', before)
    .returning('id').execute();
  return rows.map((r) => r.id);
}
