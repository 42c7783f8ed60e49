import type { Db, Executor } from '../../db/database.js';
import { ALL_PERMISSIONS, permissionSet, type PermissionSet } from './permission-set.js';
import { grantsFrom, permissionGraph, type Grants } from './permission-graph.js';
import * as repo from './rbac.repo.js';

type Deps = { db: Db };

export type { Grants } from './permission-graph.js';

/** What a user holds. A superuser holds every permission. */
export function createRbacService({ db }: Deps) {
  async function grantsOf(user: { id: number; is_superuser: boolean }, trx: Executor = db): Promise<Grants> {
    const found = await repo.grantRefsOfUser(trx, user.id);
    return found ? grantsFrom(trx, found.refs, user.is_superuser) : { roles: [], permissions: [] };
  }

  /** What the user with this id holds, their superuser flag as the same read finds it (the codes an access token carries). */
  async function grantsOfUserId(userId: number, trx: Executor = db): Promise<Grants> {
    const found = await repo.grantRefsOfUser(trx, userId);
    return found ? grantsFrom(trx, found.refs, found.is_superuser) : { roles: [], permissions: [] };
  }

  /** The effective permissions behind every permission check: one query, none for a superuser. */
  async function permissionsOf(user: { id: number; is_superuser: boolean }): Promise<PermissionSet> {
    if (user.is_superuser) return ALL_PERMISSIONS;
    const found = await repo.grantRefsOfUser(db, user.id);
    if (!found) return permissionSet([]);
    return (await permissionGraph(db, found.refs.version)).permissionSetOf(found.refs, false);
  }

  return { grantsOf, grantsOfUserId, permissionsOf };
}

export type RbacService = ReturnType<typeof createRbacService>;
