import { IdParams, pathId } from '../../core/fields.js';
import { PageOf, toPage } from '../../core/pagination.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { EmptyBody } from '../admin/admin-users.schemas.js';
import { accessControl } from '../rbac/access.js';
import { DeletionRequestQuery, ProcessBody, ProcessExpiredResponse, ProcessResponse } from './deletion-admin.schemas.js';
import { DeletionRequest } from './deletion-request.schema.js';

const tags = ['admin: deletion requests'];

/**
 * docs/privacy.md "Deletion requests for administrators": listed (gdpr.view), read (gdpr.admin) and processed
 * (gdpr.process).
 */
export default async function deletionAdminRoutes(app: TypedApp, deps: RouteDeps) {
  const { deletionAdmin } = deps.container.services;
  const { requires, actorOf } = accessControl(deps);
  // Processing a deletion always waits for the delegating user's approval (docs/agents.md "Agent requests").
  const processWithApproval = requires('gdpr.process', { approval: true });

  app.get('/admin/deletion-requests/', {
    schema: { tags, querystring: DeletionRequestQuery, response: { 200: PageOf(DeletionRequest) } }, onRequest: requires('gdpr.view'),
  }, async (req) => {
    const { results, count, page } = await deletionAdmin.list(req.query);
    return toPage(results, count, page, req.url);
  });

  app.get('/admin/deletion-requests/:id/', {
    schema: { tags, params: IdParams, response: { 200: DeletionRequest } }, onRequest: requires('gdpr.admin'),
  }, async (req) => deletionAdmin.get(pathId(req.params)));

  app.post('/admin/deletion-requests/:id/process/', {
    schema: { tags, params: IdParams, body: ProcessBody, response: { 200: ProcessResponse } }, onRequest: processWithApproval,
  }, async (req) => deletionAdmin.complete(await actorOf(req), pathId(req.params), req.body));

  app.post('/admin/deletion-requests/process-expired/', {
    schema: { tags, body: EmptyBody, response: { 200: ProcessExpiredResponse } }, onRequest: processWithApproval,
  }, async (req) => deletionAdmin.processExpired(await actorOf(req)));
}
