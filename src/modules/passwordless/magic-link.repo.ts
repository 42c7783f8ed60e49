import type { Executor, NewRow } from '../../db/database.js';

/** The account a magic link would be sent to: its state and the language of the message. */
export const findRecipient = (db: Executor, email: string) =>
  db.selectFrom('users').select(['id', 'email', 'language', 'is_active', 'is_banned', 'deleted_at', 'deletion_scheduled_at'])
    .where('email', '=', email).executeTakeFirst();

/** Retires every still-usable link sent to this address (the newest link replaces them). */
export const retireLinks = (trx: Executor, email: string, now: Date) =>
  trx.updateTable('magic_links').set({ consumed_at: now })
    .where('email', '=', email).where('consumed_at', 'is', null)
    .executeTakeFirst();

/** Whose link this token hash is (a link stored by an earlier attempt to send its message). */
export const findLinkOwner = (trx: Executor, tokenHash: string) =>
  trx.selectFrom('magic_links').select(['user_id']).where('token_hash', '=', tokenHash).executeTakeFirst();

export const insertLink = (trx: Executor, values: NewRow<'magic_links'>) =>
  trx.insertInto('magic_links').values(values).returning(['id']).executeTakeFirstOrThrow();

/** The unused, unexpired link with this token hash. */
export const findLiveLink = (db: Executor, tokenHash: string, now: Date) =>
  db.selectFrom('magic_links').select(['id', 'user_id', 'email', 'application_id'])
    .where('token_hash', '=', tokenHash).where('consumed_at', 'is', null).where('expires_at', '>', now)
    .executeTakeFirst();

/** Single use: one statement, so of concurrent consumers exactly one gets a row. */
export const consumeLink = (trx: Executor, id: number, now: Date) =>
  trx.updateTable('magic_links').set({ consumed_at: now })
    .where('id', '=', id).where('consumed_at', 'is', null).where('expires_at', '>', now)
    .returning(['user_id', 'email']).executeTakeFirst();
