import { sql } from 'kysely';
import type { Executor, NewRow } from '../../db/database.js';

export const insertRefreshToken = (db: Executor, values: NewRow<'refresh_tokens'>) =>
  db.insertInto('refresh_tokens').values(values).returning(['id', 'expires_at']).executeTakeFirstOrThrow();

/** A refresh token with its session and the account state refresh re-checks. */
export const findRefreshToken = (db: Executor, tokenHash: string) =>
  db.selectFrom('refresh_tokens as rt')
    .innerJoin('sessions as s', 's.id', 'rt.session_id')
    .innerJoin('users as u', 'u.id', 'rt.user_id')
    .select(['rt.id', 'rt.session_id', 'rt.user_id', 'rt.application_id', 'rt.created_at', 'rt.expires_at', 'rt.rotated_at',
      'rt.revoked_at', 'rt.replaced_by_id', 's.revoked_at as session_revoked_at', 's.expires_at as session_expires_at',
      's.device_summary', 's.device_id', 'u.is_active', 'u.is_banned', 'u.deleted_at', 'u.locked_until',
      'u.must_change_password', 'u.tokens_valid_after'])
    .where('rt.token_hash', '=', tokenHash).executeTakeFirst();

/** Retires a token for rotation. Only one caller can win: the row is updated only while not yet rotated. */
export const retireRefreshToken = (db: Executor, id: number, now: Date) =>
  db.updateTable('refresh_tokens').set({ rotated_at: now, last_used_at: now })
    .where('id', '=', id).where('rotated_at', 'is', null).where('revoked_at', 'is', null)
    .returning(['id']).executeTakeFirst();

export const linkSuccessor = (db: Executor, id: number, successorId: number) =>
  db.updateTable('refresh_tokens').set({ replaced_by_id: successorId }).where('id', '=', id).execute();

export const findTokenByHash = (db: Executor, tokenHash: string) =>
  db.selectFrom('refresh_tokens').select(['id', 'expires_at', 'revoked_at']).where('token_hash', '=', tokenHash).executeTakeFirst();

export const touchRefreshToken = (db: Executor, id: number, now: Date) =>
  db.updateTable('refresh_tokens').set({ last_used_at: now }).where('id', '=', id).execute();

export const insertBlacklistEntry = (db: Executor, values: NewRow<'token_blacklist'>) =>
  db.insertInto('token_blacklist').values(values).onConflict((oc) => oc.column('jti').doNothing()).execute();

/**
 * The one query behind every authenticated request: the user, whether this token's jti is blacklisted and
 * whether its session is still open.
 */
export const findBearerState = (db: Executor, userId: number, jti: string, sessionId: number, now: Date) =>
  db.selectFrom('users as u')
    .select(['u.id', 'u.email', 'u.phone', 'u.first_name', 'u.last_name', 'u.is_active', 'u.is_banned', 'u.deleted_at',
      'u.is_staff', 'u.is_superuser', 'u.is_2fa_enabled', 'u.must_change_password', 'u.has_usable_password',
      'u.language', 'u.tokens_valid_after'])
    .select([
      sql<boolean>`exists (select 1 from token_blacklist b where b.jti = ${jti})`.as('is_blacklisted'),
      sql<boolean>`exists (select 1 from sessions s where s.id = ${sessionId} and s.user_id = u.id and s.revoked_at is null and s.expires_at > ${now})`.as('session_open'),
    ])
    .where('u.id', '=', userId).executeTakeFirst();
