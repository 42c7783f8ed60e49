import type { Config } from '../../config/settings.js';
import { AppError } from '../../core/errors.js';
import { resolveOrgContext, type OrgContext, type OrgContextResolver } from '../organizations/org-context.js';
import { missingPermissions, type PermissionSet } from '../rbac/permission-set.js';
import type { AgentAuthService } from './agent-auth.service.js';
import type { AgentContext } from './agent-context.js';

// The agent decision (docs/agents.md): the double check — granted to the token AND held by the delegating user now —
// and whether the call waits for the delegating user's approval. The HTTP guards and `ai/authorize/` both ask here,
// so a built-in route and an integrator's question get the same answer.

/** What a route declares about agents beside its permission: the routes and changes that always need approval. */
export interface AgentRuleOptions {
  /**
   * An agent's call waits for the delegating user's approval whatever the permission (a `requiresApproval` route); a
   * function decides from the parsed body (docs/agents.md: a change of an account's privileges or standing).
   */
  approval?: boolean | ((body: unknown) => boolean);
}

/** What an agent holds: what was granted to its token and its delegating user still holds. */
export const agentPermissions = (agent: AgentContext): PermissionSet => ({
  all: false, has: (code: string) => agent.granted.has(code) && agent.userPermissions.has(code), denial: 'AGENT_PERMISSION_DENIED',
});

/**
 * The agent half of the permission guard: the double check (granted to the token AND held by the delegating
 * user now), then whether the call waits for approval. A token bound to an organization holds nothing outside it.
 */
export async function checkAgentPermission(agents: AgentAuthService, config: Config, agent: AgentContext, code: string,
  opts: AgentRuleOptions = {}): Promise<void> {
  agent.permission = code;
  const held = agent.userCanAct && agent.organizationId === null && agent.granted.has(code) && agent.userPermissions.has(code);
  if (!held) await agents.deny(agent, 'AGENT_PERMISSION_DENIED', missingDetails(agent, [code]));
  grant(config, agent, code, opts);
}

/**
 * The agent half of the organization guard: the organization must be the token's own or (with inheritance) below
 * it, and the permission granted to the token and held by the delegating user there now.
 */
export async function checkAgentOrganization(agents: AgentAuthService, config: Config, agent: AgentContext,
  context: OrgContext | null, permission: string | undefined, opts: AgentRuleOptions = {}): Promise<void> {
  agent.permission = permission ?? null;
  const org = context?.organization;
  const inScope = org !== undefined && agent.organizationId !== null && (org.id === agent.organizationId
    || (config.ORG_ROLE_INHERITANCE && org.ancestor_ids.includes(agent.organizationId)));
  const held = context !== null && (permission === undefined || (agent.granted.has(permission) && context.permissions.has(permission)));
  if (!agent.userCanAct || !inScope || !held) {
    await agents.deny(agent, 'AGENT_PERMISSION_DENIED', inScope && permission !== undefined ? missingDetails(agent, [permission]) : undefined);
  }
  grant(config, agent, permission ?? null, opts);
}

/**
 * For an agent: its person's standing in the organization, capped to what the token was granted (its role and
 * permissions there are never its person's beyond the grant); a person who holds no role there fails the double check
 * (null), not NOT_MEMBER.
 */
export async function agentOrgContext(resolver: OrgContextResolver, slug: string, agent: AgentContext, detail: boolean):
  Promise<OrgContext | null> {
  try {
    return await resolveOrgContext(resolver, slug, agent.user.id, { detail, grant: agent.granted });
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_MEMBER') return null;
    throw err;
  }
}

/** An agent on a route that accepts agents: nothing at all while its delegating user cannot act. */
export async function agentAdmitted(agents: AgentAuthService, agent: AgentContext): Promise<void> {
  if (!agent.userCanAct) await agents.deny(agent, 'AGENT_PERMISSION_DENIED');
  agent.decision = 'allow';
}

/**
 * What an agent's refusal names (docs/agents.md): the permission the call needed, as PERMISSION_DENIED names it, when
 * that is what fell short; nothing when the delegating user cannot act at all.
 */
const missingDetails = (agent: AgentContext, codes: string[]) => (agent.userCanAct ? missingPermissions(codes) : undefined);

/** Allowed: the call runs now, or (approval needed) the approval hook answers 202 or replays an approved action. */
function grant(config: Config, agent: AgentContext, permission: string | null, opts: AgentRuleOptions) {
  agent.decision = 'allow';
  if (opts.approval === true || (permission !== null && config.AIRS_CONFIRMATION_REQUIRED.includes(permission))) {
    agent.approval = { permission };
  } else if (typeof opts.approval === 'function') {
    agent.approval = { permission, when: opts.approval };
  }
}
