import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { pageRequest } from '../../core/pagination.js';
import type { Db, Executor, RowUpdate } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { AuditService } from '../audit/audit.service.js';
import { auditOrigin, type Actor } from './actor.js';
import { displayName } from '../../core/fields.js';
import { orderOf } from '../../core/listing.js';
import { codesOf, resolvePermissionCodes } from './permission-codes.js';
import { roleCodeFromName } from './role-code.js';
import { assertHoldsAll } from './permission-set.js';
import { toPermissionSummary } from './permissions.schemas.js';
import * as repo from './roles.repo.js';
import { toRole, toRoleSummary, type CreateRoleInput, type RoleListInput, type UpdateRoleInput } from './roles.schemas.js';

type Deps = { db: Db; clock: Clock; audit: AuditService };

const duplicateCode = () => AppError.validation({ code: ['A role with this code already exists.'] });

/** The code sent, or the one derived from the name when none is (docs/access-control.md "Roles"). */
function codeOf(sent: string | undefined, name: string): string {
  if (sent !== undefined) return sent;
  const derived = roleCodeFromName(name);
  if (derived === null) {
    throw AppError.validation({ name: ['No role code can be derived from this name (it needs a letter or digit, and at most '
      + '100 characters once derived): send a code.'] });
  }
  return derived;
}

const difference = (a: readonly string[], b: readonly string[]) => a.filter((x) => !b.includes(x));

/**
 * docs/access-control.md "Roles". Every permission a change grants or takes away must be held by the actor; making a role
 * default or deleting it touches all its permissions, so it needs all of them (superusers hold everything).
 */
