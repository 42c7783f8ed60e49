import { sql } from 'kysely';
import type { Executor, NewRow } from '../db/database.js';

export const insertMessage = (db: Executor, values: NewRow<'outbox_messages'>) =>
  db.insertInto('outbox_messages').values(values)
    .onConflict((oc) => oc.column('dedup_key').doNothing()).returning(['id']).executeTakeFirst();

/**
 * Claims up to `limit` due messages for this worker: a lease (`locked_until`) keeps other workers off them,
 * and `skip locked` lets several instances claim in parallel without waiting on each other.
 */
export const claimDue = (db: Executor, now: Date, leaseUntil: Date, limit: number) =>
  db.updateTable('outbox_messages')
    .set({ status: 'sending', locked_until: leaseUntil, attempts: sql`attempts + 1` })
    .where('id', 'in', (eb) => eb.selectFrom('outbox_messages').select('id')
      .where((w) => w.or([
        w.and([w('status', '=', 'pending'), w('next_attempt_at', '<=', now)]),
        w.and([w('status', '=', 'sending'), w('locked_until', '<', now)]),
      ]))
      .orderBy('id').limit(limit).forUpdate().skipLocked())
    .returning(['id', 'channel', 'recipient', 'purpose', 'language', 'payload', 'attempts', 'expires_at'])
    .execute();

export type ClaimedMessage = Awaited<ReturnType<typeof claimDue>>[number];

/** Delivered or given up: the payload (which may hold a code or a link) is wiped. */
export const finishMessage = (db: Executor, id: number, status: 'sent' | 'failed' | 'expired', now: Date, error: string | null) =>
  db.updateTable('outbox_messages')
    .set({ status, payload: '', locked_until: null, last_error: error, ...(status === 'sent' ? { sent_at: now } : {}) })
    .where('id', '=', id).execute();

export const deleteMessage = (db: Executor, id: number) =>
  db.deleteFrom('outbox_messages').where('id', '=', id).execute();

export const retryLater = (db: Executor, id: number, at: Date, error: string) =>
  db.updateTable('outbox_messages').set({ status: 'pending', next_attempt_at: at, locked_until: null, last_error: error })
    .where('id', '=', id).execute();
