import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config/settings.js';
import { AppError } from '../../core/errors.js';
import type { AgentAuthService } from '../../modules/agents/agent-auth.service.js';
import { traceIdOf } from '../../modules/agents/agent-context.js';
import { acceptsAgents } from '../guards/agent.js';

const AGENT_SCHEME = /^AgentBearer /i;
const AGENT_RE = /^AgentBearer[ ]+(\S+)$/i;

/**
 * `Authorization: AgentBearer <token>` on any API route (DECISIONS.md "Agents"): the token is authenticated and the
 * request counted before the route's own guards run, so a route closed to agents — one whose user guard does not
 * accept them, or that has none — answers 403 AGENT_NOT_ALLOWED (a denial, for the anomaly breaker) whatever the
 * token was granted. Register after application authentication and before the routes.
 */
export function registerAgentAuth(app: FastifyInstance, config: Config, agents: AgentAuthService): void {
  if (!config.AIRS_ENABLED) return;
  app.addHook('onRoute', (route) => {
    if (acceptsAgents(route.onRequest)) route.config = { ...route.config, agents: true };
  });
  // A callback hook: requests without an agent token pay one test.
  app.addHook('onRequest', (req, _reply, done) => {
    const header = req.headers.authorization;
    if (header === undefined || !AGENT_SCHEME.test(header)) return done();
    // ai/authorize/ authenticates the token itself and answers its own decision shape.
    if (req.routeOptions.config.agentAuthentication === 'route') return done();
    const token = AGENT_RE.exec(header)?.[1];
    if (!token) return done(new AppError('AGENT_TOKEN_INVALID'));
    agents.authenticate(token, traceIdOf(req.headers['x-prompt-trace-id'])).then(async (agent) => {
      req.agent = agent;
      if (req.routeOptions.config.agents !== true) await agents.deny(agent, 'AGENT_NOT_ALLOWED');
    }).then(() => done(), done);
  });
  // After every guard: what the guards decided takes effect.
  app.addHook('preHandler', (req, _reply, done) => {
    const agent = req.agent;
    if (!agent) return done();
    agents.settle(agent).then(() => done(), done);
  });
}
