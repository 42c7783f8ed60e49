import { sql } from 'kysely';
import type { Executor, RowUpdate } from '../../db/database.js';
import { containsPattern, type Order } from '../../core/listing.js';

export type AdminUserOrderColumn = 'created_at' | 'email' | 'last_login' | 'first_name' | 'last_name';

export interface AdminUserFilter {
  search?: string;
  isActive?: boolean;
  isLocked?: boolean;
  isBanned?: boolean;
  /** Left out: soft-deleted accounts are not listed. */
  isDeleted?: boolean;
  isStaff?: boolean;
  isSuperuser?: boolean;
  role?: string;
  from?: Date;
  before?: Date;
  now: Date;
}

/** What an administrator sees of an account: never a password hash, TOTP secret or token. */
const ADMIN_USER_COLUMNS = ['id', 'email', 'username', 'phone', 'first_name', 'last_name', 'is_active', 'is_staff', 'is_superuser',
  'is_banned', 'banned_at', 'ban_reason', 'locked_until', 'failed_login_count', 'is_email_verified', 'is_phone_verified',
  'is_2fa_enabled', 'must_change_password', 'has_usable_password', 'max_sessions', 'max_devices', 'deleted_at', 'created_at',
  'updated_at', 'last_login', 'admin_deactivated_at'] as const;

function filtered(db: Executor, f: AdminUserFilter) {
  let q = db.selectFrom('users');
  if (f.search) {
    const pattern = containsPattern(f.search);
    q = q.where((eb) => eb.or([eb('email', 'ilike', pattern), eb('username', 'ilike', pattern), eb('phone', 'ilike', pattern),
      eb('first_name', 'ilike', pattern), eb('last_name', 'ilike', pattern)]));
  }
  if (f.isActive !== undefined) q = q.where('is_active', '=', f.isActive);
  if (f.isBanned !== undefined) q = q.where('is_banned', '=', f.isBanned);
  if (f.isStaff !== undefined) q = q.where('is_staff', '=', f.isStaff);
  if (f.isSuperuser !== undefined) q = q.where('is_superuser', '=', f.isSuperuser);
  if (f.isLocked === true) q = q.where('locked_until', '>', f.now);
  if (f.isLocked === false) q = q.where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', f.now)]));
  q = q.where('deleted_at', f.isDeleted ? 'is not' : 'is', null);
  if (f.role !== undefined) {
    const role = f.role;
    q = q.where(({ exists, selectFrom }) => exists(selectFrom('user_roles as ur').innerJoin('roles as r', 'r.id', 'ur.role_id')
      .select('ur.user_id').whereRef('ur.user_id', '=', 'users.id').where('r.code', '=', role)));
  }
  if (f.from) q = q.where('created_at', '>=', f.from);
  if (f.before) q = q.where('created_at', '<', f.before);
  return q;
}

export async function listUsers(db: Executor, f: AdminUserFilter, order: Order<AdminUserOrderColumn>, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    filtered(db, f).select(ADMIN_USER_COLUMNS)
      .orderBy(order.column, (ob) => (order.direction === 'desc' ? ob.desc() : ob.asc()).nullsLast())
      .orderBy('id', order.direction).limit(limit).offset(offset).execute(),
    filtered(db, f).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export const findAdminUser = (db: Executor, id: number) =>
  db.selectFrom('users').select(ADMIN_USER_COLUMNS).where('id', '=', id).executeTakeFirst();

export type AdminUserRow = NonNullable<Awaited<ReturnType<typeof findAdminUser>>>;

/** Role codes of each of the users, for a page of the listing in one query. */
export async function roleCodesByUser(db: Executor, userIds: number[]): Promise<Map<number, string[]>> {
  const byUser = new Map<number, string[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return byUser;
  const rows = await db.selectFrom('user_roles as ur').innerJoin('roles as r', 'r.id', 'ur.role_id')
    .select(['ur.user_id', 'r.code']).where('ur.user_id', 'in', userIds).orderBy('r.code').execute();
  for (const row of rows) byUser.get(row.user_id)?.push(row.code);
  return byUser;
}

export const updateUser = (db: Executor, id: number, values: RowUpdate<'users'>) =>
  db.updateTable('users').set(values).where('id', '=', id).execute();

/** The account with this email, whatever its case (addresses are stored as typed, compared without case). */
export const findUserIdByEmail = (db: Executor, email: string) =>
  db.selectFrom('users').select('id').where(sql`lower(email)`, '=', email.toLowerCase()).executeTakeFirst();
