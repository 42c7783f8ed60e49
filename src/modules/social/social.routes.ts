import type { FastifyReply, FastifyRequest } from 'fastify';
import { publicOriginResolver } from '../../http/hooks/request-context.js';
import { createRefreshCookie } from '../../http/refresh-cookie.js';
import { metaOf } from '../../http/request-meta.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import type { Redirect } from './social-browser.service.js';
import { AuthorizeQuery, CallbackQuery, ProviderParams, SocialLoginBody, SocialLoginResponse } from './social.schemas.js';

const tags = ['social login'];

/** docs/social-login.md: `POST social/<provider>/` and the browser flow (docs/decisions.md "Social login"). */
export default async function socialRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { social, socialBrowser } = container.services;
  const { config } = container;
  const cookie = createRefreshCookie(container.config);
  const loginLimit = guards.rateLimit('login', [{ max: 5, per: 'minute' }, { max: 20, per: 'hour' }]);

  app.post('/social/:provider/', {
    schema: { tags, params: ProviderParams, body: SocialLoginBody, response: { 200: SocialLoginResponse } },
    onRequest: [loginLimit],
  }, async (req, reply) => {
    const { provider } = req.params;
    return cookie.withCookie(reply, await social.login(provider, req.body, req.application, metaOf(req)));
  });

  // The browser flow (docs/social-login.md "The browser flow"): the state cookie lives as long as the state, on the social paths only.
  const STATE_COOKIE = 'gatehouse_social_state';
  const stateCookie = { httpOnly: true, secure: !config.DEBUG, sameSite: 'lax' as const, path: `${config.API_PREFIX}social/`, maxAge: 600 };
  const originOf = publicOriginResolver(config.TRUSTED_PROXIES);
  /** Gatehouse's own callback for a provider, at the address the browser used: the address to register at the provider. */
  const callbackUrlOf = (req: FastifyRequest) => (name: string) => `${originOf(req)}${config.API_PREFIX}social/${name}/callback/`;
  // Tokens travel in this redirect: no page may keep it or pass it on.
  const redirect = (reply: FastifyReply, to: Redirect) => reply.code(302).header('location', to.location)
    .header('referrer-policy', 'no-referrer').header('cache-control', 'no-store').send();
  const limit = guards.rateLimit('social_redirect', [{ max: 30, per: 'minute' }]);

  app.get('/social/:provider/authorize/', {
    schema: { tags, params: ProviderParams, querystring: AuthorizeQuery,
      description: 'Starts the browser flow: 302 to the provider. Needs `access_key` (no secret) and one of the application\'s redirect URIs.' },
    config: { appAuth: false }, onRequest: [limit],
  }, async (req, reply) => {
    const { provider } = req.params;
    const q = req.query;
    const started = await socialBrowser.start(provider, q.access_key, q.redirect_uri, callbackUrlOf(req));
    reply.header('set-cookie', reply.server.serializeCookie(STATE_COOKIE, started.cookie, stateCookie));
    return redirect(reply, started);
  });

  app.get('/social/:provider/callback/', {
    schema: { tags, params: ProviderParams, querystring: CallbackQuery, response: { 200: SocialLoginResponse },
      description: 'With application headers, `code` and `redirect_uri`: 200 like POST social/<provider>/ (with the provider\'s `error`: '
        + '400 CALLBACK_ERROR, `details` holding `error` and `error_description`). From the provider in the '
        + 'browser flow (no application headers, `state`): 302 to the application\'s redirect URI with the tokens or `error=<CODE>`.' },
    config: { appAuth: 'optional' }, onRequest: [limit],
  }, async (req, reply) => {
    const { provider } = req.params;
    const q = req.query;
    // With application credentials (checked by the application hook): the code is forwarded by the application itself.
    if (req.application) return reply.send(cookie.withCookie(reply, await social.callback(provider, q, req.application, metaOf(req))));
    const header = req.headers.cookie;
    const cookieValue = header ? req.server.parseCookie(header)[STATE_COOKIE] : undefined;
    const done = await socialBrowser.finish(provider, q, cookieValue, callbackUrlOf(req), metaOf(req));
    reply.header('set-cookie', reply.server.serializeCookie(STATE_COOKIE, '', { ...stateCookie, maxAge: 0 }));
    if (done.refreshCookie) cookie.set(reply, done.refreshCookie.raw, done.refreshCookie.maxAge);
    return redirect(reply, done);
  });
}
