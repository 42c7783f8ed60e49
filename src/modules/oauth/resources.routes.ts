import { IdParams, pathId } from '../../core/fields.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { MessageResponse } from '../../http/schema.js';
import { accessControl } from '../rbac/access.js';
import { auditOrigin } from '../rbac/actor.js';
import { CreateResourceBody, OauthResource, OauthResourceCreated, OauthResourceList, PatchResourceBody } from './resources.schemas.js';

const tags = ['oauth'];

/**
 * `oauth/resources/` (docs/oauth.md "Resources"): the APIs that accept Gatehouse's OAuth access tokens, managed with
 * `applications.manage` (closed to agents, like applications/).
 */
export default async function oauthResourceRoutes(app: TypedApp, deps: RouteDeps) {
  const { container, guards } = deps;
  const { oauthResources } = container.services;
  const { requires, actorOf } = accessControl(deps);
  const feature = guards.feature('OAUTH_ENABLED');
  const view = [feature, ...requires('applications.view', { agents: false })];
  const manage = [feature, ...requires('applications.manage', { agents: false })];

  app.post('/oauth/resources/', { schema: { tags, body: CreateResourceBody, response: { 201: OauthResourceCreated } }, onRequest: manage },
    async (req, reply) => reply.code(201).send(await oauthResources.create(req.body, auditOrigin(await actorOf(req)))));

  app.get('/oauth/resources/', { schema: { tags, response: { 200: OauthResourceList } }, onRequest: view },
    async () => oauthResources.list());

  app.get('/oauth/resources/:id/', { schema: { tags, params: IdParams, response: { 200: OauthResource } }, onRequest: view },
    async (req) => oauthResources.get(pathId(req.params)));

  app.patch('/oauth/resources/:id/', { schema: { tags, params: IdParams, body: PatchResourceBody, response: { 200: OauthResource } },
    onRequest: manage }, async (req) => oauthResources.update(pathId(req.params), req.body, auditOrigin(await actorOf(req))));

  app.delete('/oauth/resources/:id/', { schema: { tags, params: IdParams, response: { 200: MessageResponse } }, onRequest: manage },
    async (req) => {
      await oauthResources.remove(pathId(req.params), auditOrigin(await actorOf(req)));
      return { message: 'The resource is deleted.' };
    });
}
