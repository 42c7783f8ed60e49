import type { PermissionSet } from './permission-set.js';

/** The request facts an audit event records about an administrative change. */
export interface ActorMeta {
  applicationId: number | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/** The authenticated user making an administrative change, with what they hold. */
export interface Actor {
  id: number;
  is_superuser: boolean;
  permissions: PermissionSet;
  meta: ActorMeta;
}

/** The audit fields every event a signed-in user caused carries: who acted, and the request's facts. */
export const auditOrigin = (actor: { id: number; meta: ActorMeta }) => ({
  actor_id: actor.id,
  application_id: actor.meta.applicationId,
  ip_address: actor.meta.ip,
  user_agent: actor.meta.userAgent,
  request_id: actor.meta.requestId,
});
