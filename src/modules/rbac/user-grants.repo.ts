import type { Executor, NewRow } from '../../db/database.js';

/** The account a grant targets: enough to answer 404 and to apply the superuser rules. */
export const findGrantTarget = (db: Executor, id: number) =>
  db.selectFrom('users').select(['id', 'email', 'is_superuser']).where('id', '=', id).executeTakeFirst();

export type GrantTarget = NonNullable<Awaited<ReturnType<typeof findGrantTarget>>>;

export const directPermissions = (db: Executor, userId: number) =>
  db.selectFrom('user_permissions as up').innerJoin('permissions as p', 'p.id', 'up.permission_id')
    .select(['p.id', 'p.code', 'p.name', 'p.description']).where('up.user_id', '=', userId).orderBy('p.code').execute();

export const addDirectPermissions = (db: Executor, rows: NewRow<'user_permissions'>[]) =>
  rows.length === 0 ? Promise.resolve() : db.insertInto('user_permissions').values(rows)
    .onConflict((oc) => oc.columns(['user_id', 'permission_id']).doNothing()).execute().then(() => undefined);

export const removeDirectPermissions = (db: Executor, userId: number, permissionIds: number[]) =>
  permissionIds.length === 0 ? Promise.resolve() : db.deleteFrom('user_permissions')
    .where('user_id', '=', userId).where('permission_id', 'in', permissionIds).execute().then(() => undefined);
