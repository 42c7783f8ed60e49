import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

/** A due delivery claimed by this worker, with what it needs to send it. */
export interface ClaimedDelivery {
  id: number;
  webhook_id: number;
  event_id: string;
  type: string;
  payload: Record<string, unknown>;
  attempts: number;
  created_at: Date;
  url: string;
  secret_sealed: string;
}

/**
 * Claims up to `limit` due deliveries of active webhooks: the lease (`locked_until`, longer than one attempt can
 * take) keeps every other worker off them, and `skip locked` lets several instances claim at once without waiting
 * on each other, so no attempt is ever made twice at the same time. A lease that ran out (its worker died) makes the
 * delivery due again. The attempt is counted when claimed.
 */
export async function claimDue(db: Executor, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
  const { rows } = await sql<ClaimedDelivery>`
    with due as (
      select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id and w.is_active
      where (d.status = 'pending' and d.next_attempt_at <= ${now}) or (d.status = 'sending' and d.locked_until < ${now})
      order by d.next_attempt_at, d.id limit ${limit}
      for update of d skip locked
    ), claimed as (
      update webhook_deliveries d set status = 'sending', locked_until = ${leaseUntil}, attempts = d.attempts + 1
      from due where d.id = due.id
      returning d.id, d.webhook_id, d.event_id, d.type, d.payload, d.attempts, d.created_at
    )
    select c.*, w.url, w.secret_sealed from claimed c join webhooks w on w.id = c.webhook_id order by c.id`.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id), webhook_id: Number(r.webhook_id), created_at: new Date(r.created_at) }));
}

export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
}

/** One attempt as the deliveries list keeps it: when it started, how it ended, how long it took. */
export interface AttemptRecord extends AttemptOutcome {
  at: Date;
  durationMs: number;
}

/**
 * Records the attempt this worker made: the delivery's new state and the attempt's own row, in one statement, so the
 * history never lacks an attempt the state counts. Only while the worker still holds the claim (same attempt, still
 * `sending`): a worker whose lease ran out meanwhile, or whose delivery went with its webhook, changes nothing.
 */
const finishAttempt = (db: Executor, d: { id: number; attempts: number }, values: Record<string, unknown>, a: AttemptRecord) =>
  db.with('done', (qb) => qb.updateTable('webhook_deliveries').set({ ...values, locked_until: null })
    .where('id', '=', d.id).where('attempts', '=', d.attempts).where('status', '=', 'sending').returning(['id', 'attempts']))
    .insertInto('webhook_delivery_attempts')
    .columns(['delivery_id', 'attempt', 'attempted_at', 'status_code', 'error', 'duration_ms'])
    .expression((eb) => eb.selectFrom('done').select(['done.id', 'done.attempts', sql<Date>`${a.at}::timestamptz`.as('attempted_at'),
      sql<number | null>`${a.statusCode}::int`.as('status_code'), sql<string | null>`${a.error}::text`.as('error'),
      sql<number>`${Math.max(0, Math.round(a.durationMs))}::int`.as('duration_ms')]))
    .execute();

export const markDelivered = (db: Executor, d: { id: number; attempts: number }, now: Date, a: AttemptRecord) =>
  finishAttempt(db, d, { status: 'delivered', delivered_at: now, next_attempt_at: null, last_status_code: a.statusCode, last_error: null }, a);

export const markRetry = (db: Executor, d: { id: number; attempts: number }, at: Date, a: AttemptRecord) =>
  finishAttempt(db, d, { status: 'pending', next_attempt_at: at, last_status_code: a.statusCode, last_error: a.error }, a);

export const markFailed = (db: Executor, d: { id: number; attempts: number }, a: AttemptRecord) =>
  finishAttempt(db, d, { status: 'failed', next_attempt_at: null, last_status_code: a.statusCode, last_error: a.error }, a);

/** Deliveries waiting to be sent (health and operations). */

/** Removes up to `limit` finished deliveries (delivered or failed) created before `before`, oldest first; answers how many. */
export async function pruneFinished(db: Executor, before: Date, limit: number): Promise<number> {
  const result = await sql`delete from webhook_deliveries where id in (
    select id from webhook_deliveries where status in ('delivered', 'failed') and created_at < ${before} order by id limit ${limit})`
    .execute(db);
  return Number(result.numAffectedRows ?? 0);
}
