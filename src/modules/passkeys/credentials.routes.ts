import { IdParams, pathId } from '../../core/fields.js';
import { userAuthOf } from '../../http/guards/index.js';
import { metaOf } from '../../http/request-meta.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { PasskeyList } from './passkeys.schemas.js';

const tags = ['passkeys'];

/** `webauthn/credentials/` (docs/passkeys.md "Managing passkeys"): the signed-in user's passkeys. Closed to agents. */
export default async function passkeyCredentialRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { passkeyCredentials } = container.services;
  const onRequest = [guards.feature('WEBAUTHN_ENABLED'), guards.user()];

  app.get('/webauthn/credentials/', { schema: { tags, response: { 200: PasskeyList } }, onRequest },
    async (req) => passkeyCredentials.list(userAuthOf(req).user.id));

  app.delete('/webauthn/credentials/:id/', { schema: { tags, params: IdParams }, onRequest }, async (req, reply) => {
    await passkeyCredentials.remove(userAuthOf(req).user.id, pathId(req.params), metaOf(req));
    return reply.code(204).send();
  });
}
