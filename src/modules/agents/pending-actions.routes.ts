import { pathId } from '../../core/fields.js';
import { PageOf, toPage } from '../../core/pagination.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { EmptyBody } from '../admin/admin-users.schemas.js';
import { tokenOwnerOf } from './agent-tokens.routes.js';
import {
  ConfirmationTokenBody, PendingActionDecisionResponse, PendingActionListQuery, PendingActionParams, PendingActionRow,
} from './pending-actions.schemas.js';

const tags = ['agents'];

/**
 * docs/agents.md "Human approval": the delegating user lists the actions their agents wait on and decides them, by id
 * or by confirmation token (the Tenxyte SDK's form). User bearer with full scope; closed to agents, which must never
 * approve their own actions.
 */
export default async function pendingActionRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { pendingActions } = container.services;
  const onRequest = [guards.feature('AIRS_ENABLED'), guards.user()];

  app.get('/ai/pending-actions/', {
    schema: { tags, querystring: PendingActionListQuery, response: { 200: PageOf(PendingActionRow) } }, onRequest,
  }, async (req) => {
    const { results, count, page } = await pendingActions.list(tokenOwnerOf(req), req.query);
    return toPage(results, count, page, req.url);
  });

  app.post('/ai/pending-actions/confirm/', {
    schema: { tags, body: ConfirmationTokenBody, response: { 200: PendingActionDecisionResponse } }, onRequest,
  }, async (req) => pendingActions.confirm(tokenOwnerOf(req), req.body));

  app.post('/ai/pending-actions/deny/', {
    schema: { tags, body: ConfirmationTokenBody, response: { 200: PendingActionDecisionResponse } }, onRequest,
  }, async (req) => pendingActions.deny(tokenOwnerOf(req), req.body));

  for (const action of ['approve', 'reject'] as const) {
    app.post(`/ai/pending-actions/:id/${action}/`, {
      schema: { tags, params: PendingActionParams, body: EmptyBody, response: { 200: PendingActionDecisionResponse } }, onRequest,
    }, async (req) => pendingActions[action](tokenOwnerOf(req), pathId(req.params)));
  }
}
