import type { PermissionSet } from '../rbac/permission-set.js';
import type { AuthUser } from '../sessions/bearer.service.js';

/** The prefix of every agent token: `gha_` and 43 base64url characters (256 bits). */
export const AGENT_TOKEN_PREFIX = 'gha_';
export const AGENT_TOKEN_PATTERN = /^gha_[A-Za-z0-9_-]{43}$/;

/** What an agent request is granted, decided by the guards and read by the hooks that answer and audit it. */
export type AgentDecision = 'allow' | 'deny' | 'pending';

/** One token of a delegation chain, as records and answers show it. */
export interface ChainLink { id: number; agent_id: string }

/** An authenticated agent request: its token, the delegating user as they are now, and what the guards decided. */
export interface AgentContext {
  tokenId: number;
  agentId: string;
  /** The organization the token acts in (and, with inheritance, below it), or null for a token without one. */
  organizationId: number | null;
  /** What the token may use: its grant ∩ every ancestor's. */
  granted: ReadonlySet<string>;
  /** The tokens from the root to this one (docs/agents.md "Delegation"); just this one for a token its person created. */
  chain: readonly ChainLink[];
  /** Consecutive denials before this request. */
  failedCount: number;
  /** The delegating user, with the public fields. */
  user: AuthUser;
  /** The delegating user's current effective (global) permissions. */
  userPermissions: PermissionSet;
  /** False while the delegating user is banned, inactive, locked or deleted: the token can do nothing. */
  userCanAct: boolean;
  /** The permission the route checked, once a permission or organization guard ran. */
  permission: string | null;
  decision: AgentDecision | null;
  /**
   * Set by a guard when this request must wait for the delegating user's approval; with `when`, only if the parsed body
   * asks for what needs it (a change of an account's privileges or standing).
   */
  approval: { permission: string | null; when?: (body: unknown) => boolean } | null;
  /** `X-Prompt-Trace-ID` when well-formed. */
  traceId: string | null;
  /** Hex SHA-256 of the raw request body, set by the JSON parser (absent when the request has no body). */
  bodySha256?: string;
}

const TRACE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A malformed trace id is ignored, not refused (docs/agents.md "Trace and activity"). */
export const traceIdOf = (header: unknown): string | null =>
  typeof header === 'string' && TRACE_ID.test(header) ? header : null;
