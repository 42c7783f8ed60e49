import { AppError } from '../../core/errors.js';
import { pageRequest } from '../../core/pagination.js';
import type { Db } from '../../db/database.js';
import { dateRange, orderOf } from '../../core/listing.js';
import { eventTypeFilter } from './audit-actions.js';
import * as repo from './audit-logs.repo.js';
import { toAuditLog, type AuditLogInput } from './audit-logs.schemas.js';

/** Audit rows still queued for writing (agent requests' rows): a read waits for them. */
interface PendingRows { flush(): Promise<void> }

type Deps = { db: Db; pending?: PendingRows };

/** GET admin/audit-logs/ and admin/audit-logs/<id>/: audit events, read-only. */
export function createAuditLogService({ db, pending }: Deps) {
  async function list(query: AuditLogInput) {
    const page = pageRequest(query);
    const eventType = eventTypeFilter(query);
    await pending?.flush();
    const { rows, count } = await repo.listAuditEvents(db, {
      userId: query.user_id, actorId: query.actor_id, eventType, severity: query.severity,
      applicationId: query.application_id, ipAddress: query.ip_address?.trim(), traceId: query.prompt_trace_id, ...dateRange(query),
    }, orderOf<repo.AuditOrderColumn>(query.ordering, '-created_at'), page.pageSize, page.offset);
    return { results: rows.map(toAuditLog), count, page };
  }

  async function get(id: number) {
    await pending?.flush();
    const row = await repo.findAuditEvent(db, id);
    if (!row) throw new AppError('NOT_FOUND');
    return toAuditLog(row);
  }

  return { list, get };
}

export type AuditLogService = ReturnType<typeof createAuditLogService>;
