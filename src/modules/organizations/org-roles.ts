/**
 * Who may do what in an organization (docs/organizations.md "Roles and what they allow"), pure. Roles have weights: owner 100, admin 80,
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

/**
 * The role an agent acts with in an organization (docs/agents.md "Threat model"): the lightest role its person could
 * grant (weight at most theirs, `owner` only for an owner) that holds every permission in `allowed` (what the token was
 * granted and its person holds there). The grant is worth that role, and never more than the person's own: its weight
 * decides whom the agent may change or remove, and the roles it grants must also lie inside `allowed`.
 */
export function roleForGrant(person: OrgRoleGrant, roles: Iterable<OrgRoleGrant>, allowed: ReadonlySet<string>): OrgRoleGrant {
  let best: OrgRoleGrant | null = null;
  for (const role of roles) {
    if (!canGrant(person, role) || ![...allowed].every((p) => role.permissions.includes(p))) continue;
    if (!best || role.weight < best.weight) best = role;
  }
  return best ?? person;
}

/**
 * Why a caller may not grant `role`, or null when it may: an agent only roles inside what it was granted
 * (AGENT_PERMISSION_DENIED), anyone only roles of weight up to theirs (INSUFFICIENT_PERMISSIONS).
 */
export function grantRefusal(caller: OrgRoleGrant, role: OrgRoleGrant, agent: { allowed: ReadonlySet<string> } | null):
  'AGENT_PERMISSION_DENIED' | 'INSUFFICIENT_PERMISSIONS' | null {
  if (agent && !role.permissions.every((p) => agent.allowed.has(p))) return 'AGENT_PERMISSION_DENIED';
  return canGrant(caller, role) ? null : agent ? 'AGENT_PERMISSION_DENIED' : 'INSUFFICIENT_PERMISSIONS';
}
