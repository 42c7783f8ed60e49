import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

/**
 * Codes of every permission the user holds: through roles, directly, and every descendant of a held
 * parent (holding a parent grants its children). One recursive query.
 */
export async function effectivePermissionCodes(db: Executor, userId: number): Promise<string[]> {
  const { rows } = await sql<{ code: string }>`
    with recursive held(id) as (
      select rp.permission_id from user_roles ur join role_permissions rp on rp.role_id = ur.role_id where ur.user_id = ${userId}
      union
      select up.permission_id from user_permissions up where up.user_id = ${userId}
      union
      select p.id from permissions p join held h on p.parent_id = h.id
    )
    select code from permissions where id in (select id from held) order by code`.execute(db);
  return rows.map((r) => r.code);
}

export const allPermissionCodes = async (db: Executor): Promise<string[]> =>
  (await db.selectFrom('permissions').select('code').orderBy('code').execute()).map((r) => r.code);

export const roleCodesOfUser = async (db: Executor, userId: number): Promise<string[]> =>
  (await db.selectFrom('user_roles').innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select('roles.code').where('user_roles.user_id', '=', userId).orderBy('roles.code').execute()).map((r) => r.code);
