import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

/** Locks the account row until the transaction ends, so setups and regenerations of one account run one at a time. */
export const lockUser = (trx: Executor, userId: number) =>
  trx.selectFrom('users').select(['id', 'is_2fa_enabled']).where('id', '=', userId).forUpdate().executeTakeFirst();

export const findCredential = (db: Executor, userId: number) =>
  db.selectFrom('totp_credentials').select(['secret_sealed', 'pending_secret_sealed', 'last_step'])
    .where('user_id', '=', userId).executeTakeFirst();

/** What the checks of 2fa/disable/ and 2fa/backup-codes/ read: the 2FA flag, the password and the lock. */
export const findCheckState = (db: Executor, userId: number) =>
  db.selectFrom('users').select(['is_2fa_enabled', 'password_hash', 'password_hash_unnormalized', 'has_usable_password', 'locked_until'])
    .where('id', '=', userId).executeTakeFirst();

/** The 2FA flag and the number of unused backup codes, in one query. */
export const findStatus = (db: Executor, userId: number) =>
  db.selectFrom('users as u').select(['u.is_2fa_enabled',
    sql<number>`(select count(*) from backup_codes b where b.user_id = u.id and b.consumed_at is null)`.as('unused_codes')])
    .where('u.id', '=', userId).executeTakeFirst();

/** Starts (or restarts) a setup: the new secret waits for confirmation; an active one is left untouched. */
export const savePendingSecret = (trx: Executor, userId: number, sealed: string, now: Date) =>
  trx.insertInto('totp_credentials').values({ user_id: userId, pending_secret_sealed: sealed, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ pending_secret_sealed: sealed, updated_at: now }))
    .execute();

/**
 * Confirmation in one statement: the pending secret becomes the active one and `step` is recorded as used,
 * only while that same secret is still pending and `step` is later than any used. Of concurrent confirmations
 * with one code exactly one gets a row (READ COMMITTED re-checks the conditions after waiting on the row lock).
 */
export const activatePendingSecret = (trx: Executor, userId: number, sealed: string, step: number, now: Date) =>
  trx.updateTable('totp_credentials')
    .set({ secret_sealed: sealed, pending_secret_sealed: null, last_step: step, confirmed_at: now, updated_at: now })
    .where('user_id', '=', userId).where('pending_secret_sealed', '=', sealed)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .returning('user_id').executeTakeFirst();

/**
 * Replay protection in one statement: records `step` as used only when it is later than the last one used and
 * the secret is still the one checked. undefined ⇒ this step (or a later one) was already used.
 */
export const takeStep = (db: Executor, userId: number, sealed: string, step: number, now: Date) =>
  db.updateTable('totp_credentials').set({ last_step: step, updated_at: now })
    .where('user_id', '=', userId).where('secret_sealed', '=', sealed)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .returning('user_id').executeTakeFirst();

/** Single use: one statement, so of concurrent consumers of one code exactly one gets a row. */
export const consumeBackupCode = (db: Executor, userId: number, codeHash: string, now: Date) =>
  db.updateTable('backup_codes').set({ consumed_at: now })
    .where('user_id', '=', userId).where('code_hash', '=', codeHash).where('consumed_at', 'is', null)
    .returning('id').executeTakeFirst();

/** Replaces every backup code of the account (used or not) with a new set. */
export async function replaceBackupCodes(trx: Executor, userId: number, hashes: string[], now: Date): Promise<void> {
  await trx.deleteFrom('backup_codes').where('user_id', '=', userId).execute();
  await trx.insertInto('backup_codes').values(hashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: now }))).execute();
}

/** Removes the secret, its replay state and the backup codes. */
export async function deleteTwoFactor(trx: Executor, userId: number): Promise<void> {
  await trx.deleteFrom('backup_codes').where('user_id', '=', userId).execute();
  await trx.deleteFrom('totp_credentials').where('user_id', '=', userId).execute();
}

export const setTwoFactorEnabled = (trx: Executor, userId: number, enabled: boolean, now: Date) =>
  trx.updateTable('users').set({ is_2fa_enabled: enabled, updated_at: now }).where('id', '=', userId).execute();
