import { CompiledQuery, sql } from 'kysely';
import type { AgentTokenStatus, Executor } from '../../db/database.js';
import { grantRefsSql, type GrantRefs } from '../rbac/permission-graph.js';
import { PUBLIC_USER_COLUMNS } from '../users/user-columns.js';

/**
 * The breakers of docs/agents.md "Breakers" as SQL conditions on the token row `a` at time `$2`: while all hold the
 * token may act. Every condition reads the row as it is when the statement runs, so concurrent requests
 * serialize on the row and each one sees the counts the others left.
 */
const WITHIN_RATE = `(a.window_started_at is null or a.window_started_at <= $2::timestamptz - interval '1 minute'
    or a.window_count < a.max_requests_per_minute)`;
const WITHIN_TOTAL = 'a.request_count < a.max_requests_total';
const HEARTBEAT_FRESH = `(a.heartbeat_required_every is null
    or coalesce(a.last_heartbeat_at, a.created_at) + make_interval(secs => a.heartbeat_required_every) > $2::timestamptz)`;
const WITHIN_BUDGET = '(a.budget_limit_usd is null or a.spend_usd < a.budget_limit_usd)';
const IN_WINDOW = `a.window_started_at > $2::timestamptz - interval '1 minute'`;
/**
 * The token was created before an event that ended its person's sessions (logout-all, a password reset, a ban…): that
 * event revoked it in its own transaction; this is the check every statement repeats, so nothing stale acts.
 */
const ISSUED_BEFORE_REVOCATION = `exists (select 1 from users r where r.id = a.user_id and r.tokens_valid_after > a.created_at)`;

const USER_COLUMNS = [...PUBLIC_USER_COLUMNS, 'is_banned', 'deleted_at', 'locked_until', 'tokens_valid_after'].map((c) => `u.${c}`).join(', ');

/** A token's ancestors may act (docs/agents.md "Delegation"): the breakers as above, on the ancestor's row `a`. */
const MAY_ACT = `(a.status = 'ACTIVE' and a.expires_at > $2::timestamptz
    and ${WITHIN_TOTAL} and ${WITHIN_RATE} and ${HEARTBEAT_FRESH} and ${WITHIN_BUDGET})`;

/** The per-request counts of the row `a`. */
const COUNTED = `request_count = a.request_count + 1,
      window_count = case when ${IN_WINDOW} then a.window_count + 1 else 1 end,
      window_started_at = case when ${IN_WINDOW} then a.window_started_at else $2::timestamptz end,
      last_used_at = $2::timestamptz`;

/**
 * Every agent request runs this one statement: it counts the request against the per-minute window and the
 * total, and answers the token, its delegating user (with the public fields, so `GET me/` needs nothing more)
 * and the references of that user's grants (their codes come from the permission graph) — or nothing when the token
 * is unknown, not active, expired or over a breaker (then {@link tripBreakers} says why). A delegated token's request
 * counts on every ancestor too, only when each of them may act: the ancestors are locked root first (so requests
 * along one chain serialize, in one order) and their grants answered, for the caller to intersect. `key` finds the
 * token row `a` from `$1`; `before` and `extra` add a leading CTE and answered columns.
 */
const countStatement = (key: string, before = '', extra = '') => `
  with ${before}c as (
    select a.ancestor_ids from agent_tokens a where ${key}
  ), anc as (
    select a.id, a.depth, a.agent_id, a.granted_permissions, ${MAY_ACT} as ok
    from agent_tokens a where a.id = any(coalesce((select c.ancestor_ids from c), '{}'::bigint[]))
    order by a.depth for update
  ), t as (
    update agent_tokens a set ${COUNTED}
    where ${key} and a.status = 'ACTIVE' and a.expires_at > $2::timestamptz
      and ${WITHIN_TOTAL} and ${WITHIN_RATE} and ${HEARTBEAT_FRESH} and ${WITHIN_BUDGET} and not ${ISSUED_BEFORE_REVOCATION}
      and (select count(*) filter (where anc.ok) from anc) = cardinality(a.ancestor_ids)
    returning a.id, a.user_id, a.organization_id, a.agent_id, a.granted_permissions, a.failed_count
  ), up as (
    update agent_tokens a set ${COUNTED}
    where a.id in (select anc.id from anc) and exists (select 1 from t)
  )
  select row_to_json(x) as state from (
    select t.id as token_id, t.organization_id, t.agent_id, t.granted_permissions, t.failed_count,
      (select json_agg(json_build_object('id', anc.id, 'agent_id', anc.agent_id, 'granted_permissions', anc.granted_permissions)
        order by anc.depth) from anc) as ancestors,
      ${grantRefsSql('u.id')} as user_grants, ${USER_COLUMNS}${extra}
    from t join users u on u.id = t.user_id
  ) x`;

