import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { randomHex, sha256Hex } from '../../security/random.js';
import type { AuditService } from '../audit/audit.service.js';
import { AGENT_DEFAULTS } from './agent-tokens.schemas.js';
import * as repo from './grant-delegations.repo.js';

/** The limits a grant's delegation gets: set by the person at consent for an agent client, else these defaults. */
export interface DelegationLimits {
  maxRequestsPerMinute: number;
  budgetLimitUsd: number | null;
}

/** What a verified client's grant may do through `ai/authorize/` (docs/oauth.md "Grants and ai/authorize/"). */
export const GRANT_DEFAULTS = {
  maxRequestsPerMinute: AGENT_DEFAULTS.maxRequestsPerMinute,
  /** A grant lives as long as its refresh tokens: its total is bounded by the per-minute rate rather than by a count. */
  maxRequestsTotal: 1_000_000_000,
  maxFailedRequests: AGENT_DEFAULTS.maxFailedRequests,
} as const;

export interface GrantBinding {
  userId: number;
  grantId: string;
  clientId: string;
  /** The permission scopes granted to the client (for every resource of the grant). */
  permissions: string[];
  organizationId: number | null;
  expiresAt: Date;
  limits: DelegationLimits;
}

type Deps = { db: Db; clock: Clock; audit: AuditService };

/**
 * Every OAuth grant for a registered resource is a delegation (docs/oauth.md "Grants and ai/authorize/"): an agent token
 * row whose secret no one holds, bound to the grant. `ai/authorize/` counts a grant's access tokens against it, so the
 * double check, breakers, budget and approvals are an agent token's; it ends with the grant, and with the person's
 * sessions like every agent token.
 */
export function createGrantDelegationService({ db, clock, audit }: Deps) {
  async function bind(b: GrantBinding): Promise<number> {
    const now = clock.now();
    return db.transaction().execute(async (trx) => {
      const row = await repo.upsertGrantDelegation(trx, {
        user_id: b.userId, organization_id: b.organizationId, agent_id: b.clientId,
        // A hash of nothing anyone holds: the delegation is reached through its grant's access tokens only.
        token_hash: sha256Hex(`oauth-grant:${randomHex(32)}`), oauth_grant_id: b.grantId,
        granted_permissions: [...new Set(b.permissions)].sort(), expires_at: b.expiresAt,
        max_requests_per_minute: b.limits.maxRequestsPerMinute, max_requests_total: GRANT_DEFAULTS.maxRequestsTotal,
        max_failed_requests: GRANT_DEFAULTS.maxFailedRequests, heartbeat_required_every: null,
        budget_limit_usd: b.limits.budgetLimitUsd === null ? null : b.limits.budgetLimitUsd.toFixed(8),
        spend_usd: '0', created_at: now, updated_at: now,
      });
      await audit.record({ event_type: 'oauth_grant_delegated', user_id: b.userId, details: { token_id: row.id, grant_id: b.grantId,
        client_id: b.clientId, permissions: row.granted_permissions, organization_id: b.organizationId } }, trx);
      return row.id;
    });
  }

  return { bind };
}

export type GrantDelegationService = ReturnType<typeof createGrantDelegationService>;
