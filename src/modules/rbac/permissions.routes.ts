import { PageOf, toPage } from '../../core/pagination.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { MessageResponse } from '../../http/schema.js';
import { accessControl } from './access.js';
import { IdParams, pathId } from '../../core/fields.js';
import {
  CreatePermissionBody, PermissionListQuery, PermissionResponse, PermissionSummary, UpdatePermissionBody,
} from './permissions.schemas.js';

const tags = ['permissions'];

/** The permissions catalogue (docs/access-control.md "Permissions"). */
export default async function permissionRoutes(app: TypedApp, deps: RouteDeps) {
  const { permissions } = deps.container.services;
  const { requires, actorOf } = accessControl(deps);

  app.get('/permissions/', {
    schema: { tags, querystring: PermissionListQuery, response: { 200: PageOf(PermissionSummary) } },
    onRequest: requires('permissions.view'),
  }, async (req) => {
    const { results, count, page } = await permissions.list(req.query);
    return toPage(results, count, page, req.url);
  });

  app.post('/permissions/', {
    schema: { tags, body: CreatePermissionBody, response: { 201: PermissionResponse } },
    onRequest: requires('permissions.manage'),
  }, async (req, reply) => reply.code(201).send(await permissions.create(await actorOf(req), req.body)));

  app.get('/permissions/:id/', {
    schema: { tags, params: IdParams, response: { 200: PermissionResponse } },
    onRequest: requires('permissions.view'),
  }, async (req) => permissions.get(pathId(req.params)));

  app.put('/permissions/:id/', {
    schema: { tags, params: IdParams, body: UpdatePermissionBody, response: { 200: PermissionResponse } },
    onRequest: requires('permissions.manage'),
  }, async (req) => permissions.update(await actorOf(req), pathId(req.params), req.body));

  app.delete('/permissions/:id/', {
    schema: { tags, params: IdParams, response: { 200: MessageResponse } },
    onRequest: requires('permissions.manage'),
  }, async (req) => permissions.remove(await actorOf(req), pathId(req.params)));
}
