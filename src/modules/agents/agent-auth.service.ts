import type { Clock } from '../../core/clock.js';
import { AppError, type ErrorCode } from '../../core/errors.js';
import type { AgentTokenStatus, Db } from '../../db/database.js';
import { dateOrNull } from '../../db/json-row.js';
import { sha256Hex } from '../../security/random.js';
import type { AuditService } from '../audit/audit.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.service.js';
import { permissionGraph } from '../rbac/permission-graph.js';
import { ALL_PERMISSIONS, permissionSet, type MissingPermissions, type PermissionSet } from '../rbac/permission-set.js';
import type { AuthUser } from '../sessions/bearer.service.js';
import { PUBLIC_USER_COLUMNS } from '../users/user-columns.js';
import { AGENT_TOKEN_PATTERN, type AgentContext } from './agent-context.js';
import * as repo from './agent-auth.repo.js';

/** `counters`: where the per-request counts are written (see `Database.counters`); `db` for everything else. */
type Deps = { db: Db; counters: Db; clock: Clock; audit: AuditService; events: WebhookEvents };

/** The stored hash of a child issued by the token-exchange grant: its JWT's `jti` is its credential. */
export const exchangedTokenHash = (jti: string) => sha256Hex(`token-exchange:${jti}`);

/** How many tokens' hashes {@link createAgentAuthService} remembers as having no ancestors. */
const KNOWN_ROOTS = 10_000;

/** The codes a refused agent request answers, by the token's state. */
const REFUSALS = { EXPIRED: 'AGENT_TOKEN_EXPIRED', REVOKED: 'AGENT_TOKEN_REVOKED', SUSPENDED: 'AGENT_TOKEN_SUSPENDED' } as const;

/**
 * `Authorization: AgentBearer <token>` (docs/decisions.md "Agents"): one statement counts the request and answers the
 * token with its delegating user; a refusal says why (unknown, expired, revoked, suspended — tripping the breaker
 * it is over first). Denials are counted for the anomaly breaker; an allowed request ends a run of them.
 */
