import type { FastifyRequest } from 'fastify';
import type { LoginMeta } from '../modules/auth/login.service.js';

/** What services record about the request making a call: its application, client address and agent. */
export const metaOf = (req: FastifyRequest, method = 'password'): LoginMeta => ({
  applicationId: req.application?.id ?? null,
  ip: req.clientIp || null,
  userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'].slice(0, 512) : null,
  method,
});
