import { sql } from 'kysely';
import { dateOrNull } from '../../db/json-row.js';
import type { Executor, NewRow } from '../../db/database.js';
import { precompile } from '../../db/precompiled.js';
import { grantRefs, grantsFrom, type GrantRefs } from '../rbac/permission-graph.js';
import { PUBLIC_USER_COLUMNS } from '../users/user-columns.js';

/** A refresh token with its session and the account state refresh re-checks: every refresh reads it, compiled once. */
const refreshTokenQuery = precompile((db: Executor, a: { tokenHash: string }) =>
  db.selectFrom('refresh_tokens as rt')
    .innerJoin('sessions as s', 's.id', 'rt.session_id')
    .innerJoin('users as u', 'u.id', 'rt.user_id')
    .select(['rt.id', 'rt.session_id', 'rt.user_id', 'rt.application_id', 'rt.created_at', 'rt.expires_at', 'rt.rotated_at',
      'rt.revoked_at', 's.revoked_at as session_revoked_at', 's.expires_at as session_expires_at',
      's.device_summary', 's.device_id', 'u.is_active', 'u.is_banned', 'u.deleted_at', 'u.locked_until',
      'u.must_change_password', 'u.tokens_valid_after', 'u.is_staff', 'u.is_superuser', 'u.is_2fa_enabled', 's.second_factor',
      's.auth_time'])
    .where('rt.token_hash', '=', a.tokenHash), { tokenHash: '\u0000hash' });

export const findRefreshToken = (db: Executor, tokenHash: string) => refreshTokenQuery(db, { tokenHash });

/** The application a refresh token was issued to (null when none), or undefined for an unknown token. */
export const findRefreshTokenApplication = (db: Executor, tokenHash: string) =>
  db.selectFrom('refresh_tokens').select('application_id').where('token_hash', '=', tokenHash).executeTakeFirst();

type Rotation = { id: number; successorHash: string; now: Date; expiresAt: Date; ip: string | null; audit: boolean; superuser: boolean };
type RotationArgs = Pick<Rotation, 'id' | 'successorHash' | 'now' | 'expiresAt' | 'ip'>;

/**
 * The rotation statement, with or without its audit event. The token is found by its primary key alone:
 * `coalesce(rotated_at, revoked_at) is null` says "neither rotated nor revoked" in a form no partial index's predicate
 * matches, so a generic plan cannot walk the live-tokens-by-expiry index instead (test/db/hot-path-plans.test.ts).
 */
const rotationQuery = (audit: boolean) => (db: Executor, p: RotationArgs) => ({ compile: () => sql<{ id: number; refs: GrantRefs }>`
    with retired as (
      update refresh_tokens set rotated_at = ${p.now}, last_used_at = ${p.now}
      where id = ${p.id} and coalesce(rotated_at, revoked_at) is null
      returning session_id, user_id, application_id
    ), successor as (
      insert into refresh_tokens (session_id, user_id, application_id, token_hash, created_at, expires_at, ip_address)
      select session_id, user_id, application_id, ${p.successorHash}, ${p.now}, ${p.expiresAt}, ${p.ip} from retired
      returning id, session_id, user_id
    ), extended as (
      update sessions set last_used_at = ${p.now}, expires_at = ${p.expiresAt} where id = (select session_id from successor)
    )${audit ? sql`, audited as (
      insert into audit_events (event_type, severity, user_id, application_id, ip_address, details, created_at)
      select 'token_refresh', 'info', user_id, application_id, ${p.ip}, jsonb_build_object('session_id', session_id), ${p.now}
      from retired
    )` : sql``}
    select id, ${grantRefs('successor.user_id')} as refs from successor`.compile(db) });

const rotationMarkers: RotationArgs = { id: -1, successorHash: '\u0000hash', now: new Date(0), expiresAt: new Date(1), ip: '\u0000ip' };
const rotations = [false, true].map((audit) => precompile(rotationQuery(audit), rotationMarkers));

