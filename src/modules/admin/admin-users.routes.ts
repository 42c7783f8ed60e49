import { PageOf, toPage } from '../../core/pagination.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { MessageResponse } from '../../http/schema.js';
import { accessControl } from '../rbac/access.js';
import { IdParams, pathId } from '../../core/fields.js';
import {
  AdminUserActionResponse, AdminUserDetail, AdminUserListQuery, AdminUserPatchBody, AdminUserSummary,
  AdminUserUpdatedResponse, BanBody, EmptyBody, LockBody,
} from './admin-users.schemas.js';

const tags = ['admin: users'];

/** Fields of an account whose change through an agent always waits for its delegating user's approval (docs/agents.md). */
const STANDING_FIELDS = ['is_superuser', 'is_staff', 'is_active', 'must_change_password'] as const;
const changesStanding = (body: unknown) =>
  typeof body === 'object' && body !== null && STANDING_FIELDS.some((f) => (body as Record<string, unknown>)[f] !== undefined);

/** Accounts administered (docs/access-control.md "Administration"): users.view to read, users.manage to change. */
export default async function adminUserRoutes(app: TypedApp, deps: RouteDeps) {
  const { adminUsers } = deps.container.services;
  const { requires, actorOf } = accessControl(deps);
  const view = requires('users.view');
  const manage = requires('users.manage');
  // Through an agent, deleting an account, and changing its privileges, its activation, a forced password change, a lock,
  // a ban or its second factor, always wait for the delegating user's approval (docs/agents.md).
  const manageWithApproval = requires('users.manage', { approval: true });
  const manageStanding = requires('users.manage', { approval: changesStanding });

  app.get('/admin/users/', {
    schema: { tags, querystring: AdminUserListQuery, response: { 200: PageOf(AdminUserSummary) } }, onRequest: view,
  }, async (req) => {
    const { results, count, page } = await adminUsers.list(req.query);
    return toPage(results, count, page, req.url);
  });

  app.get('/admin/users/:id/', { schema: { tags, params: IdParams, response: { 200: AdminUserDetail } }, onRequest: view },
    async (req) => adminUsers.get(pathId(req.params)));

  app.patch('/admin/users/:id/', {
    schema: { tags, params: IdParams, body: AdminUserPatchBody, response: { 200: AdminUserUpdatedResponse } }, onRequest: manageStanding,
  }, async (req) => adminUsers.update(await actorOf(req), pathId(req.params), req.body));

  app.delete('/admin/users/:id/', { schema: { tags, params: IdParams, response: { 200: MessageResponse } }, onRequest: manageWithApproval },
    async (req) => adminUsers.remove(await actorOf(req), pathId(req.params)));

  app.post('/admin/users/:id/ban/', {
    schema: { tags, params: IdParams, body: BanBody, response: { 200: AdminUserActionResponse } }, onRequest: manageWithApproval,
  }, async (req) => adminUsers.ban(await actorOf(req), pathId(req.params), req.body));

  app.post('/admin/users/:id/unban/', {
    schema: { tags, params: IdParams, body: EmptyBody, response: { 200: AdminUserActionResponse } }, onRequest: manageWithApproval,
  }, async (req) => adminUsers.unban(await actorOf(req), pathId(req.params)));

  app.post('/admin/users/:id/lock/', {
    schema: { tags, params: IdParams, body: LockBody, response: { 200: AdminUserActionResponse } }, onRequest: manageWithApproval,
  }, async (req) => adminUsers.lock(await actorOf(req), pathId(req.params), req.body));

  app.post('/admin/users/:id/unlock/', {
    schema: { tags, params: IdParams, body: EmptyBody, response: { 200: AdminUserActionResponse } }, onRequest: manageWithApproval,
  }, async (req) => adminUsers.unlock(await actorOf(req), pathId(req.params)));

  // A second factor removed is a privilege of the account changed: through an agent it waits for approval too.
  app.post('/admin/users/:id/reset-2fa/', {
    schema: { tags, params: IdParams, body: EmptyBody, response: { 200: AdminUserActionResponse } }, onRequest: manageWithApproval,
  }, async (req) => adminUsers.resetTwoFactor(await actorOf(req), pathId(req.params)));
}
