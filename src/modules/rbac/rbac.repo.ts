import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../db/database.js';

/**
 * Codes of every permission the user holds: through roles, directly, and every descendant of a held
 * parent (holding a parent grants its children). One recursive query.
 */
const heldPermissions = (userId: number) => sql`
    with recursive held(id) as (
      select rp.permission_id from user_roles ur join role_permissions rp on rp.role_id = ur.role_id where ur.user_id = ${userId}
      union
      select up.permission_id from user_permissions up where up.user_id = ${userId}
      union
      select p.id from permissions p join held h on p.parent_id = h.id
    )
    select code from permissions where id in (select id from held)`;

export async function effectivePermissionCodes(db: Executor, userId: number): Promise<string[]> {
  const { rows } = await sql<{ code: string }>`${heldPermissions(userId)} order by code`.execute(db);
  return rows.map((r) => r.code);
}

/**
 * The user's role codes and effective permission codes (all of them for a superuser), each sorted, as two array
 * expressions (null for none) to select in any query: `superuser` is an SQL boolean or a known value.
 */
export const grantArrays = (userId: number, superuser: boolean | RawBuilder<boolean>) => ({
  roles: sql<string[] | null>`(select array_agg(r.code order by r.code) from user_roles ur join roles r on r.id = ur.role_id
    where ur.user_id = ${userId})`,
  permissions: sql<string[] | null>`case when ${superuser} then (select array_agg(code order by code) from permissions)
    else (select array_agg(code order by code) from (${heldPermissions(userId)}) p) end`,
});

/** The user's role codes and effective permission codes, sorted, in one query. */
export async function grantCodesOfUser(db: Executor, userId: number, superuser: boolean): Promise<{ roles: string[]; permissions: string[] }> {
  const { roles, permissions } = grantArrays(userId, superuser);
  const { rows } = await sql<{ roles: string[] | null; permissions: string[] | null }>`
    select ${roles} as roles, ${permissions} as permissions`.execute(db);
  return { roles: rows[0]?.roles ?? [], permissions: rows[0]?.permissions ?? [] };
}

