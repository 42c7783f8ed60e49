import type { FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.js';
import type { OrgContext, OrgContextResolver } from '../../modules/organizations/org-context.js';
import { OWNER } from '../../modules/organizations/org-roles.js';
import { SLUG_PATTERN } from '../../modules/organizations/org-tree.js';
import { authOf } from './user.js';

export interface OrgGuardOptions {
  /** The organization is named by this path parameter (the SDK's slug-in-path routes), not by `X-Org-Slug`. */
  slugParam?: string;
  /** What a missing permission answers: INSUFFICIENT_PERMISSIONS, or NOT_OWNER for deleting (SPEC.md). */
  deniedCode?: 'INSUFFICIENT_PERMISSIONS' | 'NOT_OWNER';
  /** Resolve the organization's detail (member count, parent, children) in the same query. */
  detail?: boolean;
}

const SLUG_RE = new RegExp(SLUG_PATTERN);

/** The slug a request names, from the header or from the route's path parameter. */
export function requestedSlug(req: FastifyRequest, slugParam?: string): string | undefined {
  const raw = slugParam ? (req.params as Record<string, unknown>)[slugParam] : req.headers['x-org-slug'];
  return typeof raw === 'string' && raw.trim() !== '' ? raw.trim().toLowerCase() : undefined;
}

/**
 * DECISIONS.md "Organizations": after authentication, the organization is resolved with the caller's effective
 * role in one query. No slug → 400 ORG_SLUG_REQUIRED; unknown, or inactive for all but its owners → 404
 * ORG_NOT_FOUND; no role there (own or inherited) → 403 NOT_MEMBER; a role without `permission` → 403.
 */
export async function resolveOrgContext(resolver: OrgContextResolver, slug: string, userId: number,
  opts: { detail?: boolean } = {}): Promise<OrgContext> {
  const context = SLUG_RE.test(slug) ? await resolver.resolve(slug, userId, opts) : undefined;
  if (!context) throw new AppError('ORG_NOT_FOUND');
  if (!context.organization.is_active && context.role?.code !== OWNER) throw new AppError('ORG_NOT_FOUND');
  if (!context.role) throw new AppError('NOT_MEMBER');
  return context;
}

/** `org(permission?)`, declared after `user()`: sets `req.org`, the one value the handler reads the organization from. */
export const createOrgGuard = (resolver: OrgContextResolver) =>
  (permission?: string, opts: OrgGuardOptions = {}) => async (req: FastifyRequest) => {
    const slug = requestedSlug(req, opts.slugParam);
    if (!slug) throw new AppError('ORG_SLUG_REQUIRED');
    const context = await resolveOrgContext(resolver, slug, authOf(req).user.id, { detail: opts.detail ?? false });
    if (permission && !context.permissions.has(permission)) throw new AppError(opts.deniedCode ?? 'INSUFFICIENT_PERMISSIONS');
    req.org = context;
  };

/** The organization context of a route whose `org()` guard passed. */
export function orgOf(req: FastifyRequest): OrgContext {
  if (!req.org) throw new AppError('ORG_SLUG_REQUIRED');
  return req.org;
}
