import { PageOf, toPage } from '../../core/pagination.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { MessageResponse } from '../../http/schema.js';
import { accessControl } from '../rbac/access.js';
import { IdParams, pathId } from '../../core/fields.js';
import {
  ApplicationCredentialsResponse, ApplicationListQuery, ApplicationResponse, CreateApplicationBody,
  PatchApplicationBody, RegenerateBody, ReplaceApplicationBody,
} from './applications.schemas.js';

const tags = ['applications'];

/** The `applications/` API (docs/access-control.md "Applications"): the secret is shown at creation and regeneration only. */
export default async function applicationRoutes(app: TypedApp, deps: RouteDeps) {
  const { applications } = deps.container.services;
  // applications/* are closed to agents, whatever they were granted (docs/agents.md "Agent requests").
  const closed = { agents: false };
  const { requires, actorOf } = accessControl(deps);

  app.get('/applications/', {
    schema: { tags, querystring: ApplicationListQuery, response: { 200: PageOf(ApplicationResponse) } },
    onRequest: requires('applications.view', closed),
  }, async (req) => {
    const { results, count, page } = await applications.list(req.query);
    return toPage(results, count, page, req.url);
  });

  app.post('/applications/', {
    schema: { tags, body: CreateApplicationBody, response: { 201: ApplicationCredentialsResponse } },
    onRequest: requires('applications.manage', closed),
  }, async (req, reply) => reply.code(201).send(await applications.register(await actorOf(req), req.body)));

  app.get('/applications/:id/', {
    schema: { tags, params: IdParams, response: { 200: ApplicationResponse } },
    onRequest: requires('applications.view', closed),
  }, async (req) => applications.get(pathId(req.params)));

  app.put('/applications/:id/', {
    schema: { tags, params: IdParams, body: ReplaceApplicationBody, response: { 200: ApplicationResponse } },
    onRequest: requires('applications.manage', closed),
  }, async (req) => applications.update(await actorOf(req), pathId(req.params), req.body));

  app.patch('/applications/:id/', {
    schema: { tags, params: IdParams, body: PatchApplicationBody, response: { 200: ApplicationResponse } },
    onRequest: requires('applications.manage', closed),
  }, async (req) => applications.update(await actorOf(req), pathId(req.params), req.body));

  app.delete('/applications/:id/', {
    schema: { tags, params: IdParams, response: { 200: MessageResponse } },
    onRequest: requires('applications.manage', closed),
  }, async (req) => applications.remove(await actorOf(req), pathId(req.params)));

  app.post('/applications/:id/regenerate/', {
    schema: { tags, params: IdParams, body: RegenerateBody, response: { 200: ApplicationCredentialsResponse } },
    onRequest: requires('applications.manage', closed),
  }, async (req) => applications.regenerate(await actorOf(req), pathId(req.params), req.body.confirmation));
}