const COUNT_REQUEST = countStatement('a.token_hash = $1');

/**
 * {@link countStatement} for a token known to have no ancestors (its person created it): the same counts and answer
 * without the chain's work. A token's place in its chain never changes; the condition on `ancestor_ids` keeps this
 * statement from ever counting a child.
 */
const COUNT_ROOT_REQUEST = `
  with t as (
    update agent_tokens a set ${COUNTED}
    where a.token_hash = $1 and cardinality(a.ancestor_ids) = 0 and a.status = 'ACTIVE' and a.expires_at > $2::timestamptz
      and ${WITHIN_TOTAL} and ${WITHIN_RATE} and ${HEARTBEAT_FRESH} and ${WITHIN_BUDGET} and not ${ISSUED_BEFORE_REVOCATION}
    returning a.id, a.user_id, a.organization_id, a.agent_id, a.granted_permissions, a.failed_count
  )
  select row_to_json(x) as state from (
    select t.id as token_id, t.organization_id, t.agent_id, t.granted_permissions, t.failed_count, null as ancestors,
      ${grantRefsSql('u.id')} as user_grants, ${USER_COLUMNS}
    from t join users u on u.id = t.user_id
  ) x`;

/**
 * The same statement for an OAuth access token (docs/oauth.md "Grants and ai/authorize/"): `$1` is the hash of its
 * `jti`; its live record names the grant, whose delegation is counted, and answers the token's scope.
 */
const COUNT_GRANT_REQUEST = countStatement('a.oauth_grant_id = (select r.grant_id from r)', `r as (
    select grant_id, payload->>'scope' as scope from oauth_records
    where model = 'JwtAccessToken' and id_hash = $1 and expires_at > $2::timestamptz
  ), `, ', (select r.scope from r) as oauth_scope');

/** A token and its delegating user as the statements answer them (timestamps as ISO text). */
export interface TokenAndUser {
  token_id: number;
  organization_id: number | null;
  agent_id: string;
  granted_permissions: string[];
  failed_count: number;
  is_banned: boolean;
  deleted_at: string | null;
  locked_until: string | null;
  created_at: string;
  last_login: string | null;
  [column: string]: unknown;
}

/** A delegated token's ancestor, root first, as the counting statement answers it. */
export interface Ancestor { id: number; agent_id: string; granted_permissions: string[] }

/** The token and its user as the counting statement answers them, with the references of the user's grants. */
export interface CountedRequest extends TokenAndUser {
  user_grants: GrantRefs;
  /** Null for a token its person created. */
  ancestors: Ancestor[] | null;
}

/** `root`: the token is known to have no ancestors (the lighter statement); otherwise the chain is checked and counted. */
export async function countRequest(db: Executor, tokenHash: string, now: Date, root = false): Promise<CountedRequest | undefined> {
  const { rows } = await db.executeQuery<{ state: CountedRequest }>(CompiledQuery.raw(root ? COUNT_ROOT_REQUEST : COUNT_REQUEST,
    [tokenHash, now.toISOString()]));
  return rows[0]?.state;
}

/** {@link countRequest} for an OAuth access token, by the hash of its `jti`: its scope comes with the delegation. */
export async function countGrantRequest(db: Executor, jtiHash: string, now: Date)
  : Promise<(CountedRequest & { oauth_scope: string | null }) | undefined> {
  const { rows } = await db.executeQuery<{ state: CountedRequest & { oauth_scope: string | null } }>(
    CompiledQuery.raw(COUNT_GRANT_REQUEST, [jtiHash, now.toISOString()]));
  return rows[0]?.state;
}

/**
 * Why {@link countGrantRequest} found nothing: the access token's record (gone once revoked, with its grant, or
 * expired) and the hash that finds its grant's delegation, if it has one.
 */
export const findGrantDelegation = (db: Executor, jtiHash: string) =>
  db.selectFrom('oauth_records as r').leftJoin('agent_tokens as a', 'a.oauth_grant_id', 'r.grant_id')
    .select(['r.expires_at', 'a.token_hash'])
    .where('r.model', '=', 'JwtAccessToken').where('r.id_hash', '=', jtiHash)
    .executeTakeFirst();

/** Some ancestor of the row `a` is revoked or expired: so is the token (docs/agents.md "Delegation"). */
const ANCESTOR_ENDED = `exists (select 1 from agent_tokens p where p.id = any(a.ancestor_ids)
    and (p.status in ('REVOKED', 'EXPIRED') or p.expires_at <= $2::timestamptz))`;
/** Some ancestor of the row `a` is suspended: the token is held with it. */
const ANCESTOR_HELD = `exists (select 1 from agent_tokens p where p.id = any(a.ancestor_ids) and p.status = 'SUSPENDED')`;

