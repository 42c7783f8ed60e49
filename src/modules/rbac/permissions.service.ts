import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { pageRequest } from '../../core/pagination.js';
import type { Db, Executor, RowUpdate } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { AuditService } from '../audit/audit.service.js';
import { auditOrigin, type Actor } from './actor.js';
import { displayName } from '../../core/fields.js';
import { orderOf } from '../../core/listing.js';
import { assertHoldsAll } from './permission-set.js';
import {
  toPermission, toPermissionSummary, type CreatePermissionInput, type PermissionListInput, type UpdatePermissionInput,
} from './permissions.schemas.js';
import * as repo from './permissions.repo.js';

type Deps = { db: Db; clock: Clock; audit: AuditService };

const duplicateCode = () => AppError.validation({ code: ['A permission with this code already exists.'] });
const unknownParent = (code: string) => AppError.validation({ parent_code: [`Unknown permission code: ${code}.`] });

/**
 * docs/access-control.md "Permissions". A permission may sit under a parent: holding the parent grants it. Changes to the
 * tree are serialized, cycles are refused, and nobody places under a parent, or deletes, a permission they do not hold.
 */
export function createPermissionService({ db, clock, audit }: Deps) {
  async function list(query: PermissionListInput) {
    const page = pageRequest(query);
    const parentId = query.parent === undefined ? undefined : query.parent === 'null' ? null : Number(query.parent);
    const { rows, count } = await repo.listPermissions(db, { search: query.search, parentId },
      orderOf<repo.PermissionOrderColumn>(query.ordering, 'code'), page.pageSize, page.offset);
    return { results: rows.map(toPermissionSummary), count, page };
  }

  async function load(trx: Executor, id: number) {
    const row = await repo.findPermission(trx, id);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  async function present(trx: Executor, id: number) {
    const [row, children] = await Promise.all([load(trx, id), repo.findChildren(trx, id)]);
    return toPermission(row, children);
  }

  const get = (id: number) => present(db, id);

  /**
   * The parent named by `code`. Placing a permission under a parent grants that permission to the parent's
   * holders and grants nothing of the parent, so the actor need not hold the parent: what matters is whether
   * it may hand out the permission being placed (a new one: nobody holds it yet; a moved one: checked by update).
   */
  async function parentFor(trx: Executor, code: string) {
    const parent = await repo.findPermissionIdByCode(trx, code);
    if (!parent) throw unknownParent(code);
    return parent;
  }

  async function create(actor: Actor, input: CreatePermissionInput) {
    try {
      return await db.transaction().execute(async (trx) => {
        await repo.lockPermissionTree(trx);
        if (await repo.findPermissionIdByCode(trx, input.code)) throw duplicateCode();
        const parent = input.parent_code ? await parentFor(trx, input.parent_code) : null;
        const now = clock.now();
        const { id } = await repo.insertPermission(trx, {
          code: input.code, name: displayName(input.name), description: input.description?.trim() ?? '',
          parent_id: parent?.id ?? null, created_at: now, updated_at: now,
        });
        await audit.record({ event_type: 'permission_created', ...auditOrigin(actor),
          details: { permission_id: id, code: input.code, parent_code: parent?.code ?? null } }, trx);
        return present(trx, id);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicateCode();
      throw err;
    }
  }

  /**
   * docs/access-control.md "No escalation": its name and description, or making it a root (which takes it from
   * the old parent's holders and grants nothing), need `permissions.manage` only. Placing it under a parent grants it
   * to that parent's holders, so the actor must hold it (not the parent: the move grants nothing of the parent).
   * An unknown parent or a cycle is refused (400) before that check.
   */
  async function update(actor: Actor, id: number, input: UpdatePermissionInput) {
    return db.transaction().execute(async (trx) => {
      await repo.lockPermissionTree(trx);
      const current = await load(trx, id);
      const changes: RowUpdate<'permissions'> = {};
      if (input.name !== undefined) changes.name = displayName(input.name);
      if (input.description !== undefined) changes.description = input.description.trim();
      let parentCode = current.parent_code;
      if (input.parent_code !== undefined) {
        const parent = input.parent_code === null ? null : await parentFor(trx, input.parent_code);
        if (parent && (await repo.selfAndAncestorIds(trx, parent.id)).includes(id)) {
          throw AppError.validation({ parent_code: ['A permission cannot be placed under itself or one of its descendants.'] });
        }
        // Staying under the same parent grants nothing new.
        if (parent && parent.code !== current.parent_code) assertHoldsAll(actor.permissions, [current.code]);
        changes.parent_id = parent?.id ?? null;
        parentCode = parent?.code ?? null;
      }
      if (Object.keys(changes).length > 0) {
        await repo.updatePermission(trx, id, { ...changes, updated_at: clock.now() });
        const reparented = parentCode !== current.parent_code;
        await audit.record({ event_type: 'permission_updated', severity: reparented ? 'warning' : 'info', ...auditOrigin(actor),
          details: { permission_id: id, code: current.code, fields: Object.keys(changes),
            ...(reparented ? { parent_code: { from: current.parent_code, to: parentCode } } : {}) } }, trx);
      }
      return present(trx, id);
    });
  }

  /** Deleting removes the permission from every role and user; its children become roots. */
  async function remove(actor: Actor, id: number) {
    await db.transaction().execute(async (trx) => {
      await repo.lockPermissionTree(trx);
      const current = await load(trx, id);
      if (current.is_system) throw AppError.validation({ non_field_errors: ['System permissions cannot be deleted.'] });
      assertHoldsAll(actor.permissions, [current.code]);
      await repo.deletePermission(trx, id);
      await audit.record({ event_type: 'permission_deleted', severity: 'warning', ...auditOrigin(actor),
        details: { permission_id: id, code: current.code } }, trx);
    });
    return { message: 'Permission deleted' };
  }

  return { list, get, create, update, remove };
}

export type PermissionService = ReturnType<typeof createPermissionService>;
