import type { Clock } from '../../core/clock.js';
import type { Executor } from '../../db/database.js';
import type { AuditService } from '../audit/audit.service.js';
import * as repo from './agent-tokens.repo.js';

type Deps = {
  clock: Clock; audit: AuditService;
  /** The OAuth grants the person approved, revoked with their agent tokens (docs/oauth.md "Grants"). */
  oauthGrants?: { revokeAllOf(trx: Executor, userId: number, reason: string): Promise<number> };
};

/**
 * What a person delegated dies with their credentials (docs/agents.md "Threat model"): every event that ends all of
 * a person's sessions (logout-all, a password change or reset, a ban, a lock, a deactivation, a deletion) revokes, in
 * its own transaction, the agent tokens they created before it. The agent check also compares each token's creation
 * time with the account's `tokens_valid_after`, and creating a token takes the account row's lock, so no token
 * created concurrently with such an event outlives it. The OAuth grants the person approved, and all they issued, go
 * in the same transaction; a token issued concurrently is refused by its issue time (oauth/accounts.ts).
 */
export function createDelegationService({ clock, audit, oauthGrants }: Deps) {
  async function revokeIssuedBefore(trx: Executor, userId: number, before: Date, reason: string): Promise<number> {
    await oauthGrants?.revokeAllOf(trx, userId, reason);
    const ids = await repo.revokeIssuedBefore(trx, userId, before, clock.now());
    if (ids.length > 0) {
      await audit.record({ event_type: 'agent_tokens_revoked', severity: 'warning', user_id: userId,
        details: { token_ids: ids, count: ids.length, reason } }, trx);
    }
    return ids.length;
  }

  return { revokeIssuedBefore };
}

export type DelegationService = ReturnType<typeof createDelegationService>;
