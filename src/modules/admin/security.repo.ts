import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { Order } from '../../core/listing.js';

export type BlacklistOrderColumn = 'blacklisted_at' | 'expires_at';
export type RefreshTokenOrderColumn = 'created_at' | 'expires_at' | 'last_used_at';
export type LoginAttemptOrderColumn = 'created_at' | 'identifier' | 'ip_address';

export interface BlacklistFilter { userId?: number; reason?: string; expired?: boolean; now: Date }

function blacklist(db: Executor, f: BlacklistFilter) {
  let q = db.selectFrom('token_blacklist as b').leftJoin('users as u', 'u.id', 'b.user_id');
  if (f.userId !== undefined) q = q.where('b.user_id', '=', f.userId);
  if (f.reason !== undefined) q = q.where('b.reason', '=', f.reason);
  if (f.expired !== undefined) q = q.where('b.expires_at', f.expired ? '<=' : '>', f.now);
  return q;
}

export async function listBlacklist(db: Executor, f: BlacklistFilter, order: Order<BlacklistOrderColumn>, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    blacklist(db, f).select(['b.id', 'b.jti', 'b.user_id', 'u.email as user_email', 'b.blacklisted_at', 'b.expires_at', 'b.reason'])
      .orderBy(`b.${order.column}`, order.direction).orderBy('b.id', order.direction).limit(limit).offset(offset).execute(),
    blacklist(db, f).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

/** Entries past their token's expiry protect nothing: the token is refused as expired anyway. */
export const deleteExpiredBlacklist = (db: Executor, now: Date) =>
  db.deleteFrom('token_blacklist').where('expires_at', '<=', now).executeTakeFirst().then((r) => Number(r.numDeletedRows));

export interface RefreshTokenFilter { userId?: number; applicationId?: number; isRevoked?: boolean; expired?: boolean; now: Date }

/**
 * A refresh token is dead once revoked, retired by rotation (even while its reuse grace lasts it only hands back
 * its successor), or when its session ended (logout, replay, password change, limits): the listing, its filter
 * and revoke/ all read this one expression.
 */
const isRevoked = sql<boolean>`(rt.revoked_at is not null or rt.rotated_at is not null or s.revoked_at is not null)`;

function refreshTokens(db: Executor, f: RefreshTokenFilter) {
  let q = db.selectFrom('refresh_tokens as rt')
    .innerJoin('sessions as s', 's.id', 'rt.session_id')
    .leftJoin('users as u', 'u.id', 'rt.user_id')
    .leftJoin('applications as a', 'a.id', 'rt.application_id');
  if (f.userId !== undefined) q = q.where('rt.user_id', '=', f.userId);
  if (f.applicationId !== undefined) q = q.where('rt.application_id', '=', f.applicationId);
  if (f.isRevoked !== undefined) q = q.where(f.isRevoked ? isRevoked : sql<boolean>`not ${isRevoked}`);
  if (f.expired !== undefined) q = q.where('rt.expires_at', f.expired ? '<=' : '>', f.now);
  return q;
}

/** A refresh token as an administrator sees it, with its session's device summary: never its hash. */
const REFRESH_TOKEN_COLUMNS = ['rt.id', 'rt.session_id', 'rt.user_id', 'u.email as user_email', 'rt.application_id',
  'a.name as application_name', 's.device_summary', 'rt.ip_address', 'rt.rotated_at', 'rt.expires_at', 'rt.created_at', 'rt.last_used_at',
  isRevoked.as('is_revoked')] as const;

export async function listRefreshTokens(db: Executor, f: RefreshTokenFilter, order: Order<RefreshTokenOrderColumn>, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    refreshTokens(db, f).select(REFRESH_TOKEN_COLUMNS)
      .select((eb) => eb.fn.coalesce('rt.device_info', 's.device_info').as('device_info'))
      .orderBy(`rt.${order.column}`, (ob) => (order.direction === 'desc' ? ob.desc() : ob.asc()).nullsLast())
      .orderBy('rt.id', order.direction).limit(limit).offset(offset).execute(),
    refreshTokens(db, f).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export const findRefreshTokenRecord = (db: Executor, id: number) =>
  refreshTokens(db, { now: new Date(0) }).select(REFRESH_TOKEN_COLUMNS)
    .select((eb) => eb.fn.coalesce('rt.device_info', 's.device_info').as('device_info'))
    .where('rt.id', '=', id).executeTakeFirst();

export type RefreshTokenRecordRow = NonNullable<Awaited<ReturnType<typeof findRefreshTokenRecord>>>;

export interface LoginAttemptFilter {
  identifier?: string; ipAddress?: string; success?: boolean; userId?: number; applicationId?: number; from?: Date; before?: Date;
}

function loginAttempts(db: Executor, f: LoginAttemptFilter) {
  let q = db.selectFrom('login_attempts');
  if (f.identifier !== undefined) q = q.where('identifier', '=', f.identifier);
  if (f.ipAddress !== undefined) q = q.where('ip_address', '=', f.ipAddress);
  if (f.success !== undefined) q = q.where('success', '=', f.success);
  if (f.userId !== undefined) q = q.where('user_id', '=', f.userId);
  if (f.applicationId !== undefined) q = q.where('application_id', '=', f.applicationId);
  if (f.from) q = q.where('created_at', '>=', f.from);
  if (f.before) q = q.where('created_at', '<', f.before);
  return q;
}

export async function listLoginAttempts(db: Executor, f: LoginAttemptFilter, order: Order<LoginAttemptOrderColumn>, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    loginAttempts(db, f).select(['id', 'identifier', 'method', 'user_id', 'ip_address', 'application_id', 'success', 'failure_reason', 'created_at'])
      .orderBy(order.column, (ob) => (order.direction === 'desc' ? ob.desc() : ob.asc()).nullsLast())
      .orderBy('id', order.direction).limit(limit).offset(offset).execute(),
    loginAttempts(db, f).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}
