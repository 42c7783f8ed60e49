import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { precompile, precompileRows } from '../../db/precompiled.js';

export interface NewSession {
  userId: number;
  applicationId: number | null;
  deviceId: string;
  deviceInfo: string | null;
  deviceSummary: string | null;
  ip: string | null;
  userAgent: string | null;
  now: Date;
  expiresAt: Date;
  tokenHash: string;
}

const insertSessionQuery = (db: Executor, a: NewSession) =>
  db.with('v', (qb) => qb.updateTable('users').set((eb) => ({ sessions_version: eb('sessions_version', '+', 1) }))
    .where('id', '=', a.userId))
    .with('s', (qb) => qb.insertInto('sessions').values({
    user_id: a.userId, application_id: a.applicationId, device_id: a.deviceId, device_info: a.deviceInfo,
    device_summary: a.deviceSummary, ip_address: a.ip, user_agent: a.userAgent, created_at: a.now, last_used_at: a.now,
    expires_at: a.expiresAt, auth_time: a.now,
  }).returning(['id', 'user_id', 'application_id']))
    .insertInto('refresh_tokens')
    .columns(['session_id', 'user_id', 'application_id', 'token_hash', 'created_at', 'expires_at', 'ip_address', 'device_info'])
    .expression((eb) => eb.selectFrom('s').select([
      's.id', 's.user_id', 's.application_id', sql<string>`${a.tokenHash}::text`.as('token_hash'),
      sql<Date>`${a.now}::timestamptz`.as('created_at'), sql<Date>`${a.expiresAt}::timestamptz`.as('expires_at'),
      sql<string | null>`${a.ip}::text`.as('ip_address'), sql<string | null>`${a.deviceInfo}::text`.as('device_info'),
    ]))
    .returning(['session_id']);

/** Every sign-in opens a session: compiled once. */
const insertSession = precompile(insertSessionQuery, {
  userId: -1, applicationId: -2, deviceId: '\u0000device', deviceInfo: '\u0000info', deviceSummary: '\u0000summary',
  ip: '\u0000ip', userAgent: '\u0000agent', now: new Date(0), expiresAt: new Date(1), tokenHash: '\u0000hash',
});

/**
 * A session and its first refresh token in one statement, which also bumps the account's `sessions_version` (every
 * new session does: a login's one-statement path tells from it whether its view of the sessions is current).
 * Its `auth_time` is its opening time: every session is opened right after its person proved a credential.
 * Answers the session id.
 */
export const insertSessionWithToken = async (db: Executor, session: NewSession) => (await insertSession(db, session))!.session_id;

/**
 * Locks the user's row until the transaction ends, so the session changes of one user happen one at a time:
 * without it, concurrent logins all count the same sessions and all pass a limit. Lock it before any session row.
 */
export const lockUserSessions = (db: Executor, userId: number) =>
  db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();

/**
 * "Neither revoked nor expired", in a form that no index condition and no partial index's predicate can take (`… is
 * true` holds exactly when the condition does): a person's sessions are then found by `user_id` in
 * `sessions_user_created_idx`. Written plainly, a generic plan made before the table had statistics walked every
 * live session of every person by expiry (test/db/hot-path-plans.test.ts).
 */
const live = (now: Date) => sql<boolean>`(revoked_at is null and expires_at > ${now}) is true`;

/**
 * The user's active sessions (not revoked, not expired): what the session and device limits count, here and in the
 * one-statement login (auth/login.repo.ts).
 */
export const activeSessionsOf = (db: Executor, userId: number, now: Date) =>
  db.selectFrom('sessions').where('user_id', '=', userId).where(live(now));

const activeSessions = precompileRows((db: Executor, a: { userId: number; now: Date }) =>
  activeSessionsOf(db, a.userId, a.now).select(['id', 'device_id', 'created_at']).orderBy('created_at').orderBy('id'),
{ userId: -1, now: new Date(0) });

/**
 * Active sessions of a user, oldest first: the order in which the limits end them. Every sign-in with a session or
 * device limit reads them.
 */
export const listActiveSessions = (db: Executor, userId: number, now: Date) => activeSessions(db, { userId, now });

/** The account a session belongs to, or null. */
export const ownerOfSession = async (db: Executor, sessionId: number): Promise<number | null> =>
  (await db.selectFrom('sessions').select('user_id').where('id', '=', sessionId).executeTakeFirst())?.user_id ?? null;

export const findSessionDevice = (db: Executor, id: number) =>
  db.selectFrom('sessions').select(['id', 'device_info']).where('id', '=', id).executeTakeFirst();

export const revokeSessions = (db: Executor, ids: number[], now: Date, reason: string) =>
  ids.length === 0 ? Promise.resolve(0) : db.updateTable('sessions').set({ revoked_at: now, revoke_reason: reason })
    .where('id', 'in', ids).where('revoked_at', 'is', null).executeTakeFirst().then((r) => Number(r.numUpdatedRows));

/** Revokes every active session of the user; answers the sessions and distinct devices it ended, and the sessions' ids. */
export async function revokeAllUserSessions(db: Executor, userId: number, now: Date, reason: string) {
  const rows = await db.updateTable('sessions').set({ revoked_at: now, revoke_reason: reason })
    .where('user_id', '=', userId).where(live(now))
    .returning(['id', 'device_id']).execute();
  await db.updateTable('refresh_tokens').set({ revoked_at: now })
    .where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
  return { sessions: rows.length, devices: new Set(rows.map((r) => r.device_id)).size, ids: rows.map((r) => r.id) };
}

export const revokeSessionTokens = (db: Executor, sessionIds: number[], now: Date) =>
  sessionIds.length === 0 ? Promise.resolve() : db.updateTable('refresh_tokens').set({ revoked_at: now })
    .where('session_id', 'in', sessionIds).where('revoked_at', 'is', null).execute().then(() => undefined);

/** Marks the session used; with `expiresAt`, it lives as long as its newest refresh token. */
export const touchSession = (db: Executor, id: number, now: Date, expiresAt?: Date) =>
  db.updateTable('sessions').set({ last_used_at: now, ...(expiresAt ? { expires_at: expiresAt } : {}) }).where('id', '=', id).execute();

export const countDistinctActiveDevices = (db: Executor, userId: number, now: Date) =>
  activeSessionsOf(db, userId, now).select(sql<number>`count(distinct device_id)`.as('n'))
    .executeTakeFirstOrThrow().then((r) => Number(r.n));

/** From `at` on, every access token issued before it is refused (whole seconds, as `iat`). */
export const setTokensValidAfter = (db: Executor, userId: number, at: Date) =>
  db.updateTable('users').set({ tokens_valid_after: at }).where('id', '=', userId).execute();

/**
 * Takes a shared lock on the user's row (an event ending every session takes it exclusively, see
 * {@link lockUserSessions}) and answers `tokens_valid_after` and whether `sessionId` is still open.
 */
export async function lockSessionState(db: Executor, userId: number, sessionId: number) {
  const user = await db.selectFrom('users').select('tokens_valid_after').where('id', '=', userId).forShare().executeTakeFirst();
  if (!user) return undefined;
  const session = await db.selectFrom('sessions').select('id').where('id', '=', sessionId).where('user_id', '=', userId)
    .where('revoked_at', 'is', null).executeTakeFirst();
  return { tokens_valid_after: user.tokens_valid_after, session_open: session !== undefined };
}