/** The rotation statement as it is sent: for checking its plan (test/db/hot-path-plans.test.ts). */
export const rotationStatement = (db: Executor, p: RotationArgs, audit = true) => rotationQuery(audit)(db, p).compile();

/**
 * Rotation in one statement: retire the token (only while not yet rotated — one caller wins a race), insert its
 * successor, extend the session to the successor's expiry and, with `audit`, write the `token_refresh` event.
 * Answers the successor's id with the user's role and permission codes for the new access token (so a refresh
 * needs no further read), or undefined when the token was already rotated or revoked.
 */
export async function rotateRefreshToken(db: Executor, p: Rotation) {
  const row = await rotations[Number(p.audit)]!(db, p);
  return row && { id: row.id, grants: await grantsFrom(db, row.refs, p.superuser) };
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
const bearerStateQuery = (db: Executor, a: { userId: number; jti: string; sessionId: number; now: Date | string }) =>
  db.selectFrom('users as u')
    .select(PUBLIC_USER_COLUMNS.map((c) => `u.${c}` as const))
    .select(['u.is_banned', 'u.deleted_at', 'u.tokens_valid_after', 'u.deletion_scheduled_at'])
    .select([
      sql<boolean>`exists (select 1 from token_blacklist b where b.jti = ${a.jti})`.as('is_blacklisted'),
      // The session by its primary key alone, its state read from the row: with the conditions in the subquery's
      // where clause, a generic plan (a prepared statement's, planned before the table had statistics) could walk
      // the live-sessions-by-expiry index instead, reading every live session on every request.
      sql<boolean>`coalesce((select s.user_id = u.id and s.revoked_at is null and s.expires_at > ${a.now} from sessions s where s.id = ${a.sessionId}), false)`
        .as('session_open'),
    ])
    .where('u.id', '=', a.userId);

type BearerRow = NonNullable<Awaited<ReturnType<ReturnType<typeof bearerStateQuery>['executeTakeFirst']>>>;
type DateColumn = 'created_at' | 'last_login' | 'deleted_at' | 'tokens_valid_after' | 'deletion_scheduled_at';
/** The row as `row_to_json` answers it: the timestamps are ISO 8601 text. */
type BearerJson = Omit<BearerRow, DateColumn> & { [K in DateColumn]: BearerRow[K] extends Date ? string : string | null };

/**
 * Every request with a bearer token runs this: compiled once, and answered as one JSON value. The driver then
 * parses one field with the native JSON parser instead of describing and converting 27 columns one by one.
 */
const bearerStateJson = (db: Executor, a: { userId: number; jti: string; sessionId: number; now: string }) =>
  db.selectFrom(bearerStateQuery(db, a).as('b')).select(sql<BearerJson>`row_to_json(b)`.as('state'));
const bearerState = precompile(bearerStateJson, { userId: -1, jti: '\u0000jti', sessionId: -2, now: '\u0000now' });

/** The bearer statement as it is sent, with its arguments: for checking its plan (test/db/hot-path-plans.test.ts). */
export const bearerStatement = (db: Executor, a: { userId: number; jti: string; sessionId: number; now: string }) =>
  bearerStateJson(db, a).compile();

/** The user, whether the token is blacklisted and whether its session is open, in one query. */
export async function findBearerState(db: Executor, userId: number, jti: string, sessionId: number, now: Date): Promise<BearerRow | undefined> {
  // The time goes as ISO text: the driver's conversion of a Date parameter costs more than the query's own binding.
  const found = await bearerState(db, { userId, jti, sessionId, now: now.toISOString() });
  if (!found) return undefined;
  const row = found.state;
  return { ...row, created_at: new Date(row.created_at), last_login: dateOrNull(row.last_login),
    deleted_at: dateOrNull(row.deleted_at), tokens_valid_after: dateOrNull(row.tokens_valid_after),
    deletion_scheduled_at: dateOrNull(row.deletion_scheduled_at) };
}
