import type { Db } from '../database.js';
import { DEFAULT_ROLES, ORG_PERMISSIONS, ORG_ROLES, SYSTEM_PERMISSIONS } from './data.js';

export interface SeedResult {
  permissionsCreated: number;
  rolesCreated: number;
  orgRolesCreated: number;
}

/**
 * Idempotent: creates what is missing and never edits what an operator changed, except that the
 * system roles always hold their system permissions.
 */
export async function seed(db: Db): Promise<SeedResult> {
  return db.transaction().execute(async (trx) => {
    const perms = await trx.insertInto('permissions')
      .values(SYSTEM_PERMISSIONS.map((p) => ({ ...p, is_system: true })))
      .onConflict((oc) => oc.column('code').doNothing()).returning('id').execute();
    const roles = await trx.insertInto('roles')
      .values(DEFAULT_ROLES.map(({ permissions: _p, ...r }) => ({ ...r, is_system: true })))
      .onConflict((oc) => oc.column('code').doNothing()).returning('id').execute();
    for (const role of DEFAULT_ROLES) {
      if (role.permissions.length === 0) continue;
      const roleRow = await trx.selectFrom('roles').select('id').where('code', '=', role.code).executeTakeFirstOrThrow();
      const permRows = await trx.selectFrom('permissions').select('id').where('code', 'in', role.permissions).execute();
      await trx.insertInto('role_permissions')
        .values(permRows.map((p) => ({ role_id: roleRow.id, permission_id: p.id })))
        .onConflict((oc) => oc.columns(['role_id', 'permission_id']).doNothing()).execute();
    }
    await trx.insertInto('org_permissions').values([...ORG_PERMISSIONS])
      .onConflict((oc) => oc.column('code').doNothing()).execute();
    const orgRoles = await trx.insertInto('org_roles')
      .values(ORG_ROLES.map(({ permissions: _p, ...r }) => ({ ...r, is_system_role: true })))
      .onConflict((oc) => oc.column('code').doNothing()).returning('id').execute();
    for (const role of ORG_ROLES) {
      const roleRow = await trx.selectFrom('org_roles').select('id').where('code', '=', role.code).executeTakeFirstOrThrow();
      await trx.insertInto('org_role_permissions')
        .values(role.permissions.map((code) => ({ org_role_id: roleRow.id, permission_code: code })))
        .onConflict((oc) => oc.columns(['org_role_id', 'permission_code']).doNothing()).execute();
    }
    return { permissionsCreated: perms.length, rolesCreated: roles.length, orgRolesCreated: orgRoles.length };
  });
}
