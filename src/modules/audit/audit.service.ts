import type { Config } from '../../config/settings.js';
import type { Clock } from '../../core/clock.js';
import type { Db, Executor } from '../../db/database.js';
import * as repo from './audit.repo.js';

export interface AuditEventInput {
  event_type: string;
  severity?: 'info' | 'warning' | 'critical';
  user_id?: number | null;
  actor_id?: number | null;
  application_id?: number | null;
  ip_address?: string | null;
  user_agent?: string | null;
  request_id?: string | null;
  trace_id?: string | null;
  details?: Record<string, unknown>;
}

type Deps = { db: Db; clock: Clock; config: Pick<Config, 'AUDIT_LOGGING_ENABLED'> };

/**
 * Audit events. Routine events follow SVC_AUDIT_LOGGING_ENABLED; security events (severity warning or
 * critical) are always written. Pass `trx` to write inside the caller's transaction.
 */
export function createAuditService({ db, clock, config }: Deps) {
  /** Whether events of this severity are written (callers that write an event inside a statement of their own). */
  const enabled = (severity: 'info' | 'warning' | 'critical') => severity !== 'info' || config.AUDIT_LOGGING_ENABLED;

  async function record(event: AuditEventInput, trx: Executor = db): Promise<number | null> {
    if (!enabled(event.severity ?? 'info')) return null;
    return recordAlways(event, trx);
  }

  /**
   * An event written whatever SVC_AUDIT_LOGGING_ENABLED says, at its own severity: a record the service must be able
   * to show later (each personal-data export, which dashboard/gdpr/ counts).
   */
  async function recordAlways(event: AuditEventInput, trx: Executor = db): Promise<number> {
    const row = await repo.insertAuditEvent(trx, {
      ...event,
      severity: event.severity ?? 'info',
      details: JSON.stringify(event.details ?? {}),
      created_at: clock.now(),
    });
    return row.id;
  }
  return { record, recordAlways, enabled };
}

export type AuditService = ReturnType<typeof createAuditService>;
