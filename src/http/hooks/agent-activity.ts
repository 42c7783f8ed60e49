import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config/settings.js';
import { refusedTokenOf, type RefusedToken } from '../../modules/agents/agent-auth.service.js';
import { traceIdOf } from '../../modules/agents/agent-context.js';
import type { AgentAction, AgentActivityService } from '../../modules/agents/activity.service.js';
import { actorMetaOf } from '../request-meta.js';

/**
 * docs/decisions.md "Agents": an `agent_action` audit row for every agent request, allowed or not — including those
 * refused at authentication when the token is known (suspended, expired, revoked). Rows are queued once the answer
 * has been sent (the request pays no round trip for them) and written when the server closes at the latest.
 * Register next to the agent authentication hook, before the routes.
 */
export function registerAgentActivity(app: FastifyInstance, config: Config, activity: AgentActivityService): void {
  if (!config.AIRS_ENABLED) return;
  /** Requests refused before an agent context existed, with the token they named. */
  const refused = new WeakMap<FastifyRequest, RefusedToken>();

  app.addHook('onError', (req, _reply, err, done) => {
    const token = req.agent ? undefined : refusedTokenOf(err);
    if (token) refused.set(req, token);
    done();
  });

  app.addHook('onResponse', (req, reply, done) => {
    const action = actionOf(req, reply, refused.get(req));
    if (action) activity.record(action);
    done();
  });

  app.addHook('onClose', (_instance, done) => {
    activity.flush().then(() => done(), done);
  });
}

/** The row of an agent request as it ended, or nothing for a request that named no known agent token. */
function actionOf(req: FastifyRequest, reply: FastifyReply, refusal: RefusedToken | undefined): AgentAction | undefined {
  const agent = req.agent;
  const status = reply.statusCode;
  const token = agent ? { tokenId: agent.tokenId, rootTokenId: agent.chain[0]?.id, userId: agent.user.id, agentId: agent.agentId } : refusal;
  if (!token) return undefined;
  return {
    ...token,
    method: req.method.toUpperCase(),
    path: req.url.split('?')[0] ?? req.url,
    permission: agent?.permission ?? null,
    // No guard reached a decision (the request failed before them): the answer says which way it went.
    decision: agent?.decision ?? (status < 400 ? 'allow' : 'deny'),
    status,
    traceId: agent ? agent.traceId : traceIdOf(req.headers['x-prompt-trace-id']),
    meta: actorMetaOf(req),
  };
}
