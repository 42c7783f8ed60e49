import { userAuthOf } from '../../http/guards/index.js';
import { createRefreshCookie } from '../../http/refresh-cookie.js';
import { metaOf } from '../../http/request-meta.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import {
  CancelDeletionBody, CancelDeletionResponse, ConfirmDeletionBody, ConfirmDeletionResponse, DeletionStatusResponse,
  RequestDeletionBody, RequestDeletionResponse,
} from './deletion.schemas.js';

const tags = ['account'];

/**
 * docs/privacy.md "The lifecycle". Closed to agents (docs/agents.md "Agent requests"). During the grace period
 * the account signs in with a `deletion_pending` token, accepted on cancel and status (and on export and logout).
 */
export default async function deletionRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { deletion } = container.services;
  const cookie = createRefreshCookie(container.config);
  const fullOnly = guards.user();
  const duringGrace = guards.user({ scopes: ['full', 'deletion_pending'] });
  const proofLimit = guards.rateLimit('password_proof', [{ max: 5, per: 'minute' }]);

  app.post('/request-account-deletion/', {
    schema: { tags, body: RequestDeletionBody, response: { 201: RequestDeletionResponse } },
    onRequest: [proofLimit, fullOnly],
  }, async (req, reply) => {
    reply.code(201);
    return deletion.request(userAuthOf(req), req.body, metaOf(req));
  });

  app.post('/confirm-account-deletion/', {
    schema: { tags, body: ConfirmDeletionBody, response: { 200: ConfirmDeletionResponse } },
    onRequest: [guards.rateLimit('deletion_confirm', [{ max: 10, per: 'minute' }])],
  }, async (req) => deletion.confirm(req.body.token, metaOf(req)));

  app.post('/cancel-account-deletion/', {
    schema: { tags, body: CancelDeletionBody, response: { 200: CancelDeletionResponse } },
    onRequest: [proofLimit, duringGrace],
  }, async (req, reply) => cookie.withCookie(reply,
    await deletion.cancel(userAuthOf(req), req.body.password, metaOf(req))));

  app.get('/account-deletion-status/', {
    schema: { tags, response: { 200: DeletionStatusResponse } },
    onRequest: [duringGrace],
  }, async (req) => deletion.status(userAuthOf(req).user.id));
}
