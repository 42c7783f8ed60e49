import type { Executor, NewRow, OtpPurpose } from '../../db/database.js';

/** The addresses a code can be sent to, and the language of the message. */
export const findContact = (db: Executor, userId: number) =>
  db.selectFrom('users').select(['id', 'email', 'phone', 'language']).where('id', '=', userId).executeTakeFirst();

/** Serialises code issuance per account, so "newest code wins" holds under concurrent requests. */
export const lockUser = (trx: Executor, userId: number) =>
  trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();

/** Retires every still-usable code of this account and purpose (a newer code replaces them). */
export const retireCodes = (trx: Executor, userId: number, purpose: OtpPurpose, now: Date) =>
  trx.updateTable('otp_codes').set({ consumed_at: now })
    .where('user_id', '=', userId).where('purpose', '=', purpose).where('consumed_at', 'is', null)
    .executeTakeFirst();

/** Whose code `id` is, and for what (a code written by an earlier attempt to send its message). */
export const findCodeOwner = (trx: Executor, id: string) =>
  trx.selectFrom('otp_codes').select(['user_id', 'purpose']).where('id', '=', id).executeTakeFirst();

export const insertCode = (trx: Executor, values: NewRow<'otp_codes'>) =>
  trx.insertInto('otp_codes').values(values).returning(['id', 'expires_at']).executeTakeFirstOrThrow();

/**
 * Counts one attempt on the live code of this account and purpose, before any comparison. Answers the code
 * only while it has attempts left; undefined ⇒ no live code, or its attempts are spent.
 */
export const takeAttempt = (db: Executor, userId: number, purpose: OtpPurpose, now: Date, maxAttempts: number) =>
  db.updateTable('otp_codes').set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('user_id', '=', userId).where('purpose', '=', purpose).where('consumed_at', 'is', null)
    .where('expires_at', '>', now).where('attempts', '<', maxAttempts)
    .returning(['id', 'code_hmac', 'recipient', 'channel']).executeTakeFirst();

/** Single use: one statement, so of concurrent consumers exactly one gets a row. */
export const consumeCode = (trx: Executor, id: string, now: Date) =>
  trx.updateTable('otp_codes').set({ consumed_at: now })
    .where('id', '=', id).where('consumed_at', 'is', null).where('expires_at', '>', now)
    .returning(['id', 'recipient']).executeTakeFirst();

export const markEmailVerified = (trx: Executor, userId: number, email: string, now: Date) =>
  trx.updateTable('users').set({ is_email_verified: true, updated_at: now })
    .where('id', '=', userId).where('email', '=', email).returning(['email']).executeTakeFirst();

export const markPhoneVerified = (trx: Executor, userId: number, phone: string, now: Date) =>
  trx.updateTable('users').set({ is_phone_verified: true, updated_at: now })
    .where('id', '=', userId).where('phone', '=', phone).returning(['phone']).executeTakeFirst();

/** The live (unused, unexpired) code of this account and purpose with its attempt count, spent or not. */
export const findLiveCode = (db: Executor, userId: number, purpose: OtpPurpose, now: Date) =>
  db.selectFrom('otp_codes').select(['id', 'attempts'])
    .where('user_id', '=', userId).where('purpose', '=', purpose).where('consumed_at', 'is', null)
    .where('expires_at', '>', now).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
