import type { Config } from '../../config/settings.js';
import { addSeconds, type Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import { sha256Hex } from '../../security/random.js';
import type { AuditService } from '../audit/audit.service.js';
import { orgContextIfMember, type OrgContextResolver } from '../organizations/org-context.js';
import type { AgentAuthService } from './agent-auth.service.js';
import type { AgentContext } from './agent-context.js';
import { agentAdmitted } from './agent-policy.js';
import { AGENT_DEFAULTS, toRecord, type DelegateAgentTokenInput } from './agent-tokens.schemas.js';
import * as tokens from './agent-tokens.repo.js';
import { findParent, type ParentRow } from './child-tokens.repo.js';
import { newAgentToken, toDecimal, tokenRow } from './token-rows.js';

type Deps = { db: Db; clock: Clock; config: Config; audit: AuditService; agentAuth: AgentAuthService; orgs: OrgContextResolver };

/** An amount in US dollars as integer hundred-millionths (the columns keep 8 decimals), to compare exactly. */
function units(decimal: string): bigint {
  const [whole, fraction = ''] = decimal.trim().split('.');
  const negative = whole!.startsWith('-');
  const value = BigInt(whole!.replace('-', '') || '0') * 100_000_000n + BigInt((fraction + '00000000').slice(0, 8));
  return negative ? -value : value;
}

/** Why a delegation is refused once the parent is locked: its state, or what it cannot give. */
type Refusal = { code: 'AGENT_TOKEN_REVOKED' | 'AGENT_TOKEN_EXPIRED' | 'AGENT_TOKEN_SUSPENDED'; reason?: string | null }
  | { code: 'AGENT_PERMISSION_DENIED'; why: string; field: DelegationField };

/** What a refused delegation asked beyond its parent. */
export type DelegationField = 'can_delegate' | 'organization' | 'permissions' | 'expires_in' | 'budget_limit_usd';

/**
 * docs/agents.md "Delegation": a token created with `can_delegate` hands a child to a sub-agent, asking with its own
 * AgentBearer (the request is counted and in its trail like any other). A child only narrows its parent's grant at that
 * moment — permissions, expiry, budget (reserved from what the parent has left, under the parent's lock), delegation —
 * and is bound to the parent's organization, at most `SVC_AIRS_MAX_DELEGATION_DEPTH` deep. A refusal creates nothing
 * and counts as a denied request of the parent (the anomaly breaker).
 */
export function createChildTokenService({ db, clock, config, audit, agentAuth, orgs }: Deps) {
  /** `field`: what the child asked beyond its parent (the token-exchange grant answers `invalid_scope` for `permissions`). */
  const denied = (agent: AgentContext, why: string, field: DelegationField): Promise<never> =>
    agentAuth.deny(agent, 'AGENT_PERMISSION_DENIED', { reason: why, field });

  /** What the parent may give now: its grant ∩ its ancestors' ∩ what its person holds (in its organization for a bound one). */
  async function grantable(agent: AgentContext, parent: ParentRow): Promise<(code: string) => boolean> {
    if (parent.organization_slug === null) return (code) => agent.granted.has(code) && agent.userPermissions.has(code);
    const context = await orgContextIfMember(orgs, parent.organization_slug, agent.user.id);
    return (code) => agent.granted.has(code) && (context?.permissions.has(code) ?? false);
  }

  /** The checks that need no lock: delegation allowed, depth, organization, permissions, expiry. Answers the child's. */
  async function narrowed(agent: AgentContext, parent: ParentRow, input: DelegateAgentTokenInput, now: Date) {
    if (!parent.can_delegate) return denied(agent, 'This token cannot delegate (can_delegate is false).', 'can_delegate');
    if (parent.depth + 1 > config.AIRS_MAX_DELEGATION_DEPTH) {
      agent.decision = 'deny';
      throw new AppError('DELEGATION_DEPTH_EXCEEDED', { details: { max_depth: config.AIRS_MAX_DELEGATION_DEPTH } });
    }
    if (input.organization !== undefined && input.organization.trim().toLowerCase() !== parent.organization_slug) {
      return denied(agent, 'A child acts in its parent\'s organization.', 'organization');
    }
    const permissions = [...new Set(input.permissions ?? [])].sort();
    const may = await grantable(agent, parent);
    const wider = permissions.filter((c) => !may(c));
    if (wider.length > 0) return denied(agent, `Not the parent's to give: ${wider.join(', ')}.`, 'permissions');
    const remaining = Math.floor((parent.expires_at.getTime() - now.getTime()) / 1000);
    const expiresIn = input.expires_in ?? Math.min(AGENT_DEFAULTS.expiresIn, remaining);
    if (expiresIn > remaining || expiresIn < 1) return denied(agent, 'A child cannot outlive its parent.', 'expires_in');
    return { permissions, expiresAt: addSeconds(now, expiresIn) };
  }

  /** The checks made under the parent's lock: still active, and the budget within what it has left. */
  function refusalUnderLock(parent: ParentRow | undefined, input: DelegateAgentTokenInput, now: Date): Refusal | null {
    if (!parent || parent.status === 'REVOKED') return { code: 'AGENT_TOKEN_REVOKED' };
    if (parent.status === 'EXPIRED' || parent.expires_at <= now) return { code: 'AGENT_TOKEN_EXPIRED' };
    if (parent.status === 'SUSPENDED') return { code: 'AGENT_TOKEN_SUSPENDED', reason: parent.suspended_reason };
    if (!parent.can_delegate) return { code: 'AGENT_PERMISSION_DENIED', why: 'This token cannot delegate (can_delegate is false).', field: 'can_delegate' };
    if (parent.remaining_usd === null) return null;
    const budget = toDecimal(input.budget_limit_usd);
    if (budget === null || budget === undefined) {
      return { code: 'AGENT_PERMISSION_DENIED', why: 'Under a budgeted parent a child states its budget.', field: 'budget_limit_usd' };
    }
    if (units(budget) > units(parent.remaining_usd)) {
      return { code: 'AGENT_PERMISSION_DENIED', why: `More than the parent has left to give (${Number(parent.remaining_usd)} USD).`,
        field: 'budget_limit_usd' };
    }
    return null;
  }

  /**
   * POST ai/tokens/<id>/delegate/ with the parent's own AgentBearer; the token-exchange grant passes the `credential`
   * its child will be presented with (its JWT's identifier) instead of a new `gha_` token.
   */
  async function delegate(agent: AgentContext, parentId: number, input: DelegateAgentTokenInput, opts: { credentialHash?: string } = {}) {
    if (agent.tokenId !== parentId) {
      agent.decision = 'deny';
      throw new AppError('AGENT_TOKEN_MISMATCH');
    }
    await agentAdmitted(agentAuth, agent);
    const now = clock.now();
    const seen = await findParent(db, parentId, now, false);
    if (!seen) throw new AppError('AGENT_TOKEN_REVOKED');
    const child = await narrowed(agent, seen, input, now);
    const raw = opts.credentialHash === undefined ? newAgentToken() : null;
    const outcome = await db.transaction().execute(async (trx) => {
      const parent = await findParent(trx, parentId, now, true);
      const refusal = refusalUnderLock(parent, input, now);
      if (refusal) return { refusal };
      const { id } = await tokens.insertToken(trx, tokenRow(input, { userId: parent!.user_id, organizationId: parent!.organization_id,
        tokenHash: raw === null ? opts.credentialHash! : sha256Hex(raw), permissions: child.permissions, expiresAt: child.expiresAt, now, parent: parent! }));
      await audit.record({ event_type: 'agent_token_delegated', user_id: parent!.user_id,
        details: { token_id: id, parent_id: parentId, agent_id: input.agent_id, permissions: child.permissions } }, trx);
      return { id };
    });
    if ('refusal' in outcome) {
      // The parent's row is no longer held: a denial may be counted on it.
      const r = outcome.refusal!;
      if (r.code === 'AGENT_PERMISSION_DENIED') return denied(agent, r.why, r.field);
      agent.decision = 'deny';
      throw new AppError(r.code, r.code === 'AGENT_TOKEN_SUSPENDED' ? { extra: { reason: r.reason ?? null } } : {});
    }
    const record = toRecord((await tokens.findOwnToken(db, agent.user.id, outcome.id))!, now);
    return {
      id: record.id, token: raw ?? '', agent_id: record.agent_id, status: record.status, expires_at: record.expires_at,
      granted_permissions: record.granted_permissions, organization: record.organization, budget_limit_usd: record.budget_limit_usd,
      parent_id: parentId, depth: record.depth, can_delegate: record.can_delegate, chain: record.chain,
    };
  }

  return { delegate };
}

export type ChildTokenService = ReturnType<typeof createChildTokenService>;
