import { Type, type Static } from 'typebox';
import { toIso } from '../../core/clock.js';
import { IdFilter, ListQuery } from '../../core/listing.js';
import { Body, Nullable } from '../../http/schema.js';
import type { PendingActionStatus } from '../../db/database.js';
import type { PendingActionView } from './pending-actions.repo.js';

/**
 * docs/agents.md "Human approval": an action not decided yet reads `pending_confirmation`, the word of the 202 the agent
 * got (the API's pending action); the stored status stays `pending`.
 */
export const PENDING_ACTION_STATUSES = ['pending_confirmation', 'approved', 'rejected', 'executed'] as const;
type PendingActionWireStatus = (typeof PENDING_ACTION_STATUSES)[number];
const wireStatus = (status: PendingActionStatus): PendingActionWireStatus => (status === 'pending' ? 'pending_confirmation' : status);

/** docs/decisions.md "Agents": the 202 an agent gets when its call waits for the delegating user's approval. */
export const PendingActionBody = Type.Object({
  status: Type.Literal('pending_confirmation'),
  message: Type.String(),
  confirmation_token: Type.String({ description: 'Repeat the same request with it in X-Action-Confirmation once approved' }),
  expires_at: Type.String({ format: 'date-time' }),
  action_id: Type.Integer(),
});
export type PendingActionBody = Static<typeof PendingActionBody>;

/** A pending action as the delegating user's list and decision answers show it (payload redacted when stored). */
export const PendingActionRow = Type.Object({
  id: Type.Integer(),
  agent_id: Type.String(),
  agent_token_id: Type.Integer(),
  permission: Nullable(Type.String()),
  method: Type.String(),
  path: Type.String({ description: 'Path and query string, parameters sorted' }),
  payload: Type.Unknown({ description: 'The request body, with password, secret, token and code values redacted' }),
  prompt_trace_id: Nullable(Type.String()),
  confirmation_token: Type.String(),
  status: Type.Enum([...PENDING_ACTION_STATUSES], { type: 'string' }),
  expires_at: Type.String({ format: 'date-time' }),
  created_at: Type.String({ format: 'date-time' }),
});
export type PendingActionRowBody = Static<typeof PendingActionRow>;

export const PendingActionListQuery = ListQuery({
  agent_token_id: Type.Optional(IdFilter),
});
export type PendingActionListInput = Static<typeof PendingActionListQuery>;

export const PendingActionParams = Type.Object({ id: Type.String() });

/** docs/migrating-from-tenxyte.md: confirm/ and deny/ name the action by its confirmation token. */
export const ConfirmationTokenBody = Body({ token: Type.String({ minLength: 1, maxLength: 200 }) });
export type ConfirmationTokenInput = Static<typeof ConfirmationTokenBody>;

export const DECISION_STATUSES = ['approved', 'rejected', 'confirmed', 'denied'] as const;
export type DecisionStatus = (typeof DECISION_STATUSES)[number];

export const PendingActionDecisionResponse = Type.Object({
  status: Type.Enum([...DECISION_STATUSES], { type: 'string' }),
  message: Type.String(),
  action: PendingActionRow,
});

/** The row of an action; its confirmation token is derived again from the stored nonce. */
export const toActionRow = (row: PendingActionView, confirmationToken: string): PendingActionRowBody => ({
  id: row.id,
  agent_id: row.agent_id,
  agent_token_id: row.agent_token_id,
  permission: row.permission,
  method: row.method,
  path: row.path,
  payload: row.payload,
  prompt_trace_id: row.prompt_trace_id,
  confirmation_token: confirmationToken,
  status: wireStatus(row.status),
  expires_at: toIso(row.expires_at)!,
  created_at: toIso(row.created_at)!,
});
