import { sql } from 'kysely';
import type { Executor, NewRow } from '../../db/database.js';

/** A session and its first refresh token in one statement; answers the session id. */
export const insertSessionWithToken = (db: Executor, session: NewRow<'sessions'>,
  token: { token_hash: string; created_at: Date; expires_at: Date; ip_address: string | null; device_info: string | null }) =>
  db.with('s', (qb) => qb.insertInto('sessions').values(session).returning(['id', 'user_id', 'application_id']))
    .insertInto('refresh_tokens')
    .columns(['session_id', 'user_id', 'application_id', 'token_hash', 'created_at', 'expires_at', 'ip_address', 'device_info'])
    .expression((eb) => eb.selectFrom('s').select([
      's.id', 's.user_id', 's.application_id', sql<string>`${token.token_hash}::text`.as('token_hash'),
      sql<Date>`${token.created_at}::timestamptz`.as('created_at'), sql<Date>`${token.expires_at}::timestamptz`.as('expires_at'),
      sql<string | null>`${token.ip_address}::text`.as('ip_address'), sql<string | null>`${token.device_info}::text`.as('device_info'),
    ]))
    .returning(['session_id']).executeTakeFirstOrThrow().then((r) => r.session_id);

/**
 * Locks the user's row until the transaction ends, so the session changes of one user happen one at a time:
 * without it, concurrent logins all count the same sessions and all pass a limit. Lock it before any session row.
 */
export const lockUserSessions = (db: Executor, userId: number) =>
  db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();

/** Active sessions of a user, oldest first. */
export const listActiveSessions = (db: Executor, userId: number, now: Date) =>
  db.selectFrom('sessions').select(['id', 'device_id', 'created_at'])
    .where('user_id', '=', userId).where('revoked_at', 'is', null).where('expires_at', '>', now)
    .orderBy('created_at').orderBy('id').execute();

export const findSessionDevice = (db: Executor, id: number) =>
  db.selectFrom('sessions').select(['id', 'device_info']).where('id', '=', id).executeTakeFirst();

export const revokeSessions = (db: Executor, ids: number[], now: Date, reason: string) =>
  ids.length === 0 ? Promise.resolve(0) : db.updateTable('sessions').set({ revoked_at: now, revoke_reason: reason })
    .where('id', 'in', ids).where('revoked_at', 'is', null).executeTakeFirst().then((r) => Number(r.numUpdatedRows));

/** Revokes every active session of the user; answers the sessions and distinct devices it ended. */
export async function revokeAllUserSessions(db: Executor, userId: number, now: Date, reason: string) {
  const rows = await db.updateTable('sessions').set({ revoked_at: now, revoke_reason: reason })
    .where('user_id', '=', userId).where('revoked_at', 'is', null).where('expires_at', '>', now)
    .returning(['id', 'device_id']).execute();
  await db.updateTable('refresh_tokens').set({ revoked_at: now })
    .where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
  return { sessions: rows.length, devices: new Set(rows.map((r) => r.device_id)).size };
}

export const revokeSessionTokens = (db: Executor, sessionIds: number[], now: Date) =>
  sessionIds.length === 0 ? Promise.resolve() : db.updateTable('refresh_tokens').set({ revoked_at: now })
    .where('session_id', 'in', sessionIds).where('revoked_at', 'is', null).execute().then(() => undefined);

/** Marks the session used; with `expiresAt`, it lives as long as its newest refresh token. */
export const touchSession = (db: Executor, id: number, now: Date, expiresAt?: Date) =>
  db.updateTable('sessions').set({ last_used_at: now, ...(expiresAt ? { expires_at: expiresAt } : {}) }).where('id', '=', id).execute();

export const countDistinctActiveDevices = (db: Executor, userId: number, now: Date) =>
  db.selectFrom('sessions').select(sql<number>`count(distinct device_id)`.as('n'))
    .where('user_id', '=', userId).where('revoked_at', 'is', null).where('expires_at', '>', now)
    .executeTakeFirstOrThrow().then((r) => Number(r.n));
