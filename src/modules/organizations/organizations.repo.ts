import { sql } from 'kysely';
import type { Executor, NewRow, RowUpdate } from '../../db/database.js';
import type { Order } from '../../core/listing.js';
import { precompile } from '../../db/precompiled.js';
import type { OrganizationRow } from './org-context.js';
import type { TreeRow } from './org-tree.js';

const ORGANIZATION_COLUMNS = ['o.id', 'o.name', 'o.slug', 'o.description', 'o.metadata', 'o.is_active', 'o.max_members',
  'o.parent_id', 'o.ancestor_ids', 'o.created_at', 'o.updated_at'] as const;

type OrganizationRef = { id: number; name: string; slug: string };
/** What the detail shows beyond the context: active members, the parent and the children. */
export type OrganizationDetail = { member_count: number; parent: OrganizationRef | null; children: OrganizationRef[] };
type ContextJson = Omit<OrganizationRow, 'created_at' | 'updated_at'> & {
  created_at: string; updated_at: string; own: number | null; inherited: number[] | null; detail?: OrganizationDetail;
};

/** The detail of organization `o` as one JSON value: three index lookups. */
const detailJson = (id: unknown, parentId: unknown) => sql<OrganizationDetail>`json_build_object(
  'member_count', (select count(*) from organization_members m where m.organization_id = ${id} and m.status = 'active'),
  'parent', (select json_build_object('id', p.id, 'name', p.name, 'slug', p.slug) from organizations p where p.id = ${parentId}),
  'children', (select coalesce(json_agg(json_build_object('id', c.id, 'name', c.name, 'slug', c.slug) order by c.name, c.id), '[]')
    from organizations c where c.parent_id = ${id}))`;

/**
 * The `org()` guard's one query: the organization named by `slug`, the id of the caller's active role in it, and —
 * with inheritance — the ids of the roles it holds in the organization's ancestors (found through the materialized
 * path, so the whole resolution is index lookups: the slug, then memberships by (user, organization)). One JSON
 * value. The roles themselves (fixed system roles) are known to the service.
 *
 * The caller's id is compared as `(select $id)` in the ancestors' lookup: PostgreSQL then estimates it as on a generic
 * plan whoever the caller is, so the prepared statement keeps its generic plan. Compared directly, a caller with few
 * memberships made each custom plan look cheaper than the generic one, and PostgreSQL planned the statement afresh on
 * every request (test/db/hot-path-plans.test.ts).
 */
type ContextArgs = { slug: string; userId: number };
const contextQuery = (inheritance: boolean, detail: boolean) => (db: Executor, a: ContextArgs) =>
  db.selectFrom('organizations as o').where('o.slug', '=', a.slug)
    .select(sql<ContextJson>`json_build_object(
      'id', o.id, 'name', o.name, 'slug', o.slug, 'description', o.description, 'metadata', o.metadata,
      'is_active', o.is_active, 'max_members', o.max_members, 'parent_id', o.parent_id, 'ancestor_ids', o.ancestor_ids,
      'created_at', o.created_at, 'updated_at', o.updated_at,
      'own', (select m.org_role_id from organization_members m
        where m.organization_id = o.id and m.user_id = ${a.userId} and m.status = 'active'),
      'inherited', ${inheritance ? sql`(select array_agg(m.org_role_id) from organization_members m
        where m.organization_id = any(o.ancestor_ids) and m.user_id = (select ${a.userId}::bigint) and m.status = 'active')` : sql`null`}
      ${detail ? sql`, 'detail', ${detailJson(sql`o.id`, sql`o.parent_id`)}` : sql``})`.as('context'));

const contextQueries = [false, true].map((inheritance) => [false, true].map((detail) =>
  precompile(contextQuery(inheritance, detail), { slug: '\u0000slug', userId: -1 })));

/** The `org()` guard's statement as it is sent, with its arguments: for checking its plans (test/db/hot-path-plans.test.ts). */
export const contextStatement = (db: Executor, a: ContextArgs, detail = true) => contextQuery(true, detail)(db, a).compile();

/** `detail`: the same statement also answers the organization's detail (GET organizations/detail/ needs nothing more). */
export async function findContext(db: Executor, slug: string, userId: number, inheritance: boolean, detail = false) {
  const row = await contextQueries[Number(inheritance)]![Number(detail)]!(db, { slug, userId });
  if (!row) return undefined;
  const { own, inherited, created_at, updated_at, detail: found, ...organization } = row.context;
  return {
    organization: { ...organization, created_at: new Date(created_at), updated_at: new Date(updated_at) },
    own, inherited: inherited ?? [], detail: found,
  };
}

