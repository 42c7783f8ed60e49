import { AppError } from '../../core/errors.js';
import { OWNER, type OrgRoleGrant, type OrgStanding } from './org-roles.js';
import { SLUG_PATTERN } from './org-tree.js';

const SLUG_RE = new RegExp(SLUG_PATTERN);

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
  /**
   * The effective role: the heaviest of the own and inherited ones (null: no role there). For an agent, the role its
   * grant is worth (see `roleForGrant`), never its person's beyond it.
   */
  role: OrgRoleGrant | null;
  /** The effective permissions: those of every role held there or above; for an agent, only those also granted to it. */
  permissions: ReadonlySet<string>;
  /** Resolved for an agent: its person's own effective role there (what `role` is capped from). */
  agent?: { personRole: OrgRoleGrant | null };
  /** Resolved with `{ detail: true }`: what GET organizations/detail/ shows beyond the organization's own row. */
  detail?: { member_count: number; parent: { id: number; name: string; slug: string } | null; children: Array<{ id: number; name: string; slug: string }> };
}

/** What the guard needs: one query for the organization and the caller's roles in it and above it. */
export interface OrgContextResolver {
  resolve(slug: string, userId: number, opts?: OrgContextOptions): Promise<OrgContext | undefined>;
}

export interface OrgContextOptions {
  detail?: boolean;
  /** The request is an agent's with these granted permissions: its role and permissions there are capped to them. */
  grant?: ReadonlySet<string>;
}

/**
 * docs/organizations.md "The organization of a request: `X-Org-Slug`": after authentication, the organization is resolved with the caller's effective
 * role in one query. No slug → 400 ORG_SLUG_REQUIRED; unknown, or inactive for all but its owners → 404
 * ORG_NOT_FOUND; no role there (own or inherited) → 403 NOT_MEMBER; a role without `permission` → 403.
 */
export async function resolveOrgContext(resolver: OrgContextResolver, slug: string, userId: number,
  opts: OrgContextOptions = {}): Promise<OrgContext> {
  const context = SLUG_RE.test(slug) ? await resolver.resolve(slug, userId, opts) : undefined;
  if (!context) throw new AppError('ORG_NOT_FOUND');
  if (!context.organization.is_active && context.role?.code !== OWNER) throw new AppError('ORG_NOT_FOUND');
  if (!context.role) throw new AppError('NOT_MEMBER');
  return context;
}

/**
 * The person's standing in `slug` where they have one, or null where {@link resolveOrgContext} would answer
 * ORG_NOT_FOUND or NOT_MEMBER: for a check that fails closed instead of refusing the request (an agent's double check,
 * an `org:<slug>` scope at consent).
 */
export async function orgContextIfMember(resolver: OrgContextResolver, slug: string, userId: number): Promise<OrgContext | null> {
  try {
    return await resolveOrgContext(resolver, slug, userId);
  } catch (err) {
    if (err instanceof AppError && (err.code === 'NOT_MEMBER' || err.code === 'ORG_NOT_FOUND')) return null;
    throw err;
  }
}
