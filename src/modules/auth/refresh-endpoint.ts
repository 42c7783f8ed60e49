import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Guards } from '../../http/guards/index.js';
import type { RefreshCookie } from '../../http/refresh-cookie.js';
import { metaOf } from '../../http/request-meta.js';
import type { SessionService } from '../sessions/sessions.service.js';
import { RefreshBody, RefreshResponse, withSdkTokenNames } from './auth.schemas.js';

/**
 * What both refresh paths declare — `<prefix>refresh/` and the root alias `/auth/refresh/` (docs/migrating-from-tenxyte.md).
 * Both name the `refresh` limit, whose counter is one per client across the two: the alias doubles no one's allowance.
 */
export const refreshRouteOptions = (guards: Guards) => ({
  schema: { tags: ['auth'], body: RefreshBody, response: { 200: RefreshResponse } },
  onRequest: [guards.rateLimit('refresh', [{ max: 30, per: 'minute' }])],
});

/** Redeems `raw` for the request's application: the API's answer with the SDK's `access` and `refresh` beside it. */
export async function refreshAnswer(sessions: SessionService, cookie: RefreshCookie, req: FastifyRequest, reply: FastifyReply,
  raw: string) {
  const { token_scope: scope, ...tokens } = await sessions.refresh(raw, metaOf(req));
  return withSdkTokenNames(cookie.withCookie(reply, { ...tokens, ...(scope !== 'full' ? { token_scope: scope } : {}) }));
}