const detailQuery = precompile((db: Executor, a: { id: number; parentId: number | null }) =>
  db.selectNoFrom(detailJson(a.id, a.parentId).as('detail')), { id: -1, parentId: -2 });

export const findDetail = async (db: Executor, id: number, parentId: number | null) =>
  (await detailQuery(db, { id, parentId }))!.detail;

export const findOrganization = (db: Executor, id: number) =>
  db.selectFrom('organizations as o').select(ORGANIZATION_COLUMNS).where('o.id', '=', id).executeTakeFirst();

export const findOrganizationBySlug = (db: Executor, slug: string) =>
  db.selectFrom('organizations as o').select(ORGANIZATION_COLUMNS).where('o.slug', '=', slug).executeTakeFirst();

export const slugTaken = async (db: Executor, slug: string, exceptId?: number) => {
  let q = db.selectFrom('organizations').select('id').where('slug', '=', slug);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
};

/** Locks the organization's row until the transaction ends: member counts and tree changes happen one at a time. */
export const lockOrganization = (db: Executor, id: number) =>
  db.selectFrom('organizations as o').select(ORGANIZATION_COLUMNS).where('o.id', '=', id).forUpdate().executeTakeFirst();

export type LockedOrganization = NonNullable<Awaited<ReturnType<typeof lockOrganization>>>;

export const insertOrganization = (db: Executor, values: NewRow<'organizations'>) =>
  db.insertInto('organizations').values(values).returning('id').executeTakeFirstOrThrow();

export const updateOrganization = (db: Executor, id: number, changes: RowUpdate<'organizations'>) =>
  db.updateTable('organizations').set(changes).where('id', '=', id).execute();

export const deleteOrganization = (db: Executor, id: number) =>
  db.deleteFrom('organizations').where('id', '=', id).execute();

/** The organization and its descendants (their paths contain it): one GIN-indexed query. */
export const findSubtree = (db: Executor, id: number) =>
  db.selectFrom('organizations as o')
    .select(['o.id', 'o.name', 'o.slug', 'o.parent_id', 'o.ancestor_ids',
      sql<number>`(select count(*) from organization_members m where m.organization_id = o.id and m.status = 'active')::int`.as('member_count')])
    .where((eb) => eb.or([eb('o.id', '=', id), eb(sql`o.ancestor_ids`, '@>', sql`array[${id}]::bigint[]`)]))
    .execute() as Promise<TreeRow[]>;

/**
 * Locks the organization's descendants until the transaction ends. A sub-organization being created below one of them
 * holds its parent's lock: this waits for it, and a later statement sees it.
 */
export const lockDescendants = (db: Executor, id: number) =>
  db.selectFrom('organizations').select('id').where(sql`ancestor_ids`, '@>', sql`array[${id}]::bigint[]`)
    .orderBy('id').forUpdate().execute();

/** The paths of the organization and its descendants: what a move's depth check needs. */
export const findSubtreePaths = (db: Executor, id: number) =>
  db.selectFrom('organizations as o').select(['o.id', 'o.ancestor_ids'])
    .where((eb) => eb.or([eb('o.id', '=', id), eb(sql`o.ancestor_ids`, '@>', sql`array[${id}]::bigint[]`)]))
    .execute();

// An arbitrary constant naming the organization-tree lock among the application's advisory locks.
const ORGANIZATION_TREE_LOCK = 0x6f726774;

/**
 * Serializes moves: a move reads paths it does not change (its new parent's, its subtree's) and another move could
 * change them between that read and its commit, two moves that each fit then together going too deep.
 */
export const lockOrganizationTree = (trx: Executor) =>
  sql`select pg_advisory_xact_lock(${ORGANIZATION_TREE_LOCK})`.execute(trx);

/** Moves a subtree: every descendant's path swaps the old prefix (up to and including `id`) for the new one. */
export const rewriteDescendantPaths = (db: Executor, id: number, oldPrefix: number[], newPrefix: number[]) =>
  db.updateTable('organizations')
    .set({ ancestor_ids: sql<number[]>`${sql.val(newPrefix)}::bigint[] || ancestor_ids[${oldPrefix.length + 1}:]` })
    .where(sql`ancestor_ids`, '@>', sql`array[${id}]::bigint[]`)
    .execute();

