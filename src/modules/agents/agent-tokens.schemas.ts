import { Type, type Static } from 'typebox';
import { toIso } from '../../core/clock.js';
import { ListQuery } from '../../core/listing.js';
import { Body, Nullable } from '../../http/schema.js';
import type { AgentTokenStatus } from '../../db/database.js';
import { ReauthProofFields } from '../auth/reauth.schemas.js';

/** docs/decisions.md "Agents": the defaults of a token's limits. */
export const AGENT_DEFAULTS = {
  expiresIn: 3600,
  maxRequestsPerMinute: 60,
  maxRequestsTotal: 1000,
  maxFailedRequests: 10,
} as const;

export const AGENT_STATUSES = ['ACTIVE', 'SUSPENDED', 'REVOKED', 'EXPIRED'] as const;
export const SUSPENSION_REASONS = ['RATE_LIMIT', 'ANOMALY', 'HEARTBEAT_MISSING', 'BUDGET_EXCEEDED', 'MANUAL', 'PARENT_SUSPENDED'] as const;

/** Amounts in US dollars: finite, not negative, with at most 8 decimals kept (numeric(20, 8)). */
export const Usd = (description: string) => Type.Number({ minimum: 0, maximum: 1e11, description });
const Limit = (description: string) => Type.Integer({ minimum: 1, maximum: 1_000_000_000, description });

/** the API's keys, or the SDK's `{max_requests, window_seconds}` (rate = max_requests × 60 / window_seconds). */
export const CircuitBreakerBody = Body({
  max_requests_per_minute: Type.Optional(Limit('Requests per minute before the token is suspended (default 60)')),
  max_requests_total: Type.Optional(Limit('Requests in the token\'s life before it is suspended (default 1000)')),
  max_failed_requests: Type.Optional(Limit('Consecutive denied requests before the token is suspended (default 10)')),
  max_requests: Type.Optional(Limit('With window_seconds: requests per window')),
  window_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400, description: 'With max_requests: the window in seconds' })),
});
export type CircuitBreakerInput = Static<typeof CircuitBreakerBody>;

export const DeadMansSwitchBody = Body({
  heartbeat_required_every: Type.Integer({ minimum: 1, maximum: 31_536_000, description: 'Seconds between heartbeats before the token is suspended' }),
});

/** What a token is created with, by its person or (docs/agents.md "Delegation") by its parent. */
const TOKEN_FIELDS = {
  agent_id: Type.String({ minLength: 1, maxLength: 128, description: 'The agent\'s own name for itself' }),
  expires_in: Type.Optional(Type.Integer({ minimum: 1, description: 'Seconds, at most SVC_AIRS_MAX_TOKEN_LIFETIME (default 3600)' })),
  permissions: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 200, default: [] })),
  organization: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Slug: the token acts only there (and below it)' })),
  budget_limit_usd: Type.Optional(Nullable(Usd('Cumulative reported cost at which the token is suspended'))),
  circuit_breaker: Type.Optional(CircuitBreakerBody),
  dead_mans_switch: Type.Optional(Nullable(DeadMansSwitchBody)),
  can_delegate: Type.Optional(Type.Boolean({ description: 'The token may create narrower children for sub-agents (default false)' })),
};

/** With `password` (and `totp_code`) when the sign-in is not recent (docs/security.md "Recent authentication"). */
export const CreateAgentTokenBody = Body({ ...ReauthProofFields, ...TOKEN_FIELDS });
export type CreateAgentTokenInput = Static<typeof CreateAgentTokenBody>;

/**
 * `ai/tokens/<id>/delegate/`: the creation body, asked by the parent with its own AgentBearer (no re-authentication);
 * a child's organization is its parent's.
 */
export const DelegateAgentTokenBody = Body(TOKEN_FIELDS);
export type DelegateAgentTokenInput = Static<typeof DelegateAgentTokenBody>;

/** PUT changes the name and limits, and may narrow the permissions (never widen them). */
export const UpdateAgentTokenBody = Body({
  agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  permissions: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 200 })),
  budget_limit_usd: Type.Optional(Nullable(Usd('Cumulative reported cost at which the token is suspended'))),
  circuit_breaker: Type.Optional(CircuitBreakerBody),
  dead_mans_switch: Type.Optional(Nullable(DeadMansSwitchBody)),
  can_delegate: Type.Optional(Type.Literal(false, { description: 'Only clears it: a token never gains delegation' })),
});
export type UpdateAgentTokenInput = Static<typeof UpdateAgentTokenBody>;

export const AgentTokenListQuery = ListQuery({
  status: Type.Optional(Type.Enum([...AGENT_STATUSES], { type: 'string' })),
  agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
});
export type AgentTokenListInput = Static<typeof AgentTokenListQuery>;

export const AgentTokenParams = Type.Object({ id: Type.String() });

/** One token of a delegation chain (docs/agents.md "Delegation"). */
export const ChainLinkRecord = Type.Object({ id: Type.Integer(), agent_id: Type.String() });

