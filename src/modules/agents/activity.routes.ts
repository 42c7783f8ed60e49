import { pathId } from '../../core/fields.js';
import { PageOf, toPage } from '../../core/pagination.js';
import { authOf } from '../../http/guards/index.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { AgentActivityQuery, AgentActivityRow } from './activity.schemas.js';
import { AgentTokenParams } from './agent-tokens.schemas.js';

/**
 * docs/agents.md "Trace and activity": the requests one of the user's agent tokens made (user bearer, full scope;
 * closed to agents), paged, newest first, filtered by `prompt_trace_id`. Another user's token answers 404 NOT_FOUND.
 */
export default async function agentActivityRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { agentActivity } = container.services;

  app.get('/ai/tokens/:id/activity/', {
    schema: { tags: ['agents'], params: AgentTokenParams, querystring: AgentActivityQuery, response: { 200: PageOf(AgentActivityRow) } },
    onRequest: [guards.feature('AIRS_ENABLED'), guards.user()],
  }, async (req) => {
    const { results, count, page } = await agentActivity.list(authOf(req).user.id, pathId(req.params), req.query);
    return toPage(results, count, page, req.url);
  });
}
