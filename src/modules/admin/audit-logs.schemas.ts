import { Type, type Static } from 'typebox';
import { toIso } from '../../core/clock.js';
import { Nullable } from '../../http/schema.js';
import { DateFilter, IdFilter, ListQuery, Ordering } from '../../core/listing.js';
import { actionOf } from './audit-actions.js';
import type { AuditEventRow } from './audit-logs.repo.js';

const EventType = Type.String({ pattern: '^[a-z0-9_.]{1,64}$' });

export const AuditLogQuery = ListQuery({
  user_id: Type.Optional(IdFilter),
  actor_id: Type.Optional(IdFilter),
  event_type: Type.Optional(Type.String({ ...EventType, description: 'An event type, for example user_banned' })),
  action: Type.Optional(Type.String({ ...EventType, description: 'An action code (an event type as the Tenxyte SDK names it)' })),
  severity: Type.Optional(Type.Enum(['info', 'warning', 'critical'])),
  application_id: Type.Optional(IdFilter),
  ip_address: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  prompt_trace_id: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9._:-]{1,128}$', description: 'X-Prompt-Trace-ID of agent requests' })),
  date_from: Type.Optional(DateFilter),
  date_to: Type.Optional(DateFilter),
  ordering: Ordering(['created_at', 'event_type', 'severity'] as const, '-created_at'),
});
export type AuditLogInput = Static<typeof AuditLogQuery>;

/** One audit event: `user` is the account concerned, `actor` who acted when it was someone else (an administrator). */
export const AuditLog = Type.Object({
  id: Type.String(),
  event_type: Type.String(),
  action: Type.String({ description: 'The event type as the Tenxyte SDK names it (login, login_failed, token_refresh, …)' }),
  severity: Type.String(),
  user: Nullable(Type.Integer()),
  user_email: Nullable(Type.String()),
  actor: Nullable(Type.Integer()),
  actor_email: Nullable(Type.String()),
  application: Nullable(Type.Integer()),
  application_name: Nullable(Type.String()),
  ip_address: Nullable(Type.String()),
  user_agent: Nullable(Type.String()),
  request_id: Nullable(Type.String()),
  prompt_trace_id: Type.Optional(Type.String({ description: 'X-Prompt-Trace-ID of the agent request, when it sent one' })),
  details: Type.Record(Type.String(), Type.Unknown()),
  created_at: Type.String({ format: 'date-time' }),
});
export type AuditLogBody = Static<typeof AuditLog>;

export const toAuditLog = (e: AuditEventRow): AuditLogBody => ({
  id: String(e.id), event_type: e.event_type, action: actionOf(e.event_type), severity: e.severity,
  user: e.user_id, user_email: e.user_email,
  actor: e.actor_id, actor_email: e.actor_email, application: e.application_id, application_name: e.application_name,
  ip_address: e.ip_address, user_agent: e.user_agent, request_id: e.request_id,
  ...(e.trace_id !== null ? { prompt_trace_id: e.trace_id } : {}), details: e.details ?? {},
  created_at: toIso(e.created_at)!,
});
