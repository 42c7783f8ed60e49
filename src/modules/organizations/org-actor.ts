import type { RequestMeta } from '../../core/request-meta.js';
import { auditOrigin } from '../rbac/actor.js';

/** The authenticated user acting in organizations, with what an audit event records about the request. */
export interface OrgActor {
  userId: number;
  email: string | null;
  meta: RequestMeta;
  /** The request is an agent's: the organization its token is bound to and what it was granted (docs/agents.md). */
  agent: { organizationId: number | null; grant: ReadonlySet<string> } | null;
}

/** The audit fields of an event an organization member caused. */
export const auditOf = (actor: OrgActor) => auditOrigin({ id: actor.userId, meta: actor.meta });