/**
 * After the counting statement refused a token: for the token and each of its ancestors, in one statement — revokes
 * one that predates its person's `tokens_valid_after` or whose ancestor ended, expires one whose time is up, holds one
 * whose ancestor is suspended (PARENT_SUSPENDED), or suspends one with the reason of the first breaker it is over (a
 * token already suspended, revoked or expired is left as it is, but for the revocation). What happens to an ancestor
 * reaches its descendants through the table's trigger. Answers the rows it changed.
 */
export async function tripBreakers(db: Executor, tokenHash: string, now: Date) {
  const { rows } = await db.executeQuery<{ id: number; user_id: number; agent_id: string; status: AgentTokenStatus; suspended_reason: string | null }>(CompiledQuery.raw(`
    update agent_tokens a set
      status = case when ${ISSUED_BEFORE_REVOCATION} or ${ANCESTOR_ENDED} then 'REVOKED' when a.expires_at <= $2::timestamptz then 'EXPIRED'
        else 'SUSPENDED' end,
      suspended_reason = case
        when ${ISSUED_BEFORE_REVOCATION} or ${ANCESTOR_ENDED} or a.expires_at <= $2::timestamptz then a.suspended_reason
        when ${ANCESTOR_HELD} then 'PARENT_SUSPENDED'
        when not (${WITHIN_TOTAL} and ${WITHIN_RATE}) then 'RATE_LIMIT'
        when not ${HEARTBEAT_FRESH} then 'HEARTBEAT_MISSING'
        else 'BUDGET_EXCEEDED' end,
      status_changed_at = $2::timestamptz, updated_at = $2::timestamptz
    where (a.token_hash = $1 or a.id = any(coalesce((select ancestor_ids from agent_tokens where token_hash = $1), '{}'::bigint[]))) and (
      (a.status in ('ACTIVE', 'SUSPENDED') and (a.expires_at <= $2::timestamptz or ${ISSUED_BEFORE_REVOCATION} or ${ANCESTOR_ENDED}))
      or (a.status = 'ACTIVE' and (${ANCESTOR_HELD} or not (${WITHIN_TOTAL} and ${WITHIN_RATE} and ${HEARTBEAT_FRESH} and ${WITHIN_BUDGET}))))
    returning a.id, a.user_id, a.agent_id, a.status, a.suspended_reason`, [tokenHash, now.toISOString()]));
  return rows;
}

/** The state of a token by its hash, whatever it is. */
export const findTokenState = (db: Executor, tokenHash: string) =>
  db.selectFrom('agent_tokens').select(['id', 'user_id', 'agent_id', 'status', 'suspended_reason', 'expires_at'])
    .where('token_hash', '=', tokenHash).executeTakeFirst();

/**
 * A refused request (AGENT_NOT_ALLOWED, AGENT_PERMISSION_DENIED): one more consecutive denial, and the anomaly
 * breaker suspends the token when this one reaches its threshold. Answers whether this denial suspended it.
 */
export async function recordDenial(db: Executor, tokenId: number, now: Date): Promise<boolean> {
  // The row is locked first, so the status it had before this denial is the one this statement changes.
  const { rows } = await sql<{ tripped: boolean }>`
    with before as (select id, status from agent_tokens where id = ${tokenId} for update)
    update agent_tokens a set
      failed_count = a.failed_count + 1,
      status = case when a.status = 'ACTIVE' and a.failed_count + 1 >= a.max_failed_requests then 'SUSPENDED' else a.status end,
      suspended_reason = case when a.status = 'ACTIVE' and a.failed_count + 1 >= a.max_failed_requests then 'ANOMALY' else a.suspended_reason end,
      status_changed_at = case when a.status = 'ACTIVE' and a.failed_count + 1 >= a.max_failed_requests then ${now} else a.status_changed_at end
    from before where a.id = before.id
    returning (before.status = 'ACTIVE' and a.status = 'SUSPENDED') as tripped`.execute(db);
  return rows[0]?.tripped ?? false;
}

/** An allowed request ends a run of denials. */
export const resetDenials = (db: Executor, tokenId: number) =>
  db.updateTable('agent_tokens').set({ failed_count: 0 }).where('id', '=', tokenId).where('failed_count', '>', 0).execute();

/**
 * The heartbeat and budget breakers as the counting statement checks them, for the statements that apply them
 * elsewhere (heartbeat/, report-usage/, the agent-heartbeats job): the token row is `a` and the time is `$2`.
 */
export const BREAKER_SQL = { heartbeatFresh: HEARTBEAT_FRESH, withinBudget: WITHIN_BUDGET } as const;

