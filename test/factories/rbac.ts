import type { Executor } from '../../src/db/database.js';
import type { TestApp } from '../helpers/test-app.js';

/** A permission, optionally under a parent given by code. */
export async function createPermission(db: Executor, code: string, parentCode?: string) {
  const parent = parentCode
    ? await db.selectFrom('permissions').select('id').where('code', '=', parentCode).executeTakeFirstOrThrow()
    : undefined;
  return db.insertInto('permissions').values({ code, name: code, parent_id: parent?.id ?? null })
    .returning(['id', 'code']).executeTakeFirstOrThrow();
}

/** A role holding the permissions named by code. */
export async function createRole(db: Executor, code: string, permissionCodes: string[] = [], isDefault = false) {
  const role = await db.insertInto('roles').values({ code, name: code, is_default: isDefault })
    .returning(['id', 'code']).executeTakeFirstOrThrow();
  if (permissionCodes.length) {
    const permissions = await db.selectFrom('permissions').select('id').where('code', 'in', permissionCodes).execute();
    await db.insertInto('role_permissions').values(permissions.map((p) => ({ role_id: role.id, permission_id: p.id }))).execute();
  }
  return role;
}

export async function assignRole(db: Executor, userId: number, roleCode: string) {
  const role = await db.selectFrom('roles').select('id').where('code', '=', roleCode).executeTakeFirstOrThrow();
  await db.insertInto('user_roles').values({ user_id: userId, role_id: role.id }).execute();
}

/** Direct permissions given to a user without going through the API. */
export async function grantDirect(t: TestApp, userId: number, codes: string[]) {
  const rows = await t.container.db.selectFrom('permissions').select('id').where('code', 'in', codes).execute();
  await t.container.db.insertInto('user_permissions').values(rows.map((r) => ({ user_id: userId, permission_id: r.id }))).execute();
}
