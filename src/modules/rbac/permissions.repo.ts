import { sql } from 'kysely';
import type { Executor, NewRow, RowUpdate } from '../../db/database.js';
import { containsPattern, type Order } from '../../core/listing.js';

export type PermissionOrderColumn = 'code' | 'name' | 'created_at';

export interface PermissionFilter {
  search?: string;
  /** `null`: roots only; a number: children of that permission. */
  parentId?: number | null;
}

const SUMMARY = ['p.id', 'p.code', 'p.name', 'p.description'] as const;

function filtered(db: Executor, f: PermissionFilter) {
  let q = db.selectFrom('permissions as p');
  if (f.search) {
    const pattern = containsPattern(f.search);
    q = q.where((eb) => eb.or([eb('p.code', 'ilike', pattern), eb('p.name', 'ilike', pattern)]));
  }
  if (f.parentId === null) q = q.where('p.parent_id', 'is', null);
  else if (f.parentId !== undefined) q = q.where('p.parent_id', '=', f.parentId);
  return q;
}

export async function listPermissions(db: Executor, f: PermissionFilter, order: Order<PermissionOrderColumn>, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    filtered(db, f).select(SUMMARY).orderBy(`p.${order.column}`, order.direction).orderBy('p.id', order.direction)
      .limit(limit).offset(offset).execute(),
    filtered(db, f).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export const findPermission = (db: Executor, id: number) =>
  db.selectFrom('permissions as p').leftJoin('permissions as parent', 'parent.id', 'p.parent_id')
    .select([...SUMMARY, 'p.parent_id', 'p.is_system', 'p.created_at', 'parent.code as parent_code'])
    .where('p.id', '=', id).executeTakeFirst();

export type PermissionRow = NonNullable<Awaited<ReturnType<typeof findPermission>>>;

export const findChildren = (db: Executor, id: number) =>
  db.selectFrom('permissions').select(['id', 'code']).where('parent_id', '=', id).orderBy('code').execute();

export const findPermissionIdByCode = (db: Executor, code: string) =>
  db.selectFrom('permissions').select(['id', 'code']).where('code', '=', code).executeTakeFirst();

/** Full rows of the permissions named, for assignment and presentation. */
export const findPermissionsByCodes = (db: Executor, codes: string[]) =>
  codes.length === 0 ? Promise.resolve([]) : db.selectFrom('permissions as p').select(SUMMARY)
    .where('p.code', 'in', codes).orderBy('p.code').execute();

export const insertPermission = (db: Executor, values: NewRow<'permissions'>) =>
  db.insertInto('permissions').values(values).returning('id').executeTakeFirstOrThrow();

export const updatePermission = (db: Executor, id: number, values: RowUpdate<'permissions'>) =>
  db.updateTable('permissions').set(values).where('id', '=', id).execute();

export const deletePermission = (db: Executor, id: number) =>
  db.deleteFrom('permissions').where('id', '=', id).executeTakeFirst().then((r) => Number(r.numDeletedRows));

/** The ids of `id` and every permission above it. `union` ends the walk even on a damaged (cyclic) tree. */
export async function selfAndAncestorIds(db: Executor, id: number): Promise<number[]> {
  const { rows } = await sql<{ id: string | number }>`
    with recursive up(id, parent_id) as (
      select id, parent_id from permissions where id = ${id}
      union
      select p.id, p.parent_id from permissions p join up on p.id = up.parent_id
    )
    select id from up`.execute(db);
  return rows.map((r) => Number(r.id));
}

// An arbitrary constant naming the permission-tree lock among the application's advisory locks.
const PERMISSION_TREE_LOCK = 734_219_001;

/** Serializes changes to the permission tree, so two concurrent re-parentings cannot build a cycle together. */
export const lockPermissionTree = (trx: Executor) =>
  sql`select pg_advisory_xact_lock(${PERMISSION_TREE_LOCK})`.execute(trx);
