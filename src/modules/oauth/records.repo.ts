import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

/** A record as the provider stores it, keyed by the hash of its id (docs/oauth.md "Storage"). */
export interface RecordValues {
  model: string;
  idHash: string;
  payload: Record<string, unknown>;
  grantId: string | null;
  uid: string | null;
  expiresAt: Date | null;
}

export const upsertRecord = (db: Executor, r: RecordValues) =>
  db.insertInto('oauth_records')
    .values({ model: r.model, id_hash: r.idHash, payload: JSON.stringify(r.payload), grant_id: r.grantId, uid: r.uid, expires_at: r.expiresAt })
    .onConflict((oc) => oc.columns(['model', 'id_hash']).doUpdateSet({
      payload: JSON.stringify(r.payload), grant_id: r.grantId, uid: r.uid, expires_at: r.expiresAt,
    }))
    .execute();

const LIVE_COLUMNS = ['payload', 'consumed_at'] as const;

/** A record that has not expired at `now`. */
export const findRecord = (db: Executor, model: string, idHash: string, now: Date) =>
  db.selectFrom('oauth_records').select(LIVE_COLUMNS)
    .where('model', '=', model).where('id_hash', '=', idHash)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirst();

export const findRecordByUid = (db: Executor, model: string, uid: string, now: Date) =>
  db.selectFrom('oauth_records').select(LIVE_COLUMNS)
    .where('model', '=', model).where('uid', '=', uid)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirst();

/**
 * Marks a record consumed in one statement: answers its grant id when this call consumed it, or null when it was
 * consumed already (or is gone), so that of two parallel redemptions exactly one wins.
 */
export async function consumeRecord(db: Executor, model: string, idHash: string, now: Date): Promise<{ consumed: boolean; grantId: string | null }> {
  const row = await db.updateTable('oauth_records').set({ consumed_at: now })
    .where('model', '=', model).where('id_hash', '=', idHash).where('consumed_at', 'is', null)
    .returning('grant_id').executeTakeFirst();
  if (row) return { consumed: true, grantId: row.grant_id };
  const other = await db.selectFrom('oauth_records').select('grant_id').where('model', '=', model).where('id_hash', '=', idHash)
    .executeTakeFirst();
  return { consumed: false, grantId: other?.grant_id ?? null };
}

export const deleteRecord = (db: Executor, model: string, idHash: string) =>
  db.deleteFrom('oauth_records').where('model', '=', model).where('id_hash', '=', idHash).execute();

/** Every record a grant issued, of one model. */
export const deleteModelRecordsOfGrant = (db: Executor, model: string, grantId: string) =>
  db.deleteFrom('oauth_records').where('model', '=', model).where('grant_id', '=', grantId).execute();

/** The grant and everything it issued (a replayed code, a revoked grant). */
export const deleteGrantRecords = (db: Executor, grantId: string) =>
  db.deleteFrom('oauth_records').where('grant_id', '=', grantId).execute();

/** Expired records (the cleanup job). */
export const deleteExpiredRecords = (db: Executor, now: Date) =>
  db.deleteFrom('oauth_records').where('expires_at', '<=', now).execute();

export const countRecords = async (db: Executor, model: string): Promise<number> =>
  Number((await db.selectFrom('oauth_records').select(sql<number>`count(*)`.as('n')).where('model', '=', model).executeTakeFirstOrThrow()).n);
