import { PageOf, toPage } from '../../core/pagination.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { MessageResponse } from '../../http/schema.js';
import { accessControl } from './access.js';
import { IdParams, pathId } from '../../core/fields.js';
import {
  CreateRoleBody, RoleListQuery, RolePermissionsAddedResponse, RolePermissionsBody, RolePermissionsRemovedResponse,
  RolePermissionsResponse, RoleResponse, RoleSummary, UpdateRoleBody,
} from './roles.schemas.js';

const tags = ['roles'];

/** Roles (docs/access-control.md "Roles"), with DELETE roles/<id>/permissions/ as the mirror of POST. */
export default async function roleRoutes(app: TypedApp, deps: RouteDeps) {
  const { roles } = deps.container.services;
  const { requires, actorOf } = accessControl(deps);

  app.get('/roles/', {
    schema: { tags, querystring: RoleListQuery, response: { 200: PageOf(RoleSummary) } },
    onRequest: requires('roles.view'),
  }, async (req) => {
    const { results, count, page } = await roles.list(req.query);
    return toPage(results, count, page, req.url);
  });

  app.post('/roles/', {
    schema: { tags, body: CreateRoleBody, response: { 201: RoleResponse } },
    onRequest: requires('roles.manage'),
  }, async (req, reply) => reply.code(201).send(await roles.create(await actorOf(req), req.body)));

  app.get('/roles/:id/', {
    schema: { tags, params: IdParams, response: { 200: RoleResponse } },
    onRequest: requires('roles.view'),
  }, async (req) => roles.get(pathId(req.params)));

  app.put('/roles/:id/', {
    schema: { tags, params: IdParams, body: UpdateRoleBody, response: { 200: RoleResponse } },
    onRequest: requires('roles.manage'),
  }, async (req) => roles.update(await actorOf(req), pathId(req.params), req.body));

  app.delete('/roles/:id/', {
    schema: { tags, params: IdParams, response: { 200: MessageResponse } },
    onRequest: requires('roles.manage'),
  }, async (req) => roles.remove(await actorOf(req), pathId(req.params)));

  app.get('/roles/:id/permissions/', {
    schema: { tags, params: IdParams, response: { 200: RolePermissionsResponse } },
    onRequest: requires('roles.view'),
  }, async (req) => roles.permissionsOf(pathId(req.params)));

  app.post('/roles/:id/permissions/', {
    schema: { tags, params: IdParams, body: RolePermissionsBody, response: { 200: RolePermissionsAddedResponse } },
    onRequest: requires('roles.manage'),
  }, async (req) => roles.addPermissions(await actorOf(req), pathId(req.params), req.body.permission_codes));

  app.delete('/roles/:id/permissions/', {
    schema: { tags, params: IdParams, body: RolePermissionsBody, response: { 200: RolePermissionsRemovedResponse } },
    onRequest: requires('roles.manage'),
  }, async (req) => roles.removePermissions(await actorOf(req), pathId(req.params), req.body.permission_codes));
}
