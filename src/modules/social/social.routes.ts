import type { FastifyInstance } from 'fastify';
import { createRefreshCookie } from '../../http/refresh-cookie.js';
import { metaOf } from '../../http/request-meta.js';
import type { RouteDeps } from '../../http/routes.js';
import { ProviderParams, SocialLoginBody, SocialLoginResponse } from './social.schemas.js';
import type { SocialLoginInput } from './social.service.js';

const tags = ['social login'];

/** SPEC.md "Registration and login": `POST social/<provider>/` (DECISIONS.md "Social login"). */
export default async function socialRoutes(app: FastifyInstance, { container, guards }: RouteDeps) {
  const { social } = container.services;
  const cookie = createRefreshCookie(container.config);
  const loginLimit = guards.rateLimit('login', [{ max: 5, per: 'minute' }, { max: 20, per: 'hour' }]);

  app.post('/social/:provider/', {
    schema: { tags, params: ProviderParams, body: SocialLoginBody, response: { 200: SocialLoginResponse } },
    onRequest: [loginLimit],
  }, async (req, reply) => {
    const { provider } = req.params as { provider: string };
    return cookie.withCookie(reply, await social.login(provider, req.body as SocialLoginInput, req.application, metaOf(req)));
  });
}