export function createRoleService({ db, clock, audit }: Deps) {
  async function list(query: RoleListInput) {
    const page = pageRequest(query);
    const { rows, count } = await repo.listRoles(db, { search: query.search, isDefault: query.is_default },
      orderOf<repo.RoleOrderColumn>(query.ordering, 'name'), page.pageSize, page.offset);
    return { results: rows.map(toRoleSummary), count, page };
  }

  async function load(trx: Executor, id: number) {
    const role = await repo.findRole(trx, id);
    if (!role) throw new AppError('NOT_FOUND');
    return role;
  }

  async function present(trx: Executor, id: number) {
    const [role, permissions] = await Promise.all([load(trx, id), repo.rolePermissions(trx, id)]);
    return toRole(role, permissions);
  }

  const get = (id: number) => present(db, id);

  async function create(actor: Actor, input: CreateRoleInput) {
    const name = displayName(input.name);
    const code = codeOf(input.code, name);
    try {
      return await db.transaction().execute(async (trx) => {
        if (await repo.findRoleByCode(trx, code)) throw duplicateCode();
        const permissions = await resolvePermissionCodes(trx, input.permission_codes ?? []);
        assertHoldsAll(actor.permissions, codesOf(permissions));
        const now = clock.now();
        const { id } = await repo.insertRole(trx, {
          code, name, description: input.description?.trim() ?? '',
          is_default: input.is_default ?? false, created_at: now, updated_at: now,
        });
        await repo.addRolePermissions(trx, id, permissions.map((p) => p.id));
        await audit.record({ event_type: 'role_created', severity: input.is_default ? 'warning' : 'info', ...auditOrigin(actor),
          details: { role_id: id, code, permissions: codesOf(permissions), is_default: input.is_default ?? false } }, trx);
        return present(trx, id);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateCode();
      throw err;
    }
  }

  async function update(actor: Actor, id: number, input: UpdateRoleInput) {
    return db.transaction().execute(async (trx) => {
      const role = await load(trx, id);
      const current = await repo.rolePermissions(trx, id);
      const currentCodes = codesOf(current);
      const wanted = input.permission_codes === undefined ? current : await resolvePermissionCodes(trx, input.permission_codes);
      const wantedCodes = codesOf(wanted);
      const added = difference(wantedCodes, currentCodes);
      const removed = difference(currentCodes, wantedCodes);
      const defaultChanged = input.is_default !== undefined && input.is_default !== role.is_default;
      assertHoldsAll(actor.permissions, defaultChanged ? [...currentCodes, ...wantedCodes] : [...added, ...removed]);

      const changes: RowUpdate<'roles'> = {};
      if (input.name !== undefined) changes.name = displayName(input.name);
      if (input.description !== undefined) changes.description = input.description.trim();
      if (input.is_default !== undefined) changes.is_default = input.is_default;
      if (Object.keys(changes).length === 0 && added.length === 0 && removed.length === 0) return present(trx, id);
      await repo.updateRole(trx, id, { ...changes, updated_at: clock.now() });
      await repo.addRolePermissions(trx, id, wanted.filter((p) => added.includes(p.code)).map((p) => p.id));
      await repo.removeRolePermissions(trx, id, current.filter((p) => removed.includes(p.code)).map((p) => p.id));
      await audit.record({ event_type: 'role_updated', severity: added.length || removed.length || defaultChanged ? 'warning' : 'info',
        ...auditOrigin(actor), details: { role_id: id, code: role.code, fields: Object.keys(changes), added, removed } }, trx);
      return present(trx, id);
    });
  }

  /** Deleting a role takes it from every user who holds it. The seeded roles cannot be deleted. */
  async function remove(actor: Actor, id: number) {
    await db.transaction().execute(async (trx) => {
      const role = await load(trx, id);
      if (role.is_system) throw AppError.validation({ non_field_errors: ['System roles cannot be deleted.'] });
      const permissions = codesOf(await repo.rolePermissions(trx, id));
      assertHoldsAll(actor.permissions, permissions);
      await repo.deleteRole(trx, id);
      await audit.record({ event_type: 'role_deleted', severity: 'warning', ...auditOrigin(actor),
        details: { role_id: id, code: role.code, permissions } }, trx);
    });
    return { message: 'Role deleted' };
  }

  async function permissionsOf(id: number) {
    const [role, permissions] = await Promise.all([load(db, id), repo.rolePermissions(db, id)]);
    return { role_id: String(role.id), role_code: role.code, permissions: permissions.map(toPermissionSummary) };
  }

  /** POST roles/<id>/permissions/: `added` lists what changed, `already_assigned` only appears when non-empty. */
  async function addPermissions(actor: Actor, id: number, codes: string[]) {
    return db.transaction().execute(async (trx) => {
      const role = await load(trx, id);
      const requested = await resolvePermissionCodes(trx, codes);
      assertHoldsAll(actor.permissions, codesOf(requested));
      const currentCodes = codesOf(await repo.rolePermissions(trx, id));
      const toAdd = requested.filter((p) => !currentCodes.includes(p.code));
      const already = codesOf(requested.filter((p) => currentCodes.includes(p.code)));
      if (toAdd.length > 0) {
        await repo.addRolePermissions(trx, id, toAdd.map((p) => p.id));
        await repo.updateRole(trx, id, { updated_at: clock.now() });
        await audit.record({ event_type: 'role_permissions_added', severity: 'warning', ...auditOrigin(actor),
          details: { role_id: id, code: role.code, added: codesOf(toAdd) } }, trx);
      }
      const permissions = (await repo.rolePermissions(trx, id)).map(toPermissionSummary);
      return {
        message: `${toAdd.length} permission(s) added`, added: codesOf(toAdd),
        ...(already.length ? { already_assigned: already } : {}), role_code: role.code, permissions,
      };
    });
  }

  /** DELETE roles/<id>/permissions/: the mirror of add; `not_assigned` only appears when non-empty. */
  async function removePermissions(actor: Actor, id: number, codes: string[]) {
    return db.transaction().execute(async (trx) => {
      const role = await load(trx, id);
      const requested = await resolvePermissionCodes(trx, codes);
      assertHoldsAll(actor.permissions, codesOf(requested));
      const currentCodes = codesOf(await repo.rolePermissions(trx, id));
      const toRemove = requested.filter((p) => currentCodes.includes(p.code));
      const notAssigned = codesOf(requested.filter((p) => !currentCodes.includes(p.code)));
      if (toRemove.length > 0) {
        await repo.removeRolePermissions(trx, id, toRemove.map((p) => p.id));
        await repo.updateRole(trx, id, { updated_at: clock.now() });
        await audit.record({ event_type: 'role_permissions_removed', severity: 'warning', ...auditOrigin(actor),
          details: { role_id: id, code: role.code, removed: codesOf(toRemove) } }, trx);
      }
      const permissions = (await repo.rolePermissions(trx, id)).map(toPermissionSummary);
      return {
        message: `${toRemove.length} permission(s) removed`, removed: codesOf(toRemove),
        ...(notAssigned.length ? { not_assigned: notAssigned } : {}), role_code: role.code, permissions,
      };
    });
  }

  return { list, get, create, update, remove, permissionsOf, addPermissions, removePermissions };
}

export type RoleService = ReturnType<typeof createRoleService>;
