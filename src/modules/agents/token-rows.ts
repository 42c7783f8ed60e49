import { AppError } from '../../core/errors.js';
import type { NewRow } from '../../db/database.js';
import { newOpaqueToken } from '../../security/random.js';
import { AGENT_TOKEN_PREFIX } from './agent-context.js';
import { AGENT_DEFAULTS, type CircuitBreakerInput, type DelegateAgentTokenInput } from './agent-tokens.schemas.js';

// The row of a new agent token, whether its person created it or its parent delegated it (docs/agents.md "Tokens",
// "Delegation"), and the limits it is created with.

/** A new token's secret: `gha_` + 256 random bits; only its SHA-256 is stored. */
export const newAgentToken = () => `${AGENT_TOKEN_PREFIX}${newOpaqueToken(32).raw}`;

/** `budget_limit_usd` as the exact decimal the column keeps (8 places). */
export const toDecimal = (value: number | null | undefined): string | null | undefined =>
  (value === null || value === undefined ? value : value.toFixed(8));

/**
 * The per-minute rate of either key form: the API's `max_requests_per_minute`, or the SDK's `max_requests` per
 * `window_seconds` (docs/migrating-from-tenxyte.md; rate = max_requests × 60 / window_seconds, at least 1). Both forms naming
 * different rates → 400 on the SDK's field: the caller meant one of them, and a guess could loosen the breaker.
 */
export function breakerLimits(input: CircuitBreakerInput | undefined) {
  if (!input) return {};
  let perMinute = input.max_requests_per_minute;
  if (input.max_requests !== undefined || input.window_seconds !== undefined) {
    if (input.max_requests === undefined || input.window_seconds === undefined) {
      const missing = input.max_requests === undefined ? 'max_requests' : 'window_seconds';
      throw AppError.validation({ [`circuit_breaker.${missing}`]: ['max_requests and window_seconds go together.'] });
    }
    const derived = Math.max(1, Math.floor((input.max_requests * 60) / input.window_seconds));
    if (perMinute !== undefined && perMinute !== derived) {
      const message = 'Must match max_requests_per_minute (max_requests × 60 / window_seconds).';
      throw AppError.validation({ 'circuit_breaker.max_requests': [message] });
    }
    perMinute = derived;
  }
  return {
    ...(perMinute !== undefined ? { max_requests_per_minute: perMinute } : {}),
    ...(input.max_requests_total !== undefined ? { max_requests_total: input.max_requests_total } : {}),
    ...(input.max_failed_requests !== undefined ? { max_failed_requests: input.max_failed_requests } : {}),
  };
}

/** Where a new token stands: its person, organization, parent, and what it was granted. */
export interface TokenPlace {
  userId: number;
  organizationId: number | null;
  tokenHash: string;
  permissions: string[];
  expiresAt: Date;
  now: Date;
  /** A child's parent (docs/agents.md "Delegation"). */
  parent?: { id: number; depth: number; ancestor_ids: number[] };
}

/** The row a token is inserted as: the body's limits (or the defaults) at its place. */
export function tokenRow(input: DelegateAgentTokenInput, at: TokenPlace): NewRow<'agent_tokens'> {
  const limits = breakerLimits(input.circuit_breaker);
  return {
    user_id: at.userId, organization_id: at.organizationId, agent_id: input.agent_id.trim() || input.agent_id,
    token_hash: at.tokenHash, granted_permissions: at.permissions, expires_at: at.expiresAt,
    max_requests_per_minute: limits.max_requests_per_minute ?? AGENT_DEFAULTS.maxRequestsPerMinute,
    max_requests_total: limits.max_requests_total ?? AGENT_DEFAULTS.maxRequestsTotal,
    max_failed_requests: limits.max_failed_requests ?? AGENT_DEFAULTS.maxFailedRequests,
    heartbeat_required_every: input.dead_mans_switch?.heartbeat_required_every ?? null,
    budget_limit_usd: toDecimal(input.budget_limit_usd) ?? null,
    can_delegate: input.can_delegate ?? false,
    ...(at.parent ? { parent_id: at.parent.id, depth: at.parent.depth + 1, ancestor_ids: [...at.parent.ancestor_ids, at.parent.id] } : {}),
    spend_usd: '0', created_at: at.now, updated_at: at.now,
  };
}
