import type { FastifyRequest } from 'fastify';
import { AppError } from '../core/errors.js';
import type { RequestMeta } from '../core/request-meta.js';
import { agentPermissions } from '../modules/agents/agent-policy.js';
import type { AgentContext } from '../modules/agents/agent-context.js';
import type { OrgActor } from '../modules/organizations/org-actor.js';
import type { OrgContext } from '../modules/organizations/org-context.js';
import type { Actor } from '../modules/rbac/actor.js';
import type { PermissionSet, PermissionSource } from '../modules/rbac/permission-set.js';
import type { AuthContext, AuthUser } from '../modules/sessions/bearer.service.js';

// The one place a request becomes "the caller" services are told about: who acts (the signed-in user, or the
// delegating user of an agent), what they hold, and the request's facts (`RequestMeta`). The guards set
// `req.auth`, `req.agent` and `req.org`; route handlers read them through these functions only.

const userAgentOf = (req: FastifyRequest): string | null =>
  (typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'].slice(0, 512) : null);

/** What an audit event or a session records about the request behind a call: its application, client address, agent and id. */
export const actorMetaOf = (req: FastifyRequest): RequestMeta => ({
  applicationId: req.application?.id ?? null,
  ip: req.clientIp || null,
  userAgent: userAgentOf(req),
  requestId: String(req.id),
});

/** {@link actorMetaOf} and, for the sign-in services, how the person signs in (`password`, `otp`, `passkey`…). */
export const metaOf = (req: FastifyRequest, method = 'password'): RequestMeta & { method: string } =>
  ({ ...actorMetaOf(req), method });

/** Who a request acts for: the signed-in user, or the delegating user of an agent request. */
export function authOf(req: FastifyRequest): { user: AuthUser } {
  const principal = req.auth ?? req.agent;
  if (!principal) throw new AppError('UNAUTHORIZED');
  return principal;
}

/** The user bearer's context (token claims included) on a route closed to agents. */
export function userAuthOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw new AppError('UNAUTHORIZED');
  return req.auth;
}

/** The agent context of a request authenticated with `AgentBearer`. */
export function agentOf(req: FastifyRequest): AgentContext {
  if (!req.agent) throw new AppError('AGENT_TOKEN_INVALID');
  return req.agent;
}

/** The organization context of a route whose `org()` guard passed. */
export function orgOf(req: FastifyRequest): OrgContext {
  if (!req.org) throw new AppError('ORG_SLUG_REQUIRED');
  return req.org;
}

const heldByRequest = new WeakMap<FastifyRequest, Promise<PermissionSet>>();

/** The effective permissions of the request's user (for an agent, what the agent policy says it holds), resolved once per request. */
export function heldPermissions(req: FastifyRequest, source: PermissionSource): Promise<PermissionSet> {
  if (req.agent) return Promise.resolve(agentPermissions(req.agent));
  let held = heldByRequest.get(req);
  if (!held) {
    held = source.permissionsOf(authOf(req).user);
    heldByRequest.set(req, held);
  }
  return held;
}

/**
 * The caller of an administrative change. An agent never acts with its person's superuser standing, only with what
 * it was granted (docs/agents.md).
 */
export async function actorOf(req: FastifyRequest, source: PermissionSource): Promise<Actor> {
  const { user } = authOf(req);
  const viaAgent = Boolean(req.agent);
  return { id: user.id, is_superuser: user.is_superuser && !viaAgent, viaAgent, permissions: await heldPermissions(req, source),
    meta: actorMetaOf(req) };
}

/** The caller acting in organizations: an agent also brings its token's organization and grant (docs/agents.md). */
export function orgActorOf(req: FastifyRequest): OrgActor {
  const { user } = authOf(req);
  const agent = req.agent ? { organizationId: req.agent.organizationId, grant: req.agent.granted } : null;
  return { userId: user.id, email: user.email, meta: actorMetaOf(req), agent };
}
