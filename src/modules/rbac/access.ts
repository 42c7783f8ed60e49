import type { FastifyRequest } from 'fastify';
import type { AgentRuleOptions } from '../../http/guards/index.js';
import { actorOf as callerOf } from '../../http/request-meta.js';
import type { RouteDeps } from '../../http/route-plugin.js';
import type { Actor } from './actor.js';

export interface RequiresOptions {
  /** docs/agents.md "Agent requests": a route that declares a permission accepts agents unless it is on the closed list. */
  agents?: boolean;
  /** An agent's call waits for the delegating user's approval: always (a `requiresApproval` route), or when the body asks. */
  approval?: AgentRuleOptions['approval'];
}

/**
 * Route-side access control for administrative routes: `requires(code)` is the guard chain a route declares
 * (bearer with full scope or an agent token, then the permission), `actorOf(req)` what its service is told about the caller.
 */
export function accessControl({ guards, container }: RouteDeps) {
  const { rbac } = container.services;
  const user = guards.user();
  const userOrAgent = guards.user({ agents: true });

  const actorOf = (req: FastifyRequest): Promise<Actor> => callerOf(req, rbac);

  const requires = (code: string, { agents = true, approval }: RequiresOptions = {}) =>
    [agents ? userOrAgent : user, guards.permission(code, { approval })];
  return { requires, actorOf };
}
