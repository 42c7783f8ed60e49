import type { Executor } from '../../db/database.js';

/** The account an identity is linked to. */
export const findLinkedUser = (db: Executor, provider: string, subject: string) =>
  db.selectFrom('social_accounts').select(['id', 'user_id']).where('provider', '=', provider).where('subject', '=', subject)
    .executeTakeFirst();

/** The account holding an address, with whether that address was verified. */
export const findAccountByEmail = (db: Executor, email: string) =>
  db.selectFrom('users').select(['id', 'is_email_verified']).where('email', '=', email).executeTakeFirst();

/** Links an identity; a parallel sign-in that linked it first wins (undefined). */
export const insertLink = (db: Executor, v: { userId: number; provider: string; subject: string; email: string | null; now: Date }) =>
  db.insertInto('social_accounts').values({ user_id: v.userId, provider: v.provider, subject: v.subject, email: v.email, linked_at: v.now })
    .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing()).returning('id').executeTakeFirst();

/** Each sign-in refreshes the verified address the provider gave and the time of the last use. */
export const touchLink = (db: Executor, id: number, email: string | null, now: Date) =>
  db.updateTable('social_accounts').set({ last_login_at: now, ...(email ? { email } : {}) }).where('id', '=', id).execute();
