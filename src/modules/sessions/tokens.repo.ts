import { sql } from 'kysely';
import type { Executor, NewRow } from '../../db/database.js';
import { PUBLIC_USER_COLUMNS } from '../users/user-columns.js';

export const insertRefreshToken = (db: Executor, values: NewRow<'refresh_tokens'>) =>
  db.insertInto('refresh_tokens').values(values).returning(['id', 'expires_at']).executeTakeFirstOrThrow();

/** A refresh token with its session and the account state refresh re-checks. */
export const findRefreshToken = (db: Executor, tokenHash: string) =>
  db.selectFrom('refresh_tokens as rt')
    .innerJoin('sessions as s', 's.id', 'rt.session_id')
    .innerJoin('users as u', 'u.id', 'rt.user_id')
    .select(['rt.id', 'rt.session_id', 'rt.user_id', 'rt.application_id', 'rt.created_at', 'rt.expires_at', 'rt.rotated_at',
      'rt.revoked_at', 's.revoked_at as session_revoked_at', 's.expires_at as session_expires_at',
      's.device_summary', 's.device_id', 'u.is_active', 'u.is_banned', 'u.deleted_at', 'u.locked_until',
      'u.must_change_password', 'u.tokens_valid_after'])
    .where('rt.token_hash', '=', tokenHash).executeTakeFirst();

/**
 * Rotation in one statement: retire the token (only while not yet rotated — one caller wins a race), insert its
 * successor and extend the session to the successor's expiry. Answers the successor's id, or undefined when the
 * token was already rotated or revoked.
 */
export async function rotateRefreshToken(db: Executor, p: { id: number; successorHash: string; now: Date; expiresAt: Date; ip: string | null }) {
  const { rows } = await sql<{ id: number }>`
    with retired as (
      update refresh_tokens set rotated_at = ${p.now}, last_used_at = ${p.now}
      where id = ${p.id} and rotated_at is null and revoked_at is null
      returning session_id, user_id, application_id
    ), successor as (
      insert into refresh_tokens (session_id, user_id, application_id, token_hash, created_at, expires_at, ip_address)
      select session_id, user_id, application_id, ${p.successorHash}, ${p.now}, ${p.expiresAt}, ${p.ip} from retired
      returning id, session_id
    ), extended as (
      update sessions set last_used_at = ${p.now}, expires_at = ${p.expiresAt} where id = (select session_id from successor)
    )
    select id from successor`.execute(db);
  return rows[0]?.id;
}

export const findTokenByHash = (db: Executor, tokenHash: string) =>
  db.selectFrom('refresh_tokens').select(['id', 'expires_at', 'revoked_at']).where('token_hash', '=', tokenHash).executeTakeFirst();

export const touchRefreshToken = (db: Executor, id: number, now: Date) =>
  db.updateTable('refresh_tokens').set({ last_used_at: now }).where('id', '=', id).execute();

export const insertBlacklistEntry = (db: Executor, values: NewRow<'token_blacklist'>) =>
  db.insertInto('token_blacklist').values(values).onConflict((oc) => oc.column('jti').doNothing()).execute();

/**
 * The one query behind every authenticated request: the user (with the public fields, so `GET me/` needs no
 * second query), whether this token's jti is blacklisted and whether its session is still open.
 */
export const findBearerState = (db: Executor, userId: number, jti: string, sessionId: number, now: Date) =>
  db.selectFrom('users as u')
    .select(PUBLIC_USER_COLUMNS.map((c) => `u.${c}` as const))
    .select(['u.is_banned', 'u.deleted_at', 'u.tokens_valid_after'])
    .select([
      sql<boolean>`exists (select 1 from token_blacklist b where b.jti = ${jti})`.as('is_blacklisted'),
      sql<boolean>`exists (select 1 from sessions s where s.id = ${sessionId} and s.user_id = u.id and s.revoked_at is null and s.expires_at > ${now})`.as('session_open'),
    ])
    .where('u.id', '=', userId).executeTakeFirst();
