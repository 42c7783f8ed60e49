import type { Config } from '../../config/settings.js';
import type { AgentAuthService } from '../../modules/agents/agent-auth.service.js';
import type { ReauthService } from '../../modules/auth/reauth.service.js';
import type { OrgContextResolver } from '../../modules/organizations/org-context.js';
import type { PermissionSource } from '../../modules/rbac/permission-set.js';
import type { BearerService } from '../../modules/sessions/bearer.service.js';
import type { RateLimiter } from '../rate-limit.js';
import { createFeatureGuard } from './feature.js';
import { createOrgContextLookup, createOrgGuard } from './org.js';
import { createPermissionGuard } from './permission.js';
import { createRecentAuthGuard } from './reauth.js';
import { createUserGuard } from './user.js';

export { featureDisabled, type FeatureSwitch } from './feature.js';
export { requestedSlug } from './org.js';
export type { UserGuardOptions } from './user.js';
export type { RecentAuthOptions } from './reauth.js';
export { acceptsAgents, agentOnly, type AgentRuleOptions } from './agent.js';
// What a route handler reads about its caller, once the guards above have run.
export { agentOf, authOf, heldPermissions, orgOf, userAuthOf } from '../request-meta.js';

export interface GuardDeps {
  config: Config;
  rateLimiter: RateLimiter;
  bearer: BearerService;
  permissions: PermissionSource;
  orgs: OrgContextResolver;
  agents: AgentAuthService;
  reauth: ReauthService;
}

/**
 * Every guard a route may declare next to its path, one file per concern: feature switch, rate limit, user
 * (or agent) authentication and scope, recent authentication, permission, organization.
 */
export function createGuards({ config, rateLimiter, bearer, permissions, orgs, agents, reauth }: GuardDeps) {
  return {
    feature: createFeatureGuard(config),
    rateLimit: rateLimiter,
    user: createUserGuard(config, bearer, agents),
    /** `recentAuth()`, in `preHandler` after `user()`: 403 REAUTHENTICATION_REQUIRED unless the sign-in is recent or the body proves it. */
    recentAuth: createRecentAuthGuard(reauth),
    /** `permission('roles.manage')`, declared after `user()`: 403 PERMISSION_DENIED unless held. */
    permission: createPermissionGuard(permissions, agents, config),
    /** `org('org.manage')`, declared after `user()`: the organization of `X-Org-Slug` and the caller's role there. */
    org: createOrgGuard(orgs, agents, config),
    /** The context of an optional `X-Org-Slug` (me/, me/roles/), resolved as `org()` resolves it. */
    orgContext: createOrgContextLookup(orgs, agents, config),
  };
}

export type Guards = ReturnType<typeof createGuards>;
