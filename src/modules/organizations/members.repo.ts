import { sql } from 'kysely';
import type { Order } from '../../core/listing.js';
import type { Executor, NewRow } from '../../db/database.js';
import type { OrgRoleGrant } from './org-roles.js';

/** A member row with its user and role (the role's permissions as codes). */
function members(db: Executor, organizationId: number) {
  return db.selectFrom('organization_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .innerJoin('org_roles as r', 'r.id', 'm.org_role_id')
    .where('m.organization_id', '=', organizationId);
}

const MEMBER_COLUMNS = ['m.id', 'm.user_id', 'm.status', 'm.joined_at', 'm.updated_at', 'u.email', 'u.first_name', 'u.last_name',
  'r.code as role_code', 'r.name as role_name', 'r.weight as role_weight',
  sql<string[]>`(select coalesce(array_agg(rp.permission_code order by rp.permission_code), '{}') from org_role_permissions rp
    where rp.org_role_id = r.id)`.as('role_permissions')] as const;

export type MemberOrderColumn = 'joined_at' | 'user.email' | 'role';

export interface MemberFilter { search?: string; role?: string; status?: string }

function filtered(db: Executor, organizationId: number, f: MemberFilter) {
  let q = members(db, organizationId);
  if (f.search) {
    const like = `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) => eb.or([eb('u.email', 'ilike', like), eb('u.first_name', 'ilike', like), eb('u.last_name', 'ilike', like)]));
  }
  if (f.role) q = q.where('r.code', '=', f.role);
  if (f.status) q = q.where('m.status', '=', f.status);
  return q;
}

const ORDER_COLUMNS = { joined_at: 'm.joined_at', 'user.email': 'u.email', role: 'r.weight' } as const;

export async function listMembers(db: Executor, organizationId: number, f: MemberFilter, order: Order<MemberOrderColumn>,
  limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    filtered(db, organizationId, f).select(MEMBER_COLUMNS)
      .orderBy(ORDER_COLUMNS[order.column], order.direction).orderBy('m.id', order.direction).limit(limit).offset(offset).execute(),
    filtered(db, organizationId, f).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export type MemberRow = Awaited<ReturnType<typeof listMembers>>['rows'][number];

export const findMember = (db: Executor, organizationId: number, userId: number) =>
  members(db, organizationId).select(MEMBER_COLUMNS).where('m.user_id', '=', userId).executeTakeFirst();

/** The roles `userIds` hold in the ancestors (`ancestorIds`), per user: what their member rows show as inherited. */
export async function inheritedRoles(db: Executor, ancestorIds: number[], userIds: number[]): Promise<Map<number, OrgRoleGrant[]>> {
  const byUser = new Map<number, OrgRoleGrant[]>();
  if (ancestorIds.length === 0 || userIds.length === 0) return byUser;
  const rows = await db.selectFrom('organization_members as m').innerJoin('org_roles as r', 'r.id', 'm.org_role_id')
    .select(['m.user_id', 'r.code', 'r.name', 'r.weight',
      sql<string[]>`(select coalesce(array_agg(rp.permission_code order by rp.permission_code), '{}') from org_role_permissions rp
        where rp.org_role_id = r.id)`.as('permissions')])
    .where('m.organization_id', 'in', ancestorIds).where('m.user_id', 'in', userIds).where('m.status', '=', 'active')
    .execute();
  for (const { user_id, ...role } of rows) byUser.set(user_id, [...(byUser.get(user_id) ?? []), role]);
  return byUser;
}

export const insertMember = (db: Executor, values: NewRow<'organization_members'>) =>
  db.insertInto('organization_members').values(values).returning('id').executeTakeFirstOrThrow();

export const updateMemberRole = (db: Executor, id: number, orgRoleId: number, now: Date) =>
  db.updateTable('organization_members').set({ org_role_id: orgRoleId, updated_at: now }).where('id', '=', id).execute();

export const deleteMember = (db: Executor, id: number) =>
  db.deleteFrom('organization_members').where('id', '=', id).execute();

/** Active owners of the organization (last-owner protection). */
export const countOwners = (db: Executor, organizationId: number) =>
  members(db, organizationId).select((eb) => eb.fn.countAll<string>().as('n'))
    .where('r.code', '=', 'owner').where('m.status', '=', 'active')
    .executeTakeFirstOrThrow().then((r) => Number(r.n));

export const findUserSummary = (db: Executor, id: number) =>
  db.selectFrom('users').select(['id', 'email', 'first_name', 'last_name']).where('id', '=', id).where('deleted_at', 'is', null)
    .executeTakeFirst();
