import type { Db, Executor } from '../../db/database.js';
import { ALL_PERMISSIONS, permissionSet, type PermissionSet } from './permission-set.js';
import * as repo from './rbac.repo.js';

type Deps = { db: Db };

export interface Grants {
  roles: string[];
  permissions: string[];
}

/** What a user holds. A superuser holds every permission. */
export function createRbacService({ db }: Deps) {
  async function grantsOf(user: { id: number; is_superuser: boolean }, trx: Executor = db): Promise<Grants> {
    return repo.grantCodesOfUser(trx, user.id, user.is_superuser);
  }

  /** The effective permissions behind every permission check: one query, none for a superuser. */
  async function permissionsOf(user: { id: number; is_superuser: boolean }): Promise<PermissionSet> {
    if (user.is_superuser) return ALL_PERMISSIONS;
    return permissionSet(await repo.effectivePermissionCodes(db, user.id));
  }

  return { grantsOf, permissionsOf };
}

export type RbacService = ReturnType<typeof createRbacService>;
