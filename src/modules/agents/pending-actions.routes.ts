import type { FastifyInstance } from 'fastify';
import { pathId } from '../../core/fields.js';
import { PageOf, toPage } from '../../core/pagination.js';
import type { RouteDeps } from '../../http/route-plugin.js';
import { EmptyBody } from '../admin/admin-users.schemas.js';
import { tokenOwnerOf } from './agent-tokens.routes.js';
import {
  ConfirmationTokenBody, PendingActionDecisionResponse, PendingActionListQuery, PendingActionParams, PendingActionRow,
  type ConfirmationTokenInput, type PendingActionListInput,
} from './pending-actions.schemas.js';

const tags = ['agents'];

/**
 * SPEC.md "AI agent endpoints" and DECISIONS.md "Agents", human approval: the delegating user lists the actions their
 * agents wait on and decides them, by id (SPEC.md) or by confirmation token (SDK-COMPAT.md rule 7). User bearer with
 * full scope; closed to agents, which must never approve their own actions.
 */
export default async function pendingActionRoutes(app: FastifyInstance, { container, guards }: RouteDeps) {
  const { pendingActions } = container.services;
  const onRequest = [guards.feature('AIRS_ENABLED'), guards.user()];

  app.get('/ai/pending-actions/', {
    schema: { tags, querystring: PendingActionListQuery, response: { 200: PageOf(PendingActionRow) } }, onRequest,
  }, async (req) => {
    const { results, count, page } = await pendingActions.list(tokenOwnerOf(req), req.query as PendingActionListInput);
    return toPage(results, count, page, req.url);
  });

  app.post('/ai/pending-actions/confirm/', {
    schema: { tags, body: ConfirmationTokenBody, response: { 200: PendingActionDecisionResponse } }, onRequest,
  }, async (req) => pendingActions.confirm(tokenOwnerOf(req), req.body as ConfirmationTokenInput));

  app.post('/ai/pending-actions/deny/', {
    schema: { tags, body: ConfirmationTokenBody, response: { 200: PendingActionDecisionResponse } }, onRequest,
  }, async (req) => pendingActions.deny(tokenOwnerOf(req), req.body as ConfirmationTokenInput));

  for (const action of ['approve', 'reject'] as const) {
    app.post(`/ai/pending-actions/:id/${action}/`, {
      schema: { tags, params: PendingActionParams, body: EmptyBody, response: { 200: PendingActionDecisionResponse } }, onRequest,
    }, async (req) => pendingActions[action](tokenOwnerOf(req), pathId(req.params)));
  }
}
