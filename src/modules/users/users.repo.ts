import type { Executor, NewRow } from '../../db/database.js';

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
