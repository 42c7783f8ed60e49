import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { OAUTH_ROUTES } from './provider.js';

/** The protocol's own paths, answered by the provider (the key set stays with the keys module). */
const PROVIDER_PATHS = [OAUTH_ROUTES.authorization, `${OAUTH_ROUTES.authorization}/:uid`, OAUTH_ROUTES.token, OAUTH_ROUTES.userinfo,
  OAUTH_ROUTES.introspection, OAUTH_ROUTES.revocation, OAUTH_ROUTES.end_session, `${OAUTH_ROUTES.end_session}/confirm`,
  `${OAUTH_ROUTES.end_session}/success`, `${OAUTH_ROUTES.registration}/:clientId`, '/.well-known/openid-configuration'];

/**
 * The authorization server at the host root (docs/oauth.md): the protocol's endpoints, handed to the provider with their
 * bodies unread. Its pages are pages.routes.ts.
 */
export default async function oauthRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { config } = container;
  if (!config.OAUTH_ENABLED) return;
  const { oauth } = container.services;

  // The provider reads each body itself: no parser here touches the stream.
  await app.register(async (protocol) => {
    protocol.removeAllContentTypeParsers();
    protocol.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    const handOver = async (req: FastifyRequest, reply: FastifyReply, url?: string) => {
      const handler = await oauth.handler();
      reply.hijack();
      if (url) req.raw.url = url;
      handler(req.raw, reply.raw);
    };
    for (const url of PROVIDER_PATHS) {
      protocol.route({ method: ['GET', 'POST', 'OPTIONS'], url, schema: { hide: true }, handler: (req, reply) => handOver(req, reply) });
    }
    // Dynamic registration creates clients for anyone who asks: a few per address (docs/oauth.md "Dynamic registration").
    protocol.route({ method: ['GET', 'POST', 'OPTIONS'], url: OAUTH_ROUTES.registration, schema: { hide: true },
      onRequest: [guards.rateLimit('oauth-register', [{ max: 10, per: 'hour' }, { max: 30, per: 'day' }])],
      handler: (req, reply) => handOver(req, reply) });
    // RFC 8414's document is OpenID Discovery's: the same one.
    protocol.route({ method: ['GET', 'OPTIONS'], url: '/.well-known/oauth-authorization-server', schema: { hide: true },
      handler: (req, reply) => handOver(req, reply, '/.well-known/openid-configuration') });
  });
}
