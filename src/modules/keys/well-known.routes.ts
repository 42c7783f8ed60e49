import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { DiscoveryResponse, JwksResponse } from './keys.schemas.js';

/**
 * How long a copy of the key set may be served from a cache. A resource server fetches the set when it starts and when
 * a token names a kid it does not know; a key rotated in is missing from a cached copy until it expires, so the copy is
 * short-lived; a retired key left in one is harmless (every token it signed has expired). Caches in front of Gatehouse
 * still absorb the bursts of many resource servers starting at once.
 */
export const JWKS_CACHE_CONTROL = 'public, max-age=60';
/** The metadata changes only with the settings (a restart): five minutes. */
export const DISCOVERY_CACHE_CONTROL = 'public, max-age=300';

/**
 * `/.well-known/jwks.json` and `/.well-known/openid-configuration` (docs/resource-servers.md), at the root
 * where OpenID discovery looks, without application credentials. Public documents: any page may read them (CORS `*`).
 */
export default async function wellKnownRoutes(app: TypedApp, { container }: RouteDeps) {
  const { keys } = container.services;
  const open = { 'access-control-allow-origin': '*' };

  app.get('/.well-known/jwks.json', { schema: { hide: true, response: { 200: JwksResponse } } },
    async (_req, reply) => reply.headers({ ...open, 'cache-control': JWKS_CACHE_CONTROL }).send(await keys.jwks()));

  // With the authorization server on, its metadata is the document (docs/oauth.md "Endpoints").
  if (container.config.OAUTH_ENABLED) return;
  // Without a document (HS256) the 404 is readable by any page too, and never cached, like any error answer.
  app.get('/.well-known/openid-configuration', { schema: { hide: true, response: { 200: DiscoveryResponse } } }, async (_req, reply) => {
    reply.headers(open);
    const document = await keys.discovery();
    return reply.header('cache-control', DISCOVERY_CACHE_CONTROL).send(document);
  });
}
