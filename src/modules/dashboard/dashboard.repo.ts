import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

/** How many organizations the dashboard ranks by active members. */
export const TOP_ORGANIZATIONS = 10;

/** All organizations, the active ones, and those with at least one sub-organization (the distinct parents). */
export const countOrganizations = (db: Executor) =>
  db.selectFrom('organizations').select([
    sql<number>`count(*)::int`.as('total'),
    sql<number>`(count(*) filter (where is_active))::int`.as('active'),
    sql<number>`count(distinct parent_id)::int`.as('with_sub_orgs'),
  ]).executeTakeFirstOrThrow();

export interface MemberFigures {
  total: number;
  /** Active memberships per organization role code (roles nobody holds are absent). */
  by_role: Record<string, number>;
  top: Array<{ name: string; slug: string; members: number }>;
}

/**
 * Active memberships in one pass over `organization_members`: counted per organization and role once, then summed
 * three ways — in all, per role, and per organization for the largest ones (ties: the older organization first).
 */
export async function memberFigures(db: Executor): Promise<MemberFigures> {
  const { rows } = await sql<MemberFigures>`
    with per_org as (
      select organization_id, org_role_id, count(*)::int as n from organization_members
      where status = 'active' group by organization_id, org_role_id
    ),
    top as (
      select organization_id, sum(n)::int as members from per_org
      group by organization_id order by members desc, organization_id limit ${TOP_ORGANIZATIONS}
    )
    select
      (select coalesce(sum(n), 0)::int from per_org) as total,
      (select coalesce(json_object_agg(r.code, s.n), '{}') from (select org_role_id, sum(n)::int as n from per_org group by org_role_id) s
        join org_roles r on r.id = s.org_role_id) as by_role,
      (select coalesce(json_agg(json_build_object('name', o.name, 'slug', o.slug, 'members', t.members)
        order by t.members desc, t.organization_id), '[]') from top t join organizations o on o.id = t.organization_id) as top`
    .execute(db);
  return rows[0]!;
}