/** docs/decisions.md "Agents": a token record, as lists, detail and action answers show it. */
export const AgentTokenRecord = Type.Object({
  id: Type.Integer(),
  agent_id: Type.String(),
  status: Type.Enum([...AGENT_STATUSES], { type: 'string' }),
  suspended_reason: Nullable(Type.String()),
  granted_permissions: Type.Array(Type.String()),
  organization: Nullable(Type.String({ description: 'The slug of the token\'s organization' })),
  expires_at: Type.String({ format: 'date-time' }),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Nullable(Type.String({ format: 'date-time' })),
  request_count: Type.Integer(),
  current_request_count: Type.Integer({ description: 'Alias of request_count' }),
  failed_count: Type.Integer(),
  spend_usd: Type.Number(),
  budget_limit_usd: Nullable(Type.Number()),
  circuit_breaker: Type.Object({
    max_requests_per_minute: Type.Integer(), max_requests_total: Type.Integer(), max_failed_requests: Type.Integer(),
  }),
  dead_mans_switch: Nullable(Type.Object({ heartbeat_required_every: Type.Integer() })),
  last_heartbeat_at: Nullable(Type.String({ format: 'date-time' })),
  parent_id: Nullable(Type.Integer({ description: 'The token this one was delegated from' })),
  depth: Type.Integer({ description: '1 for a token its person created' }),
  can_delegate: Type.Boolean(),
  chain: Type.Array(ChainLinkRecord, { description: 'From the root to this token, inclusive (its length is depth)' }),
});
export type AgentTokenRecordBody = Static<typeof AgentTokenRecord>;

/** 201: the raw token, shown this once. */
export const AgentTokenCreatedResponse = Type.Object({
  id: Type.Integer(),
  token: Type.String(),
  agent_id: Type.String(),
  status: Type.Enum([...AGENT_STATUSES], { type: 'string' }),
  expires_at: Type.String({ format: 'date-time' }),
  granted_permissions: Type.Array(Type.String()),
  organization: Nullable(Type.String()),
  budget_limit_usd: Nullable(Type.Number()),
});

/** 201 for a child: the creation answer and where the child stands in its chain (docs/agents.md "Delegation"). */
export const DelegatedTokenResponse = Type.Object({
  ...AgentTokenCreatedResponse.properties,
  parent_id: Type.Integer(),
  depth: Type.Integer(),
  can_delegate: Type.Boolean(),
  chain: Type.Array(ChainLinkRecord),
});

export const AgentTokenActionResponse = Type.Object({
  status: Type.Enum(['revoked', 'suspended', 'active'], { type: 'string' }),
  token: AgentTokenRecord,
});

export const RevokeAllResponse = Type.Object({
  message: Type.String(),
  count: Type.Integer(),
  status: Type.Literal('revoked', { description: 'docs/migrating-from-tenxyte.md: the Tenxyte SDK reads `{status, count}`' }),
});

/** A token row with its organization's slug, as the repo reads it. */
export interface AgentTokenView {
  id: number;
  agent_id: string;
  status: AgentTokenStatus;
  suspended_reason: string | null;
  granted_permissions: string[];
  organization_slug: string | null;
  expires_at: Date;
  created_at: Date;
  last_used_at: Date | null;
  request_count: number;
  failed_count: number;
  spend_usd: string;
  budget_limit_usd: string | null;
  max_requests_per_minute: number;
  max_requests_total: number;
  max_failed_requests: number;
  heartbeat_required_every: number | null;
  last_heartbeat_at: Date | null;
  parent_id: number | null;
  depth: number;
  can_delegate: boolean;
  /** From the root to the token, inclusive. */
  chain: { id: number; agent_id: string }[];
}

/** An exact decimal as the JSON number it denotes (0.10000000 → 0.1). */
export const usd = (value: string | null): number | null => (value === null ? null : Number(value));

/** The record of a token; one past its expiry shows `EXPIRED` even before the job has marked it. */
export function toRecord(row: AgentTokenView, now: Date): AgentTokenRecordBody {
  const expired = (row.status === 'ACTIVE' || row.status === 'SUSPENDED') && row.expires_at <= now;
  return {
    id: row.id,
    agent_id: row.agent_id,
    status: expired ? 'EXPIRED' : row.status,
    suspended_reason: row.suspended_reason,
    granted_permissions: row.granted_permissions,
    organization: row.organization_slug,
    expires_at: toIso(row.expires_at)!,
    created_at: toIso(row.created_at)!,
    last_used_at: toIso(row.last_used_at),
    request_count: row.request_count,
    current_request_count: row.request_count,
    failed_count: row.failed_count,
    spend_usd: usd(row.spend_usd)!,
    budget_limit_usd: usd(row.budget_limit_usd),
    circuit_breaker: {
      max_requests_per_minute: row.max_requests_per_minute,
      max_requests_total: row.max_requests_total,
      max_failed_requests: row.max_failed_requests,
    },
    dead_mans_switch: row.heartbeat_required_every === null ? null : { heartbeat_required_every: row.heartbeat_required_every },
    last_heartbeat_at: toIso(row.last_heartbeat_at),
    parent_id: row.parent_id,
    depth: row.depth,
    can_delegate: row.can_delegate,
    chain: row.chain.map((l) => ({ id: Number(l.id), agent_id: l.agent_id })),
  };
}