export function createAgentAuthService({ db, counters, clock, audit, events }: Deps) {
  /**
   * Hashes of tokens seen to have no ancestors: their requests take the statement without the chain's work (a token's
   * place in its chain never changes). Bounded; a token forgotten is checked with the chain again, which relearns it.
   */
  const roots = new Set<string>();

  async function authenticate(raw: string, traceId: string | null): Promise<AgentContext> {
    if (!AGENT_TOKEN_PATTERN.test(raw)) throw new AppError('AGENT_TOKEN_INVALID');
    return authenticateHash(sha256Hex(raw), traceId);
  }

  /**
   * A child issued by the token-exchange grant, presented as its signed JWT (verified by the caller): its credential
   * is the JWT's `jti` (docs/agents.md "Delegation"), checked and counted as an agent token is.
   */
  const authenticateExchanged = (jti: string, traceId: string | null) => authenticateHash(exchangedTokenHash(jti), traceId);

  async function authenticateHash(hash: string, traceId: string | null): Promise<AgentContext> {
    const now = clock.now();
    const root = roots.has(hash);
    const row = await repo.countRequest(counters, hash, now, root);
    if (!row) throw await refusal(hash, now);
    if (!root && row.ancestors === null) {
      if (roots.size >= KNOWN_ROOTS) roots.delete(roots.values().next().value!);
      roots.add(hash);
    }
    const graph = await permissionGraph(counters, row.user_grants.version);
    return contextOf(row, traceId, now, graph.permissionSetOf(row.user_grants, Boolean(row.is_superuser)));
  }

  /**
   * An OAuth access token forwarded to `ai/authorize/` (docs/oauth.md "Grants and ai/authorize/"), by the hash of its
   * verified `jti`: counted against its grant's delegation in one statement, as an agent token is. It may use what its
   * delegation was granted and the token's own scope names (a token for one resource carries that resource's scopes).
   */
  async function authenticateGrant(jtiHash: string, traceId: string | null): Promise<AgentContext> {
    const now = clock.now();
    const row = await repo.countGrantRequest(counters, jtiHash, now);
    if (!row) throw await grantRefusal(jtiHash, now);
    const scopes = new Set((row.oauth_scope ?? '').split(' '));
    const graph = await permissionGraph(counters, row.user_grants.version);
    const context = contextOf(row, traceId, now, graph.permissionSetOf(row.user_grants, Boolean(row.is_superuser)));
    context.granted = new Set([...context.granted].filter((p) => scopes.has(p)));
    return context;
  }

  /** Why a grant's access token was refused: revoked (its record is gone), expired, or its delegation's state. */
  async function grantRefusal(jtiHash: string, now: Date): Promise<AppError> {
    const found = await repo.findGrantDelegation(db, jtiHash);
    if (!found) return new AppError('AGENT_TOKEN_REVOKED');
    if (found.expires_at !== null && new Date(found.expires_at) <= now) return new AppError('AGENT_TOKEN_EXPIRED');
    // A grant without a delegation (it was given no resource): nothing to authorize with it.
    if (!found.token_hash) return new AppError('TOKEN_INVALID');
    return refusal(found.token_hash, now);
  }

  /**
   * heartbeat/ and report-usage/ (docs/decisions.md "Agents"): the token's own bookkeeping is neither counted nor held to
   * the breakers, and a suspended token is admitted (its cost was incurred); unknown, revoked and expired tokens are
   * refused as on any route, and an expired one is marked EXPIRED.
   */
  async function authenticateOwn(raw: string, traceId: string | null): Promise<AgentContext> {
    if (!AGENT_TOKEN_PATTERN.test(raw)) throw new AppError('AGENT_TOKEN_INVALID');
    return admitOwn(await repo.findOwnToken(db, sha256Hex(raw)), traceId);
  }

  /**
   * The same for a grant's delegation (docs/oauth.md "Grants and ai/authorize/"): the resource server reports the usage
   * of a call it served with one of the grant's live access tokens, by the hash of its verified `jti`.
   */
  async function authenticateOwnGrant(jtiHash: string, traceId: string | null): Promise<AgentContext> {
    const row = await repo.findOwnGrantToken(db, jtiHash, clock.now());
    if (!row) throw new AppError('AGENT_TOKEN_REVOKED');
    return admitOwn(row, traceId);
  }

  /** The same for a child of the token-exchange grant, by its JWT's verified `jti`. */
  const authenticateOwnExchanged = async (jti: string, traceId: string | null) =>
    admitOwn(await repo.findOwnToken(db, exchangedTokenHash(jti)), traceId);

  async function admitOwn(row: repo.OwnToken | undefined, traceId: string | null): Promise<AgentContext> {
    const now = clock.now();
    if (!row) throw new AppError('AGENT_TOKEN_INVALID');
    const live = row.token_status === 'ACTIVE' || row.token_status === 'SUSPENDED';
    const stale = row.tokens_valid_after !== null && new Date(row.token_created_at) < new Date(row.tokens_valid_after);
    if (!live || stale || new Date(row.token_expires_at) <= now) throw await refuseOwn(row.token_id);
    // The token's own bookkeeping checks no permission: its person's are not read.
    return contextOf(row, traceId, now, row.is_superuser ? ALL_PERMISSIONS : permissionSet([]));
  }

  /**
   * Why a token's own bookkeeping cannot be done (its statement matched no live row): revoked (marked so now when it
   * predates its person's `tokens_valid_after`), expired (marked so now), or suspended with its reason.
   */
  async function refuseOwn(tokenId: number): Promise<AppError> {
    const state = await repo.expireOwnToken(db, tokenId, clock.now());
    // Resumed meanwhile: nothing was recorded, so the call may be repeated.
    return state ? refusalOf(state, null) : new AppError('AGENT_TOKEN_INVALID');
  }

  /**
   * A token suspended by a breaker (its owner's suspensions are audited by the token service). The suspension was one
   * statement on the agent's request path; its audit row and `agent.suspended` event follow in one transaction.
   */
  const recordSuspension = (token: { id: number; user_id: number; agent_id: string }, reason: string | null) =>
    events.atomically('agent.suspended', async (trx) => {
      await audit.record({ event_type: 'agent_token_suspended', severity: 'warning', user_id: token.user_id,
        details: { token_id: token.id, agent_id: token.agent_id, reason } }, trx);
      await events.emit(trx, 'agent.suspended', { user_id: token.user_id, agent_token_id: token.id, agent_id: token.agent_id, reason });
    });

  /** Why the counting statement refused the token, after expiring or suspending it as its state asks. */
  async function refusal(hash: string, now: Date): Promise<AppError> {
    for (const changed of await repo.tripBreakers(db, hash, now)) {
      if (changed.status === 'SUSPENDED') await recordSuspension(changed, changed.suspended_reason);
    }
    const state = await repo.findTokenState(db, hash);
    // Still active: the window moved on between the two statements; the request was not counted, so it may retry.
    return state ? refusalOf(state, 'RATE_LIMIT') : new AppError('AGENT_TOKEN_INVALID');
  }

  /** Refuses the request for `code`, counting the denial (the anomaly breaker suspends at its threshold). */
  async function deny(agent: AgentContext, code: Extract<ErrorCode, 'AGENT_NOT_ALLOWED' | 'AGENT_PERMISSION_DENIED'>,
    details?: MissingPermissions | { reason: string; field?: string }): Promise<never> {
    await recordDenied(agent);
    throw new AppError(code, details === undefined ? {} : { details });
  }

  /**
   * A request its guards allowed but whose service refused it for going beyond the token's grant (a role to grant, a
   * superuser to change): a denial like any other, for the activity trail and the anomaly breaker.
   */
  async function recordDenied(agent: AgentContext): Promise<void> {
    if (agent.decision === 'deny') return;
    agent.decision = 'deny';
    // The delegating user's standing is not the agent's doing: it stops the token without counting against it.
    if (agent.userCanAct && await repo.recordDenial(db, agent.tokenId, clock.now())) {
      await recordSuspension({ id: agent.tokenId, user_id: agent.user.id, agent_id: agent.agentId }, 'ANOMALY');
    }
  }

  /** Once an allowed request is answered without a refusal (an on-send hook): it ends a run of denials. */
  async function settle(agent: AgentContext): Promise<void> {
    if (agent.decision === 'allow' && agent.failedCount > 0) {
      await repo.resetDenials(db, agent.tokenId);
      agent.failedCount = 0;
    }
  }

  /**
   * Introspection of a child the token-exchange grant issued (docs/oauth.md "Introspection"): null unless it, every
   * ancestor and its person may act now; else what it may use now (its grant ∩ its ancestors' ∩ what its person holds,
   * in its organization for a bound one — `orgPermissions`) and its chain. Nothing is counted.
   */
  async function inspectExchanged(jti: string, orgPermissions: (slug: string, userId: number) => Promise<ReadonlySet<string> | null>) {
    const now = clock.now();
    const row = await repo.findChainState(db, exchangedTokenHash(jti), now);
    if (!row || !row.live) return null;
    const graph = await permissionGraph(db, row.user_grants.version);
    const context = contextOf(row, null, now, graph.permissionSetOf(row.user_grants, Boolean(row.is_superuser)));
    if (!context.userCanAct) return null;
    const inOrg = row.organization_slug ? await orgPermissions(row.organization_slug, context.user.id) : null;
    const holds = (code: string) => (row.organization_slug ? inOrg?.has(code) ?? false : context.userPermissions.has(code));
    return { permissions: [...context.granted].filter(holds).sort(), chain: context.chain, userId: context.user.id };
  }

  /** Revocation (RFC 7009) of a child the token-exchange grant issued: the child and its descendants are revoked. */
  const revokeExchanged = (jti: string) => repo.revokeByHash(db, exchangedTokenHash(jti), clock.now());

  return { authenticate, authenticateExchanged, authenticateOwnExchanged, inspectExchanged, revokeExchanged, authenticateGrant, authenticateOwn, authenticateOwnGrant, refuseOwn, recordSuspension, deny, recordDenied, settle };
}

