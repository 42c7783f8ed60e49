import { PageOf, PageQuery, toPage } from '../../core/pagination.js';
import { userAuthOf } from '../../http/guards/index.js';
import { actorMetaOf } from '../../http/request-meta.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { MessageResponse } from '../../http/schema.js';
import { accessControl } from '../rbac/access.js';
import { AdminGrantQuery, GrantParams, OauthGrant } from './grants.schemas.js';

const tags = ['oauth'];

/**
 * docs/oauth.md "Grants": a person's grants to OAuth clients, listed and revoked by that person (closed to agents), listed
 * by an administrator holding `users.view` and revoked by one holding `users.manage`.
 */
export default async function oauthGrantRoutes(app: TypedApp, deps: RouteDeps) {
  const { container, guards } = deps;
  const { oauthGrants } = container.services;
  const { requires } = accessControl(deps);
  const feature = guards.feature('OAUTH_ENABLED');
  const user = [feature, guards.user()];

  app.get('/me/grants/', {
    schema: { tags, querystring: PageQuery, response: { 200: PageOf(OauthGrant) } }, onRequest: user,
  }, async (req) => {
    const { results, count, page } = await oauthGrants.list(userAuthOf(req).user.id, req.query);
    return toPage(results, count, page, req.url);
  });

  app.delete('/me/grants/:id/', {
    schema: { tags, params: GrantParams, response: { 200: MessageResponse } }, onRequest: user,
  }, async (req) => {
    const me = userAuthOf(req).user.id;
    await oauthGrants.revoke(req.params.id, { owner: me, actorId: me }, actorMetaOf(req));
    return { message: 'The grant is revoked.' };
  });

  app.get('/admin/grants/', {
    schema: { tags, querystring: AdminGrantQuery, response: { 200: PageOf(OauthGrant) },
      description: 'One person\'s grants to OAuth clients (`user_id`), newest first, as `me/grants/` lists them.' },
    onRequest: [feature, ...requires('users.view', { agents: false })],
  }, async (req) => {
    const { user_id: userId, ...query } = req.query;
    const { results, count, page } = await oauthGrants.list(userId, query);
    return toPage(results, count, page, req.url);
  });

  app.delete('/admin/grants/:id/', {
    schema: { tags, params: GrantParams, response: { 200: MessageResponse } }, onRequest: [feature, ...requires('users.manage', { agents: false })],
  }, async (req) => {
    await oauthGrants.revoke(req.params.id, { actorId: userAuthOf(req).user.id }, actorMetaOf(req));
    return { message: 'The grant is revoked.' };
  });
}
