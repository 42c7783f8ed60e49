import { AppError } from '../../core/errors.js';
import { browserOriginResolver } from '../../http/browser-origin.js';
import { registerAppAuth } from '../../http/hooks/app-auth.js';
import { registerCors } from '../../http/hooks/cors.js';
import { createRefreshCookie } from '../../http/refresh-cookie.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { admitsOrigin } from '../applications/kinds.js';
import { refreshAnswer, refreshRouteOptions } from './refresh-endpoint.js';

/**
 * The Tenxyte SDK auto-refreshes at `{host}/auth/refresh/`, outside the API prefix and without application headers
 * (docs/authentication.md "Tokens"). While `SVC_ROOT_REFRESH_ALIAS` is on this path serves `<prefix>refresh/`; while
 * it is off the route does not exist and the path answers 404 like any unknown one.
 */
export default async function rootRefreshRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { config } = container;
  if (!config.ROOT_REFRESH_ALIAS) return;
  const { applications, appCredentials, sessions } = container.services;
  const cookie = createRefreshCookie(config);
  const browserOriginOf = browserOriginResolver(config);

  await app.register(async (root: TypedApp) => {
    // The API's own application and CORS checks, for this path only: headers, when sent, are checked as usual.
    registerCors(root, appCredentials);
    registerAppAuth(root, config, appCredentials);
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
      const headerless = !req.application && config.APPLICATION_AUTH_ENABLED;
      // Without application headers the application is not known yet, and a public application's token is in the cookie
      // whatever the switch: the cookie is read now and kept only if the token's application is in cookie mode.
      const found = cookie.take(req, req.body.refresh_token, headerless || cookie.enabledFor(req.application));
      if (!found) throw new AppError('MISSING_REFRESH_TOKEN');
      // Without application headers the caller is the application the token was issued to: a token of an inactive or
      // deleted application refreshes nothing, and that application's Origin rules apply (a public one's, and the cookie's).
      if (headerless) {
        const applicationId = await sessions.applicationIdOf(found.raw);
        req.application = applicationId === null ? null : await applications.byId(applicationId);
        if (!req.application) throw new AppError('REFRESH_FAILED');
        if (found.fromCookie && !cookie.enabledFor(req.application)) throw new AppError('MISSING_REFRESH_TOKEN');
        if (!admitsOrigin(req.application, browserOriginOf(req))) throw new AppError('APP_AUTH_INVALID');
      }
      if (found.fromCookie) cookie.assertOrigin(req, req.application);
      return refreshAnswer(sessions, cookie, req, reply, found.raw);
    });
  }, { prefix: '/auth' });
}
