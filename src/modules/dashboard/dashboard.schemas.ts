import { Type, type Static } from 'typebox';

const Count = Type.Integer({ minimum: 0 });

/** The API's "Dashboard" GET dashboard/organizations/ while organizations are on. */
const OrganizationFigures = Type.Object({
  enabled: Type.Literal(true),
  total_organizations: Count,
  active: Count,
  with_sub_orgs: Type.Integer({ minimum: 0, description: 'Organizations with at least one sub-organization' }),
  members: Type.Object({
    total: Type.Integer({ minimum: 0, description: 'Active memberships' }),
    avg_per_org: Type.Number({ minimum: 0, description: 'Active memberships per organization, to two decimals' }),
    by_role: Type.Object({ owner: Count, admin: Count, member: Count }),
  }),
  top_organizations: Type.Array(Type.Object({ name: Type.String(), slug: Type.String(), members: Count }),
    { description: 'The ten organizations with the most active members' }),
});
export type OrganizationFigures = Static<typeof OrganizationFigures>;

export const OrganizationsDashboardResponse = Type.Union([
  OrganizationFigures,
  Type.Object({ enabled: Type.Literal(false) }, { description: 'SVC_ORGANIZATIONS_ENABLED is off' }),
]);
