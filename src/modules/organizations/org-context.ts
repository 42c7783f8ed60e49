import type { OrgRoleGrant, OrgStanding } from './org-roles.js';

/** An organization as the routes and their guard see it. */
export interface OrganizationRow {
  id: number;
  name: string;
  slug: string;
  description: string;
  metadata: Record<string, unknown>;
  is_active: boolean;
  max_members: number;
  parent_id: number | null;
  ancestor_ids: number[];
  created_at: Date;
  updated_at: Date;
}

/** The organization a request names and the caller's standing there, resolved once by the `org()` guard. */
export interface OrgContext {
  organization: OrganizationRow;
  standing: OrgStanding;
  /** The effective role: the heaviest of the own and inherited ones (null: no role there). */
  role: OrgRoleGrant | null;
  /** The effective permissions: those of every role held there or above. */
  permissions: ReadonlySet<string>;
}

/** What the guard needs: one query for the organization and the caller's roles in it and above it. */
export interface OrgContextResolver {
  resolve(slug: string, userId: number): Promise<OrgContext | undefined>;
}