/**
 * The refusal a known token's state answers: expired, revoked, or suspended with its reason. A token found active
 * again answers suspended with `reasonIfActive` (its state changed between the statements).
 */
function refusalOf(state: { id: number; user_id: number; agent_id: string; status: AgentTokenStatus; suspended_reason: string | null },
  reasonIfActive: string | null): AppError {
  const code = state.status === 'ACTIVE' ? 'AGENT_TOKEN_SUSPENDED' : REFUSALS[state.status];
  const reason = state.status === 'ACTIVE' ? reasonIfActive : state.suspended_reason;
  return remember(state, new AppError(code, code === 'AGENT_TOKEN_SUSPENDED' ? { extra: { reason } } : {}));
}

/** The context of an authenticated agent request, from the token and delegating-user row. */
function contextOf(row: repo.TokenAndUser & { ancestors?: repo.Ancestor[] | null }, traceId: string | null, now: Date,
  userPermissions: PermissionSet): AgentContext {
  const user = userOf(row);
  const lockedUntil = dateOrNull(row.locked_until);
  const ancestors = row.ancestors ?? [];
  // A delegated token may use what it and every ancestor were granted (docs/agents.md "Delegation").
  const granted = new Set(row.granted_permissions.filter((p) => ancestors.every((a) => a.granted_permissions.includes(p))));
  return {
    tokenId: row.token_id,
    agentId: row.agent_id,
    organizationId: row.organization_id,
    granted,
    chain: [...ancestors.map((a) => ({ id: a.id, agent_id: a.agent_id })), { id: row.token_id, agent_id: row.agent_id }],
    failedCount: row.failed_count,
    user,
    userPermissions,
    userCanAct: user.is_active && !row.is_banned && row.deleted_at === null && (lockedUntil === null || lockedUntil <= now),
    permission: null,
    decision: null,
    approval: null,
    traceId,
  };
}

/** The known token an `AgentBearer` refusal concerns: the activity trail records refused requests too. */
export interface RefusedToken {
  tokenId: number;
  userId: number;
  agentId: string;
}

const refusedTokens = new WeakMap<AppError, RefusedToken>();

/** Notes which token a refusal concerns, for {@link refusedTokenOf}. */
function remember(state: { id: number; user_id: number; agent_id: string }, err: AppError): AppError {
  refusedTokens.set(err, { tokenId: state.id, userId: state.user_id, agentId: state.agent_id });
  return err;
}

/** The token a refusal of {@link AgentAuthService} concerns, when the token was known. */
export const refusedTokenOf = (err: unknown): RefusedToken | undefined =>
  (err instanceof AppError ? refusedTokens.get(err) : undefined);

function userOf(row: repo.TokenAndUser): AuthUser {
  const user: Record<string, unknown> = {};
  for (const column of PUBLIC_USER_COLUMNS) user[column] = row[column];
  user.created_at = new Date(row.created_at);
  user.last_login = dateOrNull(row.last_login);
  return user as unknown as AuthUser;
}

export type AgentAuthService = ReturnType<typeof createAgentAuthService>;
