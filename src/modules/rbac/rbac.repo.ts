import { sql } from 'kysely';
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

/** The user's role codes and effective permission codes (all of them for a superuser), sorted, in one query. */
export async function grantCodesOfUser(db: Executor, userId: number, superuser: boolean): Promise<{ roles: string[]; permissions: string[] }> {
  const permissions = superuser ? sql`select code from permissions` : heldPermissions(userId);
  const { rows } = await sql<{ roles: string[] | null; permissions: string[] | null }>`
    select
      (select array_agg(r.code order by r.code) from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = ${userId}) as roles,
      (select array_agg(code order by code) from (${permissions}) p) as permissions`.execute(db);
  return { roles: rows[0]?.roles ?? [], permissions: rows[0]?.permissions ?? [] };
}

