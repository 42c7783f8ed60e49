import type { FastifyRequest } from 'fastify';
import type { LoginMeta } from '../modules/auth/sign-in.service.js';
import type { ActorMeta } from '../modules/rbac/actor.js';

const userAgentOf = (req: FastifyRequest): string | null =>
  (typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'].slice(0, 512) : null);

/** What services record about the request making a call: its application, client address and agent. */
export const metaOf = (req: FastifyRequest, method = 'password'): LoginMeta => ({
  applicationId: req.application?.id ?? null,
  ip: req.clientIp || null,
  userAgent: userAgentOf(req),
  method,
});

/** What an audit event records about the request behind a change: its application, client address, agent and id. */
export const actorMetaOf = (req: FastifyRequest): ActorMeta => ({
  applicationId: req.application?.id ?? null,
  ip: req.clientIp || null,
  userAgent: userAgentOf(req),
  requestId: String(req.id),
});
