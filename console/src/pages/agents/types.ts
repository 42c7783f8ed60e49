/** DECISIONS.md "Agents": the records the ai/ routes answer. */
export interface AgentToken {
  id: number;
  agent_id: string;
  status: 'ACTIVE' | 'SUSPENDED' | 'REVOKED' | 'EXPIRED';
  suspended_reason: string | null;
  granted_permissions: string[];
  organization: string | null;
  expires_at: string;
  created_at: string;
  last_used_at: string | null;
  request_count: number;
  failed_count: number;
  spend_usd: number;
  budget_limit_usd: number | null;
  circuit_breaker: { max_requests_per_minute: number; max_requests_total: number; max_failed_requests: number };
  dead_mans_switch: { heartbeat_required_every: number } | null;
  last_heartbeat_at: string | null;
}

export interface CreatedToken { id: number; token: string; agent_id: string; expires_at: string }

export interface PendingAction {
  id: number;
  agent_id: string;
  agent_token_id: number;
  permission: string | null;
  method: string;
  path: string;
  payload: unknown;
  prompt_trace_id: string | null;
  status: string;
  expires_at: string;
  created_at: string;
}

export interface Activity {
  id: number;
  method: string;
  path: string;
  permission: string | null;
  decision: 'allow' | 'deny' | 'pending';
  status: number;
  prompt_trace_id: string | null;
  created_at: string;
}
