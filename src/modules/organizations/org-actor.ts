import type { FastifyRequest } from 'fastify';
import { authOf } from '../../http/guards/index.js';
import { actorMetaOf } from '../../http/request-meta.js';
import { auditOrigin, type ActorMeta } from '../rbac/actor.js';

/** The authenticated user acting in organizations, with what an audit event records about the request. */
export interface OrgActor {
  userId: number;
  email: string | null;
  meta: ActorMeta;
  /** The request is an agent's: the organization its token is bound to and what it was granted (docs/agents.md). */
  agent: { organizationId: number | null; grant: ReadonlySet<string> } | null;
}

export function orgActorOf(req: FastifyRequest): OrgActor {
  const { user } = authOf(req);
  const agent = req.agent ? { organizationId: req.agent.organizationId, grant: req.agent.granted } : null;
  return { userId: user.id, email: user.email, meta: actorMetaOf(req), agent };
}

/** The audit fields of an event an organization member caused. */
export const auditOf = (actor: OrgActor) => auditOrigin({ id: actor.userId, meta: actor.meta });
