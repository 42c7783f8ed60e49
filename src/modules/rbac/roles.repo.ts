import type { Executor, NewRow, RowUpdate } from '../../db/database.js';
import { containsPattern, type Order } from '../../core/listing.js';

export type RoleOrderColumn = 'code' | 'name' | 'created_at';

export interface RoleFilter {
  search?: string;
  isDefault?: boolean;
}

function filtered(db: Executor, f: RoleFilter) {
  let q = db.selectFrom('roles');
  if (f.search) {
    const pattern = containsPattern(f.search);
    q = q.where((eb) => eb.or([eb('code', 'ilike', pattern), eb('name', 'ilike', pattern)]));
  }
  if (f.isDefault !== undefined) q = q.where('is_default', '=', f.isDefault);
  return q;
}

export async function listRoles(db: Executor, f: RoleFilter, order: Order<RoleOrderColumn>, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    filtered(db, f).select(['id', 'code', 'name', 'is_default']).orderBy(order.column, order.direction)
      .orderBy('id', order.direction).limit(limit).offset(offset).execute(),
    filtered(db, f).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

const ROLE_COLUMNS = ['id', 'code', 'name', 'description', 'is_default', 'is_system', 'created_at', 'updated_at'] as const;

export const findRole = (db: Executor, id: number) =>
  db.selectFrom('roles').select(ROLE_COLUMNS).where('id', '=', id).executeTakeFirst();

export const findRoleByCode = (db: Executor, code: string) =>
  db.selectFrom('roles').select(ROLE_COLUMNS).where('code', '=', code).executeTakeFirst();

export type RoleRow = NonNullable<Awaited<ReturnType<typeof findRole>>>;

/** The permissions a role holds, by code. */
export const rolePermissions = (db: Executor, roleId: number) =>
  db.selectFrom('role_permissions as rp').innerJoin('permissions as p', 'p.id', 'rp.permission_id')
    .select(['p.id', 'p.code', 'p.name', 'p.description']).where('rp.role_id', '=', roleId).orderBy('p.code').execute();

export const insertRole = (db: Executor, values: NewRow<'roles'>) =>
  db.insertInto('roles').values(values).returning('id').executeTakeFirstOrThrow();

export const updateRole = (db: Executor, id: number, values: RowUpdate<'roles'>) =>
  db.updateTable('roles').set(values).where('id', '=', id).execute();

export const deleteRole = (db: Executor, id: number) =>
  db.deleteFrom('roles').where('id', '=', id).execute();

export const addRolePermissions = (db: Executor, roleId: number, permissionIds: number[]) =>
  permissionIds.length === 0 ? Promise.resolve() : db.insertInto('role_permissions')
    .values(permissionIds.map((permission_id) => ({ role_id: roleId, permission_id })))
    .onConflict((oc) => oc.columns(['role_id', 'permission_id']).doNothing()).execute().then(() => undefined);

export const removeRolePermissions = (db: Executor, roleId: number, permissionIds: number[]) =>
  permissionIds.length === 0 ? Promise.resolve() : db.deleteFrom('role_permissions')
    .where('role_id', '=', roleId).where('permission_id', 'in', permissionIds).execute().then(() => undefined);

/** Roles a user holds, with the codes of the permissions each grants. */
export const rolesOfUser = (db: Executor, userId: number) =>
  db.selectFrom('user_roles as ur').innerJoin('roles as r', 'r.id', 'ur.role_id')
    .select(['r.id', 'r.code', 'r.name', 'r.is_default']).where('ur.user_id', '=', userId).orderBy('r.code').execute();

export const assignUserRole = (db: Executor, values: NewRow<'user_roles'>) =>
  db.insertInto('user_roles').values(values).onConflict((oc) => oc.columns(['user_id', 'role_id']).doNothing())
    .returning('user_id').executeTakeFirst().then((r) => r !== undefined);

export const removeUserRole = (db: Executor, userId: number, roleId: number) =>
  db.deleteFrom('user_roles').where('user_id', '=', userId).where('role_id', '=', roleId)
    .executeTakeFirst().then((r) => Number(r.numDeletedRows) > 0);
