import type { FastifyRequest } from 'fastify';
import { authOf } from '../../http/guards/index.js';
import type { ActorMeta } from '../rbac/actor.js';

/** The authenticated user acting in organizations, with what an audit event records about the request. */
export interface OrgActor {
  userId: number;
  email: string | null;
  meta: ActorMeta;
}

export function orgActorOf(req: FastifyRequest): OrgActor {
  const { user } = authOf(req);
  const agent = req.headers['user-agent'];
  return {
    userId: user.id,
    email: user.email,
    meta: {
      applicationId: req.application?.id ?? null, ip: req.clientIp || null,
      userAgent: typeof agent === 'string' ? agent.slice(0, 512) : null, requestId: String(req.id),
    },
  };
}

/** The audit fields of an event an organization member caused. */
export const auditOf = (actor: OrgActor) => ({
  actor_id: actor.userId, application_id: actor.meta.applicationId, ip_address: actor.meta.ip,
  user_agent: actor.meta.userAgent, request_id: actor.meta.requestId,
});
