import { sql } from 'kysely';
import type { Order } from '../../core/listing.js';
import type { DeletionStatus, Executor } from '../../db/database.js';

export type DeletionRequestOrderColumn = 'requested_at' | 'grace_period_ends_at' | 'status';

export interface DeletionRequestFilter {
  userId?: number;
  status?: DeletionStatus;
  from?: Date;
  before?: Date;
  /** true: confirmed and ending before `expiringBy` (or already ended); false: every other request. */
  expiring?: boolean;
  expiringBy: Date;
}

/** What an administrator sees of a request: never its confirmation hash. */
const COLUMNS = ['r.id', 'r.user_id', 'r.user_email', 'r.status', 'r.reason', 'r.ip_address', 'r.requested_at', 'r.confirmed_at',
  'r.grace_period_ends_at', 'r.completed_at', 'r.admin_notes', 'r.processed_by', 'p.email as processed_by_email'] as const;

function filtered(db: Executor, f: DeletionRequestFilter) {
  let q = db.selectFrom('account_deletion_requests as r').leftJoin('users as p', 'p.id', 'r.processed_by');
  if (f.userId !== undefined) q = q.where('r.user_id', '=', f.userId);
  if (f.status !== undefined) q = q.where('r.status', '=', f.status);
  if (f.from) q = q.where('r.requested_at', '>=', f.from);
  if (f.before) q = q.where('r.requested_at', '<', f.before);
  if (f.expiring !== undefined) {
    const expiring = sql<boolean>`(r.status = 'confirmed' and r.grace_period_ends_at <= ${f.expiringBy})`;
    q = q.where(f.expiring ? expiring : sql<boolean>`not ${expiring}`);
  }
  return q;
}

export async function listRequests(db: Executor, f: DeletionRequestFilter, order: Order<DeletionRequestOrderColumn>, limit: number,
  offset: number) {
  const [rows, total] = await Promise.all([
    filtered(db, f).select(COLUMNS).orderBy(`r.${order.column}`, order.direction).orderBy('r.id', order.direction)
      .limit(limit).offset(offset).execute(),
    filtered(db, f).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export const findRequest = (db: Executor, id: number) =>
  db.selectFrom('account_deletion_requests as r').leftJoin('users as p', 'p.id', 'r.processed_by')
    .select(COLUMNS).where('r.id', '=', id).executeTakeFirst();

export type AdminDeletionRequestRow = NonNullable<Awaited<ReturnType<typeof findRequest>>>;
