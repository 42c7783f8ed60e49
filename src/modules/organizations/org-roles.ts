/**
 * Who may do what in an organization (DECISIONS.md "Organizations"), pure. Roles have weights: owner 100, admin 80,
 * member 20. A role held in an organization applies in its descendants (with inheritance on); the effective role
 * is the heaviest of the own and inherited ones, and the effective permissions the union of all of them.
 */

export interface OrgRoleGrant {
  code: string;
  name: string;
  weight: number;
  permissions: readonly string[];
}

export const OWNER = 'owner';

/** The caller's standing in one organization: its own role there, and the roles it holds in the ancestors. */
export interface OrgStanding {
  own: OrgRoleGrant | null;
  inherited: readonly OrgRoleGrant[];
}

/** The heaviest of the own and inherited roles, or null for a caller with none. */
export function effectiveRole(s: OrgStanding): OrgRoleGrant | null {
  let best: OrgRoleGrant | null = s.own;
  for (const role of s.inherited) if (!best || role.weight > best.weight) best = role;
  return best;
}

const union = (roles: ReadonlyArray<OrgRoleGrant | null>): string[] =>
  [...new Set(roles.flatMap((r) => r?.permissions ?? []))].sort();

/** `permissions` (own role), `inherited_permissions` (ancestors), `effective_permissions` (both). */
export function permissionLists(s: OrgStanding) {
  return {
    permissions: union([s.own]),
    inherited_permissions: union(s.inherited),
    effective_permissions: union([s.own, ...s.inherited]),
  };
}

/** Only roles of weight ≤ the caller's may be granted, and `owner` only by an owner. */
export const canGrant = (caller: OrgRoleGrant, role: Pick<OrgRoleGrant, 'code' | 'weight'>): boolean =>
  role.weight <= caller.weight && (role.code !== OWNER || caller.code === OWNER);

/** Only members of lower weight may be changed or removed; owners may change anyone (the last owner aside). */
export const canManage = (caller: OrgRoleGrant, target: Pick<OrgRoleGrant, 'weight'>): boolean =>
  caller.code === OWNER || target.weight < caller.weight;
