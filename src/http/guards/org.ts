import type { FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.js';
import { resolveOrgContext, type OrgContext, type OrgContextResolver } from '../../modules/organizations/org-context.js';
import type { Config } from '../../config/settings.js';
import type { AgentAuthService } from '../../modules/agents/agent-auth.service.js';
import { missingPermissions } from '../../modules/rbac/permission-set.js';
import { agentOrgContext, checkAgentOrganization, type AgentRuleOptions } from '../../modules/agents/agent-policy.js';
import { authOf } from '../request-meta.js';

export interface OrgGuardOptions extends AgentRuleOptions {
  /** The organization is named by this path parameter (the SDK's slug-in-path routes), not by `X-Org-Slug`. */
  slugParam?: string;
  /** What a missing permission answers: INSUFFICIENT_PERMISSIONS, or NOT_OWNER for deleting (docs/api.md). */
  deniedCode?: 'INSUFFICIENT_PERMISSIONS' | 'NOT_OWNER';
  /** Resolve the organization's detail (member count, parent, children) in the same query. */
  detail?: boolean;
}

/** The slug a request names, from the header or from the route's path parameter. */
export function requestedSlug(req: FastifyRequest, slugParam?: string): string | undefined {
  const raw = slugParam ? (Object(req.params) as Record<string, unknown>)[slugParam] : req.headers['x-org-slug'];
  return typeof raw === 'string' && raw.trim() !== '' ? raw.trim().toLowerCase() : undefined;
}

/** `org(permission?)`, declared after `user()`: sets `req.org`, the one value the handler reads the organization from. */
export const createOrgGuard = (resolver: OrgContextResolver, agents: AgentAuthService, config: Config) =>
  (permission?: string, opts: OrgGuardOptions = {}) => async (req: FastifyRequest) => {
    const slug = requestedSlug(req, opts.slugParam);
    if (!slug) throw new AppError('ORG_SLUG_REQUIRED');
    const agent = req.agent;
    if (agent) {
      // The delegating user's standing there, then the token's scope and grant (docs/agents.md).
      const context = await agentOrgContext(resolver, slug, agent, opts.detail ?? false);
      await checkAgentOrganization(agents, config, agent, context, permission, opts);
      req.org = context;
      return;
    }
    const context = await resolveOrgContext(resolver, slug, authOf(req).user.id, { detail: opts.detail ?? false });
    if (permission && !context.permissions.has(permission)) {
      throw new AppError(opts.deniedCode ?? 'INSUFFICIENT_PERMISSIONS', { details: missingPermissions([permission]) });
    }
    req.org = context;
  };

/**
 * The organization a request names where the header is optional (`me/`, `me/roles/`): the caller's context there,
 * with an agent held to its token's organization like the `org()` guard holds it.
 */
export const createOrgContextLookup = (resolver: OrgContextResolver, agents: AgentAuthService, config: Config) =>
  async (req: FastifyRequest, slug: string): Promise<OrgContext> => {
    const agent = req.agent;
    if (!agent) return resolveOrgContext(resolver, slug, authOf(req).user.id);
    const context = await agentOrgContext(resolver, slug, agent, false);
    await checkAgentOrganization(agents, config, agent, context, undefined);
    return context!;
  };
