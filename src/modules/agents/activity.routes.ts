import { Readable } from 'node:stream';
import { Type } from 'typebox';
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
  const { agentActivity, agentTrail } = container.services;

  app.get('/ai/tokens/:id/activity/', {
    schema: { tags: ['agents'], params: AgentTokenParams, querystring: AgentActivityQuery, response: { 200: PageOf(AgentActivityRow) } },
    onRequest: [guards.feature('AIRS_ENABLED'), guards.user()],
  }, async (req) => {
    const { results, count, page } = await agentActivity.list(authOf(req).user.id, pathId(req.params), req.query);
    return toPage(results, count, page, req.url);
  });

  /**
   * docs/agents.md "The trail": the whole chain of the token's root as NDJSON, one row per line in `seq` order, the last
   * line a checkpoint signed with a key of the JWKS. Streamed: a long chain is never held in memory.
   */
  app.get('/ai/tokens/:id/activity/export/', {
    schema: {
      tags: ['agents'], params: AgentTokenParams,
      response: { 200: Type.Unsafe<Readable>({ type: 'string', description: 'application/x-ndjson: the trail rows, then `{"type": "checkpoint", "jws": …}`' }) },
      produces: ['application/x-ndjson'],
    },
    onRequest: [guards.feature('AIRS_ENABLED'), guards.user()],
  }, async (req, reply) => {
    const lines = await agentTrail.exportChain(authOf(req).user.id, pathId(req.params));
    return reply.type('application/x-ndjson; charset=utf-8').header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="agent-trail-${pathId(req.params)}.ndjson"`).send(Readable.from(lines));
  });
}
