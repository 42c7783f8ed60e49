import { AppError } from '../../core/errors.js';
import type { RequestMeta } from '../../core/request-meta.js';
import type { PermissionSet } from './permission-set.js';

/**
 * The authenticated user making an administrative change, with what they hold. For an agent request it is the
 * delegating user with the agent's standing: `is_superuser` false and `permissions` what the token was granted and the
 * user still holds (docs/agents.md "Threat model").
 */
export interface Actor {
  id: number;
  is_superuser: boolean;
  /** The change is made by an agent acting for the user. */
  viaAgent: boolean;
  permissions: PermissionSet;
  meta: RequestMeta;
}

/**
 * Why a change is refused when no permission would allow it (docs/access-control.md "Refusals"): a superuser's account
 * and the administrator flags are a superuser's to change, and nobody changes their own standing or grants.
 */
export type RefusalReason = 'superuser_required' | 'own_account';

/** The refusal of a change the actor's standing does not allow: an agent's says that its grant is what falls short. */
export const refusalFor = (actor: Pick<Actor, 'viaAgent'>, reason: RefusalReason = 'superuser_required') =>
  new AppError(actor.viaAgent ? 'AGENT_PERMISSION_DENIED' : 'PERMISSION_DENIED', { details: { reason } });

/** Nobody changes their own standing or grants, superusers included: the answer is the same for an agent's person. */
export const ownAccountRefusal = () => new AppError('PERMISSION_DENIED', { details: { reason: 'own_account' satisfies RefusalReason } });

/** The audit fields every event a signed-in user caused carries: who acted, and the request's facts. */
export const auditOrigin = (actor: { id: number; meta: RequestMeta }) => ({
  actor_id: actor.id,
  application_id: actor.meta.applicationId,
  ip_address: actor.meta.ip,
  user_agent: actor.meta.userAgent,
  request_id: actor.meta.requestId,
});

/** The audit fields of a change made with the `gatehouse` command on the server: no account, no request. */
export const COMMAND_LINE_ORIGIN = { actor_id: null, application_id: null, ip_address: null, user_agent: null, request_id: null } as const;
