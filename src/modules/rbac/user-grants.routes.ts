import { AppError } from '../../core/errors.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { accessControl } from './access.js';
import { IdParams, pathId } from '../../core/fields.js';
import {
  AssignRoleBody, RemoveRoleQuery, UserPermissionsAddedResponse, UserPermissionsBody, UserPermissionsRemovedResponse,
  UserPermissionsResponse, UserRoleChangeResponse, UserRolesResponse,
} from './user-grants.schemas.js';

const tags = ['user roles and permissions'];

/** docs/access-control.md "User roles and direct permissions"; every route needs users.manage. */
export default async function userGrantRoutes(app: TypedApp, deps: RouteDeps) {
  const { userGrants } = deps.container.services;
  const { requires, actorOf } = accessControl(deps);
  const onRequest = requires('users.manage');

  app.get('/users/:id/roles/', { schema: { tags, params: IdParams, response: { 200: UserRolesResponse } }, onRequest },
    async (req) => userGrants.rolesOf(pathId(req.params)));

  app.post('/users/:id/roles/', {
    schema: { tags, params: IdParams, body: AssignRoleBody, response: { 200: UserRoleChangeResponse } }, onRequest,
  }, async (req) => userGrants.assignRole(await actorOf(req), pathId(req.params), req.body.role_code));

  app.delete('/users/:id/roles/', {
    schema: { tags, params: IdParams, querystring: RemoveRoleQuery, response: { 200: UserRoleChangeResponse } }, onRequest,
  }, async (req) => {
    const id = pathId(req.params);
    const roleCode = req.query.role_code;
    if (!roleCode) throw new AppError('MISSING_PARAM', { message: 'role_code query parameter is required' });
    return userGrants.removeRole(await actorOf(req), id, roleCode);
  });

  app.get('/users/:id/permissions/', { schema: { tags, params: IdParams, response: { 200: UserPermissionsResponse } }, onRequest },
    async (req) => userGrants.permissionsOf(pathId(req.params)));

  app.post('/users/:id/permissions/', {
    schema: { tags, params: IdParams, body: UserPermissionsBody, response: { 200: UserPermissionsAddedResponse } }, onRequest,
  }, async (req) => userGrants.addPermissions(await actorOf(req), pathId(req.params), req.body.permission_codes));

  app.delete('/users/:id/permissions/', {
    schema: { tags, params: IdParams, body: UserPermissionsBody, response: { 200: UserPermissionsRemovedResponse } }, onRequest,
  }, async (req) => userGrants.removePermissions(await actorOf(req), pathId(req.params), req.body.permission_codes));
}
