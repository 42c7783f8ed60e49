/** `GET admin/audit-logs/` rows (src/modules/admin/audit-logs.schemas.ts). */
export interface AuditEvent {
  id: string;
  event_type: string;
  action: string;
  severity: string;
  user: number | null;
  user_email: string | null;
  actor: number | null;
  actor_email: string | null;
  application: number | null;
  application_name: string | null;
  ip_address: string | null;
  user_agent: string | null;
  request_id: string | null;
  prompt_trace_id?: string;
  details: Record<string, unknown>;
  created_at: string;
}

/** `GET admin/login-attempts/` rows (src/modules/admin/security.schemas.ts). */
export interface LoginAttempt {
  id: string;
  identifier: string;
  method: string;
  ip_address: string | null;
  application: number | null;
  success: boolean;
  failure_reason: string | null;
  created_at: string;
}
