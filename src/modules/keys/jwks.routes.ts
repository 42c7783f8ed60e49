import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { JwksResponse } from './keys.schemas.js';
import { JWKS_CACHE_CONTROL } from './well-known.routes.js';

/** `<prefix>jwks/`: the key set of `/.well-known/jwks.json` under the API prefix, without application credentials. */
export default async function jwksRoutes(app: TypedApp, { container }: RouteDeps) {
  const { keys } = container.services;
  app.get('/jwks/', {
    schema: { tags: ['keys'], response: { 200: JwksResponse } },
    config: { appAuth: false },
  }, async (_req, reply) => reply.header('cache-control', JWKS_CACHE_CONTROL).send(await keys.jwks()));
}
