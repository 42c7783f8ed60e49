import { sql } from 'kysely';
import { dateOrNull } from '../../db/json-row.js';
import type { Executor, NewRow } from '../../db/database.js';
import { precompile } from '../../db/precompiled.js';
import { PUBLIC_USER_COLUMNS } from './user-columns.js';

export const insertUser = (db: Executor, values: NewRow<'users'>) =>
  db.insertInto('users').values(values).returning(['id', 'email', 'phone', 'created_at']).executeTakeFirstOrThrow();

export const findUserIdByEmail = (db: Executor, email: string) =>
  db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();

export const findUserIdByPhone = (db: Executor, phone: string) =>
  db.selectFrom('users').select('id').where('phone', '=', phone).executeTakeFirst();

export const findRolesByCodes = (db: Executor, codes: string[]) =>
  codes.length === 0 ? Promise.resolve([]) : db.selectFrom('roles').select(['id', 'code']).where('code', 'in', codes).execute();

export const findDefaultRoles = (db: Executor) =>
  db.selectFrom('roles').select(['id', 'code']).where('is_default', '=', true).execute();

export const insertUserRoles = (db: Executor, userId: number, roleIds: number[], assignedBy: number | null = null) =>
  roleIds.length === 0 ? Promise.resolve([]) : db.insertInto('user_roles')
    .values(roleIds.map((role_id) => ({ user_id: userId, role_id, assigned_by: assignedBy })))
    .onConflict((oc) => oc.columns(['user_id', 'role_id']).doNothing()).execute();

/** Everything a sign-in decision needs, and nothing that is not. */
const LOGIN_COLUMNS = ['id', 'email', 'phone', 'password_hash', 'password_hash_unnormalized', 'has_usable_password', 'is_active', 'is_banned', 'deleted_at',
  'locked_until', 'failed_login_count', 'lockout_count', 'must_change_password', 'is_2fa_enabled', 'is_staff',
  'is_superuser', 'max_sessions', 'max_devices', 'tokens_valid_after', 'deletion_scheduled_at'] as const;

export const findUserForLoginById = (db: Executor, id: number) =>
  db.selectFrom('users').select(LOGIN_COLUMNS).where('id', '=', id).executeTakeFirst();

export type LoginUser = NonNullable<Awaited<ReturnType<typeof findUserForLoginById>>>;

type LoginDateColumn = 'deleted_at' | 'locked_until' | 'tokens_valid_after' | 'deletion_scheduled_at';
/** The row as `row_to_json` answers it: the timestamps are ISO 8601 text. */
type LoginUserJson = Omit<LoginUser, LoginDateColumn> & { [K in LoginDateColumn]: string | null };

/**
 * Sign-in lookups run on every login attempt: compiled once per column, and answered as one JSON value (the driver
 * parses one field instead of describing and converting 19 columns).
 */
const loginUserBy = (column: 'email' | 'phone') => precompile((db: Executor, a: { value: string }) =>
  db.selectFrom(db.selectFrom('users').select(LOGIN_COLUMNS).where(column, '=', a.value).as('u'))
    .select(sql<LoginUserJson>`row_to_json(u)`.as('user')), { value: '\u0000login' });
const loginUserByEmail = loginUserBy('email');
const loginUserByPhone = loginUserBy('phone');

export async function findUserForLogin(db: Executor, by: { email: string } | { phone: string }): Promise<LoginUser | undefined> {
  const found = 'email' in by ? await loginUserByEmail(db, { value: by.email }) : await loginUserByPhone(db, { value: by.phone });
  if (!found) return undefined;
  const { user } = found;
  return { ...user, deleted_at: dateOrNull(user.deleted_at), locked_until: dateOrNull(user.locked_until),
    tokens_valid_after: dateOrNull(user.tokens_valid_after), deletion_scheduled_at: dateOrNull(user.deletion_scheduled_at) };
}


/** Where the account's notices go, and in which language. */
export const findContact = (db: Executor, id: number) =>
  db.selectFrom('users').select(['email', 'phone', 'language']).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();

export const findPublicUser = (db: Executor, id: number) =>
  db.selectFrom('users').select(PUBLIC_USER_COLUMNS).where('id', '=', id).executeTakeFirst();

export type PublicUser = NonNullable<Awaited<ReturnType<typeof findPublicUser>>>;

/** The public fields and what says whether the account may still sign in: the claims an OpenID Provider releases. */
export const findUserForClaims = (db: Executor, id: number) =>
  db.selectFrom('users').select([...PUBLIC_USER_COLUMNS, 'is_banned', 'deleted_at', 'deletion_scheduled_at', 'locked_until', 'tokens_valid_after'])
    .where('id', '=', id).executeTakeFirst();

/**
 * Replaces a hash proven by a correct password with an up-to-date one (normalized, current parameters). Only while
 * the row still holds the hash that was checked: a password changed meanwhile is never overwritten.
 */
export const replacePasswordHash = (db: Executor, id: number, checked: string, hash: string) =>
  db.updateTable('users').set({ password_hash: hash, password_hash_unnormalized: false })
    .where('id', '=', id).where('password_hash', '=', checked).execute();

