import { Type, type Static } from 'typebox';
import { toIso } from '../../core/clock.js';
import { ListQuery } from '../../core/listing.js';
import { Nullable } from '../../http/schema.js';
import type { AgentDecision } from './agent-context.js';

/** The audit event type of an agent request's row. */
export const AGENT_ACTION_EVENT = 'agent_action';

/** docs/decisions.md "Agents": the form of `X-Prompt-Trace-ID`, also the form a trace filter must have. */
export const PromptTraceId = Type.String({ pattern: '^[A-Za-z0-9._:-]{1,128}$', description: 'An X-Prompt-Trace-ID value' });

export const AgentActivityQuery = ListQuery({
  prompt_trace_id: Type.Optional(PromptTraceId),
});
export type AgentActivityInput = Static<typeof AgentActivityQuery>;

/** The `details` of an `agent_action` audit row. */
export interface AgentActionDetails {
  token_id: number;
  agent_id: string;
  method: string;
  path: string;
  permission: string | null;
  decision: AgentDecision;
  status: number;
  prompt_trace_id: string | null;
}

/** One agent request as its owner sees it, newest first. */
export const AgentActivityRow = Type.Object({
  id: Type.Integer(),
  token_id: Type.Integer({ description: 'The agent token that made the request' }),
  agent_id: Type.String({ description: 'The token\'s agent_id when the request was made' }),
  method: Type.String(),
  path: Type.String({ description: 'The path called, without its query string' }),
  permission: Nullable(Type.String({ description: 'The permission the route checked, if any' })),
  decision: Type.Enum(['allow', 'deny', 'pending'], { type: 'string' }),
  status: Type.Integer({ description: 'The HTTP status answered' }),
  prompt_trace_id: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  seq: Nullable(Type.Integer({ description: 'The row\'s place in its root token\'s trail (docs/agents.md "The trail")' })),
  prev_hash: Nullable(Type.String({ description: 'The hash of the trail row before it; null for the first' })),
  hash: Nullable(Type.String({ description: 'SHA-256 (hex) of the row\'s canonical form' })),
});
export type AgentActivityBody = Static<typeof AgentActivityRow>;

export const toActivityRow = (row: { id: number; details: unknown; created_at: Date; seq: number | string | null; prev_hash: string | null;
  hash: string | null }): AgentActivityBody => {
  const d = row.details as AgentActionDetails;
  return {
    id: row.id, token_id: d.token_id, agent_id: d.agent_id, method: d.method, path: d.path, permission: d.permission, decision: d.decision, status: d.status,
    prompt_trace_id: d.prompt_trace_id, created_at: toIso(row.created_at)!,
    seq: row.seq === null ? null : Number(row.seq), prev_hash: row.seq === null ? null : row.prev_hash, hash: row.hash,
  };
};
