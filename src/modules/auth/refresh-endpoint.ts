import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Guards } from '../../http/guards/index.js';
import type { RefreshCookie } from '../../http/refresh-cookie.js';
import { metaOf } from '../../http/request-meta.js';
import type { SessionService } from '../sessions/sessions.service.js';
import { RefreshBody, RefreshResponse, withSdkTokenNames } from './auth.schemas.js';

type RateLimitHook = ReturnType<Guards['rateLimit']>;
const limits = new WeakMap<Guards, RateLimitHook>();

/**
 * What both refresh paths declare — `<prefix>refresh/` and the root alias `/auth/refresh/` (SDK-COMPAT.md rule 1) —
 * with one rate-limit counter per client across the two, so the alias does not double anyone's allowance.
 */
export function refreshRouteOptions(guards: Guards) {
  let limit = limits.get(guards);
  if (!limit) {
    limit = guards.rateLimit('refresh', [{ max: 30, per: 'minute' }]);
    limits.set(guards, limit);
  }
  return { schema: { tags: ['auth'], body: RefreshBody, response: { 200: RefreshResponse } }, onRequest: [limit] };
}

/** Redeems `raw` for the request's application: SPEC.md's answer with the SDK's `access` and `refresh` beside it. */
export async function refreshAnswer(sessions: SessionService, cookie: RefreshCookie, req: FastifyRequest, reply: FastifyReply,
  raw: string) {
  const { token_scope: scope, ...tokens } = await sessions.refresh(raw, metaOf(req));
  return withSdkTokenNames(cookie.withCookie(reply, { ...tokens, ...(scope !== 'full' ? { token_scope: scope } : {}) }));
}
