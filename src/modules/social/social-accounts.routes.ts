import { IdParams, pathId } from '../../core/fields.js';
import { PageOf, PageQuery, toPage } from '../../core/pagination.js';
import { userAuthOf } from '../../http/guards/index.js';
import { metaOf } from '../../http/request-meta.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { MessageResponse } from '../../http/schema.js';
import { SocialIdentity } from './social-accounts.schemas.js';

const tags = ['social login'];

/** docs/social-login.md "The linked identities": the signed-in user's identities at social-login providers. Closed to agents. */
export default async function socialAccountRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { socialAccounts } = container.services;
  const user = guards.user();

  app.get('/me/social-accounts/', {
    schema: { tags, querystring: PageQuery, response: { 200: PageOf(SocialIdentity) } }, onRequest: [user],
  }, async (req) => {
    const { results, count, page } = await socialAccounts.list(userAuthOf(req).user.id, req.query);
    return toPage(results, count, page, req.url);
  });

  app.delete('/me/social-accounts/:id/', {
    schema: { tags, params: IdParams, response: { 200: MessageResponse } }, onRequest: [user],
  }, async (req) => {
    await socialAccounts.unlink(userAuthOf(req).user.id, pathId(req.params), metaOf(req));
    return { message: 'The social account is unlinked.' };
  });
}
