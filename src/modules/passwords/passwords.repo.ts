import type { Executor } from '../../db/database.js';

export interface PastHash { hash: string; unnormalized: boolean }

/** The account's current hash and up to `limit` of its most recent ones, newest first. */
export async function recentHashes(db: Executor, userId: number, limit: number): Promise<PastHash[]> {
  const [current, past] = await Promise.all([
    db.selectFrom('users').select(['password_hash', 'password_hash_unnormalized']).where('id', '=', userId).executeTakeFirst(),
    db.selectFrom('password_history').select(['password_hash', 'unnormalized']).where('user_id', '=', userId)
      .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute(),
  ]);
  const hashes = past.map((r) => ({ hash: r.password_hash, unnormalized: r.unnormalized }));
  if (current?.password_hash && !hashes.some((h) => h.hash === current.password_hash)) {
    hashes.unshift({ hash: current.password_hash, unnormalized: current.password_hash_unnormalized });
  }
  return hashes.slice(0, limit);
}

/** Records a new password and forgets all but the `keep` most recent ones. */
export async function remember(trx: Executor, userId: number, hash: string, now: Date, keep: number): Promise<void> {
  await trx.insertInto('password_history').values({ user_id: userId, password_hash: hash, created_at: now }).execute();
  await trx.deleteFrom('password_history').where('user_id', '=', userId)
    .where('id', 'not in', (eb) => eb.selectFrom('password_history').select('id').where('user_id', '=', userId)
      .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(keep))
    .execute();
}

/** Forgets every past password of the account. */
export const forgetAll = (trx: Executor, userId: number) =>
  trx.deleteFrom('password_history').where('user_id', '=', userId).execute();

/** Sets the account's password; it becomes usable and no longer needs to be changed. */
export const setPassword = (trx: Executor, userId: number, hash: string, now: Date) =>
  trx.updateTable('users')
    .set({ password_hash: hash, password_hash_unnormalized: false, has_usable_password: true, must_change_password: false,
      updated_at: now })
    .where('id', '=', userId).returning(['id']).executeTakeFirst();

/** What changing or setting a password needs to know about the account. */
export const findAccount = (db: Executor, userId: number) =>
  db.selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'password_hash', 'password_hash_unnormalized', 'has_usable_password',
      'must_change_password', 'locked_until', 'max_sessions', 'max_devices'])
    .where('id', '=', userId).executeTakeFirst();
