import type { Executor } from '../../db/database.js';
import type { Order } from '../../core/listing.js';

export type AuditOrderColumn = 'created_at' | 'event_type' | 'severity';

export interface AuditFilter {
  userId?: number; actorId?: number; eventType?: string; severity?: string; applicationId?: number; ipAddress?: string;
  from?: Date; before?: Date;
  /** `X-Prompt-Trace-ID` of the agent request the event belongs to. */
  traceId?: string;
}

function events(db: Executor) {
  return db.selectFrom('audit_events as e')
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .leftJoin('users as actor', 'actor.id', 'e.actor_id')
    .leftJoin('applications as a', 'a.id', 'e.application_id');
}

function filtered(db: Executor, f: AuditFilter) {
  let q = events(db);
  if (f.userId !== undefined) q = q.where('e.user_id', '=', f.userId);
  if (f.actorId !== undefined) q = q.where('e.actor_id', '=', f.actorId);
  if (f.eventType !== undefined) q = q.where('e.event_type', '=', f.eventType);
  if (f.severity !== undefined) q = q.where('e.severity', '=', f.severity);
  if (f.applicationId !== undefined) q = q.where('e.application_id', '=', f.applicationId);
  if (f.ipAddress !== undefined) q = q.where('e.ip_address', '=', f.ipAddress);
  if (f.traceId !== undefined) q = q.where('e.trace_id', '=', f.traceId);
  if (f.from) q = q.where('e.created_at', '>=', f.from);
  if (f.before) q = q.where('e.created_at', '<', f.before);
  return q;
}

const COLUMNS = ['e.id', 'e.event_type', 'e.severity', 'e.user_id', 'u.email as user_email', 'e.actor_id', 'actor.email as actor_email',
  'e.application_id', 'a.name as application_name', 'e.ip_address', 'e.user_agent', 'e.request_id', 'e.trace_id', 'e.details', 'e.created_at'] as const;

export async function listAuditEvents(db: Executor, f: AuditFilter, order: Order<AuditOrderColumn>, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    filtered(db, f).select(COLUMNS).orderBy(`e.${order.column}`, order.direction).orderBy('e.id', order.direction)
      .limit(limit).offset(offset).execute(),
    filtered(db, f).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export const findAuditEvent = (db: Executor, id: number) =>
  events(db).select(COLUMNS).where('e.id', '=', id).executeTakeFirst();

export type AuditEventRow = NonNullable<Awaited<ReturnType<typeof findAuditEvent>>>;
