import type { FastifyInstance } from 'fastify';
import { AppError } from '../../core/errors.js';
import { registerAppAuth } from '../../http/hooks/app-auth.js';
import { registerCors } from '../../http/hooks/cors.js';
import { createRefreshCookie } from '../../http/refresh-cookie.js';
import type { RouteDeps } from '../../http/routes.js';
import { refreshAnswer, refreshRouteOptions } from './refresh-endpoint.js';

/**
 * SDK-COMPAT.md rule 1: the Tenxyte SDK auto-refreshes at `{host}/auth/refresh/`, outside the API prefix and without
 * application headers. While `SVC_ROOT_REFRESH_ALIAS` is on this path serves `<prefix>refresh/`; while it is off the
 * route does not exist and the path answers 404 like any unknown one.
 */
export default async function rootRefreshRoutes(app: FastifyInstance, { container, guards }: RouteDeps) {
  const { config } = container;
  if (!config.ROOT_REFRESH_ALIAS) return;
  const { applications, sessions } = container.services;
  const cookie = createRefreshCookie(config);

  await app.register(async (root) => {
    // The API's own application and CORS checks, for this path only: headers, when sent, are checked as usual.
    registerCors(root, applications);
    registerAppAuth(root, config, applications);
    root.addHook('onRequest', (_req, reply, done) => {
      reply.header('cache-control', 'no-store');
      done();
    });

    const options = refreshRouteOptions(guards);
    root.post('/refresh/', {
      ...options,
      schema: { ...options.schema, hide: true },
      config: { appAuth: 'optional' },
    }, async (req, reply) => {
      const found = cookie.take(req, (req.body as { refresh_token?: string }).refresh_token);
      if (!found) throw new AppError('MISSING_REFRESH_TOKEN');
      // Without application headers the caller is the application the token was issued to: a token of an inactive or
      // deleted application refreshes nothing, and that application's Origin rule applies to the cookie.
      if (!req.application && config.APPLICATION_AUTH_ENABLED) {
        const applicationId = await sessions.applicationIdOf(found.raw);
        req.application = applicationId === null ? null : await applications.byId(applicationId);
        if (!req.application) throw new AppError('REFRESH_FAILED');
      }
      if (found.fromCookie) cookie.assertOrigin(req, req.application);
      return refreshAnswer(sessions, cookie, req, reply, found.raw);
    });
  }, { prefix: '/auth' });
}
