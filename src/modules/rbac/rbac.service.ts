import type { Db, Executor } from '../../db/database.js';
import { ALL_PERMISSIONS, type PermissionSet } from './permission-set.js';
import { grantsFrom, permissionGraph, type Grants } from './permission-graph.js';
import * as repo from './rbac.repo.js';

type Deps = { db: Db };

export type { Grants } from './permission-graph.js';

/** What a user holds. A superuser holds every permission. */
export function createRbacService({ db }: Deps) {
  async function grantsOf(user: { id: number; is_superuser: boolean }, trx: Executor = db): Promise<Grants> {
    return grantsFrom(trx, await repo.grantRefsOfUser(trx, user.id), user.is_superuser);
  }

  /** The effective permissions behind every permission check: one query, none for a superuser. */
  async function permissionsOf(user: { id: number; is_superuser: boolean }): Promise<PermissionSet> {
    if (user.is_superuser) return ALL_PERMISSIONS;
    const refs = await repo.grantRefsOfUser(db, user.id);
    return (await permissionGraph(db, refs.version)).permissionSetOf(refs, false);
  }

  return { grantsOf, permissionsOf };
}

export type RbacService = ReturnType<typeof createRbacService>;
