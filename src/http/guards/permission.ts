import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config/settings.js';
import type { AgentAuthService } from '../../modules/agents/agent-auth.service.js';
import { permissionDenied, type PermissionSource } from '../../modules/rbac/permission-set.js';
import { checkAgentPermission, type AgentRuleOptions } from '../../modules/agents/agent-policy.js';
import { heldPermissions } from '../request-meta.js';

/**
 * `permission(code)`, declared after `user()`: 403 PERMISSION_DENIED (naming `code` in `details.missing_permissions`)
 * unless the user holds `code` through a role,
 * directly, or below a held parent (a superuser holds every permission). One query per request at most. An agent
 * passes the double check instead (403 AGENT_PERMISSION_DENIED), and may be held for approval.
 */
export function createPermissionGuard(source: PermissionSource, agents: AgentAuthService, config: Config) {
  return (code: string, opts: AgentRuleOptions = {}) => async (req: FastifyRequest) => {
    if (req.agent) return checkAgentPermission(agents, config, req.agent, code, opts);
    if (!(await heldPermissions(req, source)).has(code)) throw permissionDenied([code]);
  };
}
