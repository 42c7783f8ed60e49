import { AppError } from '../../core/errors.js';
import type { Db, Executor } from '../../db/database.js';
import type { AuditService } from '../audit/audit.service.js';
import { auditOrigin, ownAccountRefusal, refusalFor, type Actor } from './actor.js';
import { codesOf, resolvePermissionCodes } from './permission-codes.js';
import { assertHoldsAll } from './permission-set.js';
import { toPermissionSummary } from './permissions.schemas.js';
import type { RbacService } from './rbac.service.js';
import * as roles from './roles.repo.js';
import { toRoleSummary } from './roles.schemas.js';
import * as repo from './user-grants.repo.js';

type Deps = { db: Db; audit: AuditService; rbac: RbacService };

/**
 * docs/access-control.md "User roles and direct permissions". Nobody changes their own grants, only a superuser
 * changes a superuser's, and every permission granted or taken away must be held by the actor.
 */
export function createUserGrantsService({ db, audit, rbac }: Deps) {
  async function load(trx: Executor, id: number) {
    const user = await repo.findGrantTarget(trx, id);
    if (!user) throw new AppError('NOT_FOUND');
    return user;
  }

  /** The account a change targets; changing one's own grants is refused even to superusers. */
  async function loadForChange(trx: Executor, actor: Actor, id: number) {
    const user = await load(trx, id);
    if (user.id === actor.id) throw ownAccountRefusal();
    if (user.is_superuser && !actor.is_superuser) throw refusalFor(actor);
    return user;
  }

  const roleCodes = async (trx: Executor, userId: number) => codesOf(await roles.rolesOfUser(trx, userId));

  async function rolesOf(id: number) {
    const user = await load(db, id);
    return { user_id: user.id, roles: (await roles.rolesOfUser(db, id)).map(toRoleSummary) };
  }

  /** The role by code and the codes it grants; 404 ROLE_NOT_FOUND for an unknown code. */
  async function roleWithPermissions(trx: Executor, code: string) {
    const role = await roles.findRoleByCode(trx, code);
    if (!role) throw new AppError('ROLE_NOT_FOUND');
    return { role, permissions: codesOf(await roles.rolePermissions(trx, role.id)) };
  }

  async function assignRole(actor: Actor, id: number, roleCode: string) {
    return db.transaction().execute(async (trx) => {
      const user = await loadForChange(trx, actor, id);
      const { role, permissions } = await roleWithPermissions(trx, roleCode);
      assertHoldsAll(actor.permissions, permissions);
      const assigned = await roles.assignUserRole(trx, { user_id: user.id, role_id: role.id, assigned_by: actor.id });
      if (assigned) {
        await audit.record({ event_type: 'user_role_assigned', severity: 'warning', user_id: user.id, ...auditOrigin(actor),
          details: { role: role.code, permissions } }, trx);
      }
      return { message: assigned ? 'Role assigned' : 'Role already assigned', roles: await roleCodes(trx, user.id) };
    });
  }

  async function removeRole(actor: Actor, id: number, roleCode: string) {
    return db.transaction().execute(async (trx) => {
      const user = await loadForChange(trx, actor, id);
      const { role, permissions } = await roleWithPermissions(trx, roleCode);
      assertHoldsAll(actor.permissions, permissions);
      const removed = await roles.removeUserRole(trx, user.id, role.id);
      if (removed) {
        await audit.record({ event_type: 'user_role_removed', severity: 'warning', user_id: user.id, ...auditOrigin(actor),
          details: { role: role.code, permissions } }, trx);
      }
      return { message: removed ? 'Role removed' : 'Role not assigned', roles: await roleCodes(trx, user.id) };
    });
  }

  async function permissionsOf(id: number) {
    const user = await load(db, id);
    const [direct, grants] = await Promise.all([repo.directPermissions(db, id), rbac.grantsOf(user)]);
    return { user_id: user.id, email: user.email, direct_permissions: direct.map(toPermissionSummary), all_permissions: grants.permissions };
  }

  async function addPermissions(actor: Actor, id: number, codes: string[]) {
    return db.transaction().execute(async (trx) => {
      const user = await loadForChange(trx, actor, id);
      const requested = await resolvePermissionCodes(trx, codes);
      assertHoldsAll(actor.permissions, codesOf(requested));
      const current = codesOf(await repo.directPermissions(trx, id));
      const toAdd = requested.filter((p) => !current.includes(p.code));
      const already = codesOf(requested.filter((p) => current.includes(p.code)));
      if (toAdd.length > 0) {
        await repo.addDirectPermissions(trx, toAdd.map((p) => ({ user_id: user.id, permission_id: p.id, granted_by: actor.id })));
        await audit.record({ event_type: 'user_permissions_added', severity: 'warning', user_id: user.id, ...auditOrigin(actor),
          details: { added: codesOf(toAdd) } }, trx);
      }
      return {
        message: `${toAdd.length} permission(s) added`, added: codesOf(toAdd), ...(already.length ? { already_assigned: already } : {}),
        user_id: user.id, direct_permissions: (await repo.directPermissions(trx, id)).map(toPermissionSummary),
      };
    });
  }

  async function removePermissions(actor: Actor, id: number, codes: string[]) {
    return db.transaction().execute(async (trx) => {
      const user = await loadForChange(trx, actor, id);
      const requested = await resolvePermissionCodes(trx, codes);
      assertHoldsAll(actor.permissions, codesOf(requested));
      const current = codesOf(await repo.directPermissions(trx, id));
      const toRemove = requested.filter((p) => current.includes(p.code));
      const notAssigned = codesOf(requested.filter((p) => !current.includes(p.code)));
      if (toRemove.length > 0) {
        await repo.removeDirectPermissions(trx, user.id, toRemove.map((p) => p.id));
        await audit.record({ event_type: 'user_permissions_removed', severity: 'warning', user_id: user.id, ...auditOrigin(actor),
          details: { removed: codesOf(toRemove) } }, trx);
      }
      return {
        message: `${toRemove.length} permission(s) removed`, removed: codesOf(toRemove),
        ...(notAssigned.length ? { not_assigned: notAssigned } : {}),
        user_id: user.id, direct_permissions: (await repo.directPermissions(trx, id)).map(toPermissionSummary),
      };
    });
  }

  return { rolesOf, assignRole, removeRole, permissionsOf, addPermissions, removePermissions };
}

export type UserGrantsService = ReturnType<typeof createUserGrantsService>;
