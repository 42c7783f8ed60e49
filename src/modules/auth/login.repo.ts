import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { precompile } from '../../db/precompiled.js';
import { grantArrays } from '../rbac/rbac.repo.js';
import { PUBLIC_USER_COLUMNS } from '../users/user-columns.js';

type Args = { id: number; now: Date };

/**
 * A successful login's account statement: records the login and clears the failure counters, and answers the
 * account's public row as it now is with its role and permission codes, so the token response needs no further
 * read. It holds the row's lock until the transaction ends, which the session limits rely on. `unlessLocked`
 * leaves an account locked meanwhile as it is and answers nothing. Compiled once per shape: every login runs it.
 */
const recordLoginQuery = (unlessLocked: boolean) => (db: Executor, a: Args) => {
  let update = db.updateTable('users').set({ last_login: a.now, failed_login_count: 0, lockout_count: 0, locked_until: null })
    .where('id', '=', a.id);
  if (unlessLocked) update = update.where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', a.now)]));
  const grants = grantArrays(a.id, sql<boolean>`u.is_superuser`);
  return db.with('u', () => update.returning(PUBLIC_USER_COLUMNS)).selectFrom('u').selectAll('u')
    .select([grants.roles.as('roles'), grants.permissions.as('permissions')]);
};

const markers: Args = { id: -1, now: new Date(0) };
const variants = { locked: precompile(recordLoginQuery(true), markers), any: precompile(recordLoginQuery(false), markers) };

export async function recordLogin(db: Executor, id: number, now: Date, unlessLocked: boolean) {
  const row = await variants[unlessLocked ? 'locked' : 'any'](db, { id, now });
  if (!row) return undefined;
  const { roles, permissions, ...user } = row;
  return { user, grants: { roles: roles ?? [], permissions: permissions ?? [] } };
}