/** heartbeat/ and report-usage/: a token and its delegating user, read without counting anything; `key` finds `a` from `$1`. */
const findOwnStatement = (key: string) => `
  select row_to_json(x) as state from (
    select a.id as token_id, a.organization_id, a.agent_id, a.granted_permissions, a.failed_count,
      a.status as token_status, a.expires_at as token_expires_at, a.created_at as token_created_at,
      ${USER_COLUMNS}
    from agent_tokens a join users u on u.id = a.user_id
    where ${key}
  ) x`;
const FIND_OWN_TOKEN = findOwnStatement('a.token_hash = $1');
/** The same for a grant's delegation, by the hash of one of its live access tokens' `jti`. */
const FIND_OWN_GRANT_TOKEN = findOwnStatement(`a.oauth_grant_id = (select r.grant_id from oauth_records r
      where r.model = 'JwtAccessToken' and r.id_hash = $1 and r.expires_at > $2::timestamptz)`);

/**
 * A delegated token for introspection, without counting anything: whether it and every ancestor may act now (its
 * person's standing is judged by the caller), the ancestors' grants, its person with their grants, its organization.
 */
const FIND_CHAIN_STATE = `
  select row_to_json(x) as state from (
    select a.id as token_id, a.organization_id, o.slug as organization_slug, a.agent_id, a.granted_permissions, a.failed_count,
      (a.status = 'ACTIVE' and a.expires_at > $2::timestamptz and not ${ISSUED_BEFORE_REVOCATION}
        and not exists (select 1 from agent_tokens p where p.id = any(a.ancestor_ids)
          and (p.status <> 'ACTIVE' or p.expires_at <= $2::timestamptz))) as live,
      (select json_agg(json_build_object('id', p.id, 'agent_id', p.agent_id, 'granted_permissions', p.granted_permissions)
        order by p.depth) from agent_tokens p where p.id = any(a.ancestor_ids)) as ancestors,
      ${grantRefsSql('u.id')} as user_grants, ${USER_COLUMNS}
    from agent_tokens a join users u on u.id = a.user_id left join organizations o on o.id = a.organization_id
    where a.token_hash = $1
  ) x`;

export async function findChainState(db: Executor, tokenHash: string, now: Date)
  : Promise<(CountedRequest & { live: boolean; organization_slug: string | null }) | undefined> {
  const { rows } = await db.executeQuery<{ state: CountedRequest & { live: boolean; organization_slug: string | null } }>(
    CompiledQuery.raw(FIND_CHAIN_STATE, [tokenHash, now.toISOString()]));
  return rows[0]?.state;
}

/** Revokes a token by its hash while it is live (its descendants follow through the table's trigger). */
export async function revokeByHash(db: Executor, tokenHash: string, now: Date): Promise<boolean> {
  const result = await db.updateTable('agent_tokens').set({ status: 'REVOKED', status_changed_at: now, updated_at: now })
    .where('token_hash', '=', tokenHash).where('status', 'in', ['ACTIVE', 'SUSPENDED']).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A token as {@link findOwnToken} reads it: the counted-request shape without the grants, with the token's status and expiry. */
export interface OwnToken extends TokenAndUser {
  token_status: AgentTokenStatus;
  token_expires_at: string;
  token_created_at: string;
  tokens_valid_after: string | null;
}

export async function findOwnToken(db: Executor, tokenHash: string): Promise<OwnToken | undefined> {
  const { rows } = await db.executeQuery<{ state: OwnToken }>(CompiledQuery.raw(FIND_OWN_TOKEN, [tokenHash]));
  return rows[0]?.state;
}

export async function findOwnGrantToken(db: Executor, jtiHash: string, now: Date): Promise<OwnToken | undefined> {
  const { rows } = await db.executeQuery<{ state: OwnToken }>(CompiledQuery.raw(FIND_OWN_GRANT_TOKEN, [jtiHash, now.toISOString()]));
  return rows[0]?.state;
}

/**
 * Marks the token REVOKED when it predates its person's `tokens_valid_after`, else EXPIRED when its time is up, while it
 * is still active or suspended; answers its state.
 */
export async function expireOwnToken(db: Executor, tokenId: number, now: Date) {
  await db.executeQuery(CompiledQuery.raw(`
    update agent_tokens a set status = case when ${ISSUED_BEFORE_REVOCATION} then 'REVOKED' else 'EXPIRED' end,
      status_changed_at = $2::timestamptz, updated_at = $2::timestamptz
    where a.id = $1 and a.status in ('ACTIVE', 'SUSPENDED') and (a.expires_at <= $2::timestamptz or ${ISSUED_BEFORE_REVOCATION})`,
  [tokenId, now.toISOString()]));
  return db.selectFrom('agent_tokens').select(['id', 'user_id', 'agent_id', 'status', 'suspended_reason'])
    .where('id', '=', tokenId).executeTakeFirst();
}

export type { AgentTokenStatus };