export const countChildren = (db: Executor, id: number) =>
  db.selectFrom('organizations').select((eb) => eb.fn.countAll<string>().as('n')).where('parent_id', '=', id)
    .executeTakeFirstOrThrow().then((r) => Number(r.n));

export const findChildren = (db: Executor, id: number) =>
  db.selectFrom('organizations').select(['id', 'name', 'slug']).where('parent_id', '=', id).orderBy('name').orderBy('id').execute();

export const findSummary = (db: Executor, id: number) =>
  db.selectFrom('organizations').select(['id', 'name', 'slug']).where('id', '=', id).executeTakeFirst();

export const countActiveMembers = (db: Executor, organizationId: number) =>
  db.selectFrom('organization_members').select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId).where('status', '=', 'active')
    .executeTakeFirstOrThrow().then((r) => Number(r.n));

export type OrganizationOrderColumn = 'name' | 'slug' | 'created_at';

export interface OrganizationListFilter {
  userId: number;
  inheritance: boolean;
  search?: string;
  isActive?: boolean;
  /** null: roots only; a number: the children of that organization. */
  parentId?: number | null;
}

/**
 * The organizations a user belongs to — directly, or (with inheritance) below an organization it belongs to. Its
 * own memberships are few and indexed by user; the descendants are found through the GIN index on the paths.
 */
function listable(db: Executor, f: OrganizationListFilter) {
  const mine = db.selectFrom('organization_members').select('organization_id')
    .where('user_id', '=', f.userId).where('status', '=', 'active');
  let q = db.selectFrom('organizations as o').where((eb) => {
    const direct = eb('o.id', 'in', mine);
    return f.inheritance
      ? eb.or([direct, eb(sql`o.ancestor_ids`, '&&', sql`array(${mine})`)])
      : direct;
  });
  if (f.search) {
    const like = `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) => eb.or([eb('o.name', 'ilike', like), eb('o.slug', 'ilike', like)]));
  }
  if (f.isActive !== undefined) q = q.where('o.is_active', '=', f.isActive);
  if (f.parentId !== undefined) q = q.where('o.parent_id', f.parentId === null ? 'is' : '=', f.parentId);
  return q;
}

export async function listOrganizations(db: Executor, f: OrganizationListFilter, order: Order<OrganizationOrderColumn>, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    listable(db, f).select(['o.id', 'o.name', 'o.slug', 'o.description', 'o.max_members', 'o.is_active', 'o.created_at',
      sql<number>`(select count(*) from organization_members m where m.organization_id = o.id and m.status = 'active')::int`.as('member_count')])
      .orderBy(`o.${order.column}`, order.direction).orderBy('o.id', order.direction).limit(limit).offset(offset).execute(),
    listable(db, f).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export const findOrgRoles = (db: Executor) =>
  db.selectFrom('org_roles as r').select(['r.id', 'r.code', 'r.name', 'r.description', 'r.weight', 'r.is_system_role', 'r.created_at',
    sql<Array<{ code: string; name: string; description: string }>>`(select coalesce(json_agg(json_build_object('code', p.code,
      'name', p.name, 'description', p.description) order by p.code), '[]') from org_role_permissions rp
      join org_permissions p on p.code = rp.permission_code where rp.org_role_id = r.id)`.as('permissions')])
    .orderBy('r.weight', 'desc').execute();

/** Every organization role with its permission codes (the service keeps them: system roles never change at runtime). */
export const findOrgRoleGrants = (db: Executor) =>
  db.selectFrom('org_roles as r').select(['r.id', 'r.code', 'r.name', 'r.weight',
    sql<string[]>`(select coalesce(array_agg(rp.permission_code order by rp.permission_code), '{}') from org_role_permissions rp where rp.org_role_id = r.id)`.as('permissions')])
    .execute();

export const findOrgRoleByCode = (db: Executor, code: string) =>
  db.selectFrom('org_roles as r').select(['r.id', 'r.code', 'r.name', 'r.weight',
    sql<string[]>`(select coalesce(array_agg(rp.permission_code order by rp.permission_code), '{}') from org_role_permissions rp where rp.org_role_id = r.id)`.as('permissions')])
    .where('r.code', '=', code).executeTakeFirst();
