import type { Config } from '../../config/settings.js';
import { addSeconds, type Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { pageRequest } from '../../core/pagination.js';
import type { AgentTokenStatus, Db, Executor } from '../../db/database.js';
import { sha256Hex } from '../../security/random.js';
import type { AuditService } from '../audit/audit.service.js';
import type { SecurityNoticeService } from '../users/security-notices.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.service.js';
import { resolveOrgContext, type OrgContextResolver } from '../organizations/org-context.js';
import type { RequestMeta } from '../../core/request-meta.js';
import { auditOrigin } from '../rbac/actor.js';
import { assertHoldsAll, type PermissionSource } from '../rbac/permission-set.js';
import type { SessionService } from '../sessions/sessions.service.js';
import { breakerLimits, newAgentToken, toDecimal, tokenRow } from './token-rows.js';
import {
  AGENT_DEFAULTS, toRecord,
  type AgentTokenListInput, type CircuitBreakerInput, type CreateAgentTokenInput, type UpdateAgentTokenInput,
} from './agent-tokens.schemas.js';
import * as repo from './agent-tokens.repo.js';

type Deps = {
  db: Db; clock: Clock; config: Config; audit: AuditService; rbac: PermissionSource; orgs: OrgContextResolver; events: WebhookEvents;
  sessions: Pick<SessionService, 'holdIfCurrent'>;
  notices: SecurityNoticeService;
};

/** The delegating user, as the token routes see them. */
export interface TokenOwner {
  id: number;
  is_superuser: boolean;
  meta: RequestMeta;
  /** The session of the bearer making the request, and when its access token was issued (seconds). */
  session: { id: number; issuedAt: number };
}

/**
 * docs/decisions.md "Agents": a user's agent tokens. The secret is `gha_` + 256 random bits, shown once; only its SHA-256
 * is stored. A token is granted only what its user holds (in its organization when it has one), and PUT can only
 * narrow that.
 */
export function createAgentTokenService({ db, clock, config, audit, rbac, orgs, events, sessions, notices }: Deps) {
  const event = (owner: TokenOwner, event_type: string, details: Record<string, unknown>, severity: 'info' | 'warning' = 'info') =>
    audit.record({ event_type, severity, user_id: owner.id, ...auditOrigin(owner), details });

  /** The organization a token is bound to, and what the user holds there; or the user's global permissions. */
  async function scopeOf(owner: TokenOwner, slug: string | undefined) {
    if (slug === undefined) return { organizationId: null, held: await rbac.permissionsOf(owner) };
    if (!config.ORGANIZATIONS_ENABLED) throw AppError.validation({ organization: ['Organizations are not enabled (SVC_ORGANIZATIONS_ENABLED is off).'] });
    const context = await resolveOrgContext(orgs, slug.trim().toLowerCase(), owner.id);
    return { organizationId: context.organization.id, held: { all: false, has: (c: string) => context.permissions.has(c) } };
  }

  async function create(owner: TokenOwner, input: CreateAgentTokenInput) {
    const expiresIn = input.expires_in ?? AGENT_DEFAULTS.expiresIn;
    if (expiresIn > config.AIRS_MAX_TOKEN_LIFETIME) {
      throw AppError.validation({ expires_in: [`Ensure this value is less than or equal to ${config.AIRS_MAX_TOKEN_LIFETIME}.`] });
    }
    const permissions = [...new Set(input.permissions ?? [])].sort();
    const scope = await scopeOf(owner, input.organization);
    const unknown = await repo.unknownCodes(db, permissions, scope.organizationId !== null);
    if (unknown.length > 0) throw new AppError('PERMISSIONS_NOT_FOUND', { details: { permissions: unknown } });
    assertHoldsAll(scope.held, permissions);
    breakerLimits(input.circuit_breaker); // refuses contradictory limits before anything is written
    const raw = newAgentToken();
    const now = clock.now();
    const id = await db.transaction().execute(async (trx) => {
      // A logout-all, password change or ban committed since the bearer was checked ends what this would create: the
      // account's row is held until the token is stored, so such an event either came first (refused here) or waits
      // and then revokes the new token with the others (docs/agents.md "Threat model").
      if (!await sessions.holdIfCurrent(trx, owner.id, owner.session.id, owner.session.issuedAt)) throw new AppError('TOKEN_BLACKLISTED');
      const inserted = await repo.insertToken(trx, tokenRow(input, { userId: owner.id, organizationId: scope.organizationId, tokenHash: sha256Hex(raw),
        permissions, expiresAt: addSeconds(now, expiresIn), now }));
      await audit.record({ event_type: 'agent_token_created', user_id: owner.id, ...auditOrigin(owner),
        details: { token_id: inserted.id, agent_id: input.agent_id, permissions, organization: input.organization ?? null } }, trx);
      await notices.agentTokenCreated(trx, owner.id, { agentId: input.agent_id, permissions, expiresAt: addSeconds(now, expiresIn) });
      return inserted.id;
    });
    notices.deliver();
    const record = toRecord((await repo.findOwnToken(db, owner.id, id))!, now);
    return {
      id, token: raw, agent_id: record.agent_id, status: record.status, expires_at: record.expires_at,
      granted_permissions: record.granted_permissions, organization: record.organization, budget_limit_usd: record.budget_limit_usd,
    };
  }

  async function list(owner: TokenOwner, query: AgentTokenListInput) {
    const page = pageRequest(query);
    const now = clock.now();
    const { rows, count } = await repo.listOwnTokens(db, owner.id, { status: query.status, agentId: query.agent_id }, now,
      { limit: page.pageSize, offset: page.offset });
    return { results: rows.map((r) => toRecord(r, now)), count, page };
  }

  /** Every token of the person, as their records show them (the data export reads them in its transaction). */
  const recordsOf = async (executor: Executor, userId: number) => {
    const now = clock.now();
    return (await repo.allTokensOf(executor, userId)).map((r) => toRecord(r, now));
  };

  async function found(owner: TokenOwner, id: number) {
    const row = await repo.findOwnToken(db, owner.id, id);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  const get = async (owner: TokenOwner, id: number) => toRecord(await found(owner, id), clock.now());

  async function update(owner: TokenOwner, id: number, input: UpdateAgentTokenInput) {
    const now = clock.now();
    const current = toRecord(await found(owner, id), now);
    if (current.status === 'REVOKED' || current.status === 'EXPIRED') {
      throw AppError.validation({ status: [`A token that is ${current.status.toLowerCase()} cannot be changed.`] });
    }
    let permissions: string[] | undefined;
    if (input.permissions !== undefined) {
      permissions = [...new Set(input.permissions)].sort();
      const widened = permissions.filter((c) => !current.granted_permissions.includes(c));
      if (widened.length > 0) {
        throw AppError.validation({ permissions: [`Permissions can only be narrowed; not granted to this token: ${widened.join(', ')}.`] });
      }
    }
    // A child only narrows (docs/agents.md "Delegation"): its budget was reserved from its parent's.
    const row = await found(owner, id);
    if (row.parent_id !== null && input.budget_limit_usd !== undefined && row.budget_limit_usd !== null
      && (input.budget_limit_usd === null || input.budget_limit_usd > Number(row.budget_limit_usd))) {
      throw AppError.validation({ budget_limit_usd: ['A delegated token\'s budget can only be lowered.'] });
    }
    const limits = breakerLimits(input.circuit_breaker);
    await repo.updateToken(db, owner.id, id, {
      ...(input.can_delegate === false ? { can_delegate: false } : {}),
      ...(input.agent_id !== undefined ? { agent_id: input.agent_id } : {}),
      ...(permissions !== undefined ? { granted_permissions: permissions } : {}),
      ...(input.budget_limit_usd !== undefined ? { budget_limit_usd: toDecimal(input.budget_limit_usd) } : {}),
      ...(input.dead_mans_switch !== undefined ? { heartbeat_required_every: input.dead_mans_switch?.heartbeat_required_every ?? null } : {}),
      ...limits,
      updated_at: now,
    });
    await event(owner, 'agent_token_updated', { token_id: id, changes: Object.keys(input).sort() });
    return get(owner, id);
  }

  /** A status change the owner asked for; `from` are the states it may leave (anything else answers 400). */
  async function transition(owner: TokenOwner, id: number, from: AgentTokenStatus[], to: AgentTokenStatus,
    reason: string | null, eventType: string, resetWindow = false) {
    const now = clock.now();
    const before = toRecord(await found(owner, id), now);
    if (before.status !== to) {
      const changed = await repo.changeStatus(db, owner.id, id, from, { status: to, suspended_reason: reason, now, resetWindow });
      if (!changed) {
        const current = toRecord(await found(owner, id), clock.now());
        if (current.status !== to) {
          const held = to === 'ACTIVE' && current.status === 'SUSPENDED' && current.parent_id !== null;
          throw AppError.validation({ status: [held ? 'A token whose ancestor is not active cannot be resumed: resume the ancestor.'
            : `A token that is ${current.status.toLowerCase()} cannot become ${to.toLowerCase()}.`] });
        }
      } else {
        await event(owner, eventType, { token_id: id, agent_id: before.agent_id, from: before.status, reason },
          to === 'ACTIVE' ? 'info' : 'warning');
        if (to === 'SUSPENDED') {
          await events.emit(db, 'agent.suspended', { user_id: owner.id, agent_token_id: id, agent_id: before.agent_id, reason });
        }
      }
    }
    return get(owner, id);
  }

  const revoke = async (owner: TokenOwner, id: number) =>
    ({ status: 'revoked' as const, token: await transition(owner, id, ['ACTIVE', 'SUSPENDED', 'EXPIRED'], 'REVOKED', null, 'agent_token_revoked') });
  const suspend = async (owner: TokenOwner, id: number) =>
    ({ status: 'suspended' as const, token: await transition(owner, id, ['ACTIVE'], 'SUSPENDED', 'MANUAL', 'agent_token_suspended') });
  const resume = async (owner: TokenOwner, id: number) =>
    ({ status: 'active' as const, token: await transition(owner, id, ['SUSPENDED'], 'ACTIVE', null, 'agent_token_resumed', true) });

  async function revokeAll(owner: TokenOwner) {
    const ids = await repo.revokeAllOf(db, owner.id, clock.now());
    if (ids.length > 0) await event(owner, 'agent_tokens_revoked_all', { token_ids: ids, count: ids.length }, 'warning');
    return { message: `${ids.length} agent token${ids.length === 1 ? '' : 's'} revoked.`, count: ids.length, status: 'revoked' as const };
  }

  return { create, list, get, update, revoke, suspend, resume, revokeAll, recordsOf };
}

export type AgentTokenService = ReturnType<typeof createAgentTokenService>;
