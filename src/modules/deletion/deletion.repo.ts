import { sql } from 'kysely';
import type { Executor, NewRow } from '../../db/database.js';
import { OPEN_STATUSES } from './deletion-request.schema.js';

/** The columns a user's own view of a request needs (never the confirmation hash). */
const OWN_COLUMNS = ['id', 'user_id', 'status', 'reason', 'cancellation_token', 'requested_at', 'confirmed_at',
  'grace_period_ends_at', 'completed_at', 'cancelled_at'] as const;

export const findOpenRequest = (db: Executor, userId: number) =>
  db.selectFrom('account_deletion_requests').select(OWN_COLUMNS)
    .where('user_id', '=', userId).where('status', 'in', OPEN_STATUSES).executeTakeFirst();

export type OwnRequest = NonNullable<Awaited<ReturnType<typeof findOpenRequest>>>;

export const listRequestsOf = (db: Executor, userId: number) =>
  db.selectFrom('account_deletion_requests').select(OWN_COLUMNS)
    .where('user_id', '=', userId).orderBy('requested_at', 'desc').orderBy('id', 'desc').execute();

/** Answers undefined when the account already has an open request (the partial unique index decides a race). */
export const insertRequest = (db: Executor, values: NewRow<'account_deletion_requests'>) =>
  db.insertInto('account_deletion_requests').values(values)
    // The predicate is literal text: Postgres infers the partial index from it at parse time, before parameters.
    .onConflict((oc) => oc.column('user_id').where(sql<boolean>`status in ('pending', 'confirmation_sent', 'confirmed')`).doNothing())
    .returning(['id', 'requested_at', 'grace_period_ends_at', 'cancellation_token']).executeTakeFirst();

export const setConfirmationMessage = (db: Executor, id: number, messageId: number) =>
  db.updateTable('account_deletion_requests').set({ confirmation_message_id: messageId }).where('id', '=', id).execute();

/** The confirmation email was delivered: a request still waiting for it moves to `confirmation_sent`. */
export const markConfirmationSent = (db: Executor, messageId: number) =>
  db.updateTable('account_deletion_requests').set({ status: 'confirmation_sent' })
    .where('confirmation_message_id', '=', messageId).where('status', '=', 'pending').execute();

/**
 * Consumes a confirmation token in one statement: only an unconfirmed request whose token has not expired matches,
 * and the hash is cleared, so a replay or a parallel confirmation finds nothing.
 */
export const consumeConfirmation = (db: Executor, hash: string, now: Date, graceEndsAt: Date) =>
  db.updateTable('account_deletion_requests')
    .set({ status: 'confirmed', confirmed_at: now, grace_period_ends_at: graceEndsAt, confirmation_hash: null })
    .where('confirmation_hash', '=', hash).where('status', 'in', ['pending', 'confirmation_sent'])
    .where('confirmation_expires_at', '>', now)
    .returning(['id', 'user_id', 'user_email', 'cancellation_token', 'grace_period_ends_at']).executeTakeFirst();

/** Why a token did not confirm: answers the request it names while unconfirmed (then it has expired), if any. */
export const findUnconfirmedByHash = (db: Executor, hash: string) =>
  db.selectFrom('account_deletion_requests').select(['id', 'confirmation_expires_at'])
    .where('confirmation_hash', '=', hash).where('status', 'in', ['pending', 'confirmation_sent']).executeTakeFirst();

/** Cancels the account's open request, whichever state it is in; answers its former state. */
export async function cancelOpenRequest(db: Executor, userId: number, now: Date) {
  const { rows } = await sql<{ id: number; previous_status: string }>`
    update account_deletion_requests r set status = 'cancelled', cancelled_at = ${now}, confirmation_hash = null
    from (select id, status from account_deletion_requests where user_id = ${userId}
      and status in ('pending', 'confirmation_sent', 'confirmed') for update) old
    where r.id = old.id
    returning r.id, old.status as previous_status`.execute(db);
  return rows[0];
}

/** The account is deactivated for the grace period (still allowed a `deletion_pending` sign-in). */
export const scheduleAccountDeletion = (db: Executor, userId: number, at: Date, now: Date) =>
  db.updateTable('users').set({ is_active: false, deletion_scheduled_at: at, updated_at: now })
    .where('id', '=', userId).execute();

/**
 * The grace period ends early: the account is active again, unless an administrator's deactivation holds it (that
 * hold is lifted by an administrator only). Answers whether the account is active now.
 */
export async function reactivateAccount(db: Executor, userId: number, now: Date): Promise<boolean> {
  const row = await db.updateTable('users')
    .set({ is_active: sql<boolean>`admin_deactivated_at is null`, deletion_scheduled_at: null, updated_at: now })
    .where('id', '=', userId).where('deletion_scheduled_at', 'is not', null).returning('is_active').executeTakeFirst();
  return row?.is_active ?? false;
}

/** What a deletion needs to know about the account: the proofs it asks for and where its emails go. */
export const findAccount = (db: Executor, userId: number) =>
  db.selectFrom('users').select(['id', 'email', 'phone', 'language', 'is_2fa_enabled', 'password_hash', 'password_hash_unnormalized',
    'has_usable_password', 'locked_until', 'is_staff', 'is_superuser', 'max_sessions', 'max_devices'])
    .where('id', '=', userId).executeTakeFirst();

export type DeletionAccount = NonNullable<Awaited<ReturnType<typeof findAccount>>>;
