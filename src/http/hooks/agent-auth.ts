import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config/settings.js';
import { AppError } from '../../core/errors.js';
import type { AgentAuthService } from '../../modules/agents/agent-auth.service.js';
import type { AuthorizeService } from '../../modules/agents/authorize.service.js';
import { traceIdOf, type AgentContext } from '../../modules/agents/agent-context.js';
import { canonicalPath, type ActionRequest, type GateOutcome, type PendingActionService } from '../../modules/agents/pending-actions.service.js';
import { sha256Hex } from '../../security/random.js';
import { acceptsAgents } from '../guards/agent.js';
import { requestedSlug } from '../guards/org.js';

const AGENT_SCHEME = /^AgentBearer(?: |$)/i;
const AGENT_RE = /^AgentBearer[ ]+(\S+)$/i;
/** An OAuth access token of the authorization server (a JWT) as `Bearer`. */
const OAUTH_BEARER = /^Bearer[ ]+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/i;

/**
 * `Authorization: AgentBearer <token>` on any API route (docs/decisions.md "Agents"): the token is authenticated and the
 * request counted before the route's own guards run, so a route closed to agents — one whose user guard does not
 * accept them, or that has none — answers 403 AGENT_NOT_ALLOWED (a denial, for the anomaly breaker) whatever the
 * token was granted. Register after application authentication and before the routes.
 */
export function registerAgentAuth(app: FastifyInstance, config: Config, agents: AgentAuthService,
  approvals: PendingActionService, oauthGrants: Pick<AuthorizeService, 'grantTokenIfOauth'>): void {
  if (!config.AIRS_ENABLED) return;
  app.addHook('onRoute', (route) => {
    if (acceptsAgents(route.onRequest)) route.config = { ...route.config, agents: true };
  });
  // A callback hook: requests without an agent token pay one test.
  app.addHook('onRequest', (req, _reply, done) => {
    const header = req.headers.authorization;
    if (header === undefined) return done();
    if (!AGENT_SCHEME.test(header)) return usageOfGrant(req, header, done);
    // ai/authorize/ authenticates the token itself and answers its own decision shape.
    if (req.routeOptions.config.agentAuthentication === 'route') return done();
    const token = AGENT_RE.exec(header)?.[1];
    if (!token) return done(new AppError('AGENT_TOKEN_INVALID'));
    const traceId = traceIdOf(req.headers['x-prompt-trace-id']);
    // heartbeat/ and report-usage/: the token's own bookkeeping, neither counted nor held to the breakers.
    const authenticated = req.routeOptions.config.agentAuthentication === 'usage'
      ? agents.authenticateOwn(token, traceId) : agents.authenticate(token, traceId);
    authenticated.then(async (agent) => {
      req.agent = agent;
      if (req.routeOptions.config.agents !== true) await agents.deny(agent, 'AGENT_NOT_ALLOWED');
    }).then(() => done(), done);
  });
  /**
   * heartbeat/ and report-usage/ of an OAuth grant's delegation (docs/oauth.md "Grants and ai/authorize/"): the resource
   * server that served the call forwards the grant's access token as `Bearer`. Anything else (a person's access token)
   * is left to the route's guards.
   */
  function usageOfGrant(req: FastifyRequest, header: string, done: (err?: Error) => void) {
    if (req.routeOptions.config.agentAuthentication !== 'usage') return done();
    const token = OAUTH_BEARER.exec(header)?.[1];
    if (!token) return done();
    oauthGrants.grantTokenIfOauth(token).then(async (oauth) => {
      if (oauth === null) return;
      const traceId = traceIdOf(req.headers['x-prompt-trace-id']);
      // A child of the token-exchange grant is an agent token presented as its JWT (docs/agents.md "Delegation").
      req.agent = oauth.delegated ? await agents.authenticateOwnExchanged(oauth.jti, traceId)
        : await agents.authenticateOwnGrant(sha256Hex(oauth.jti), traceId);
    }).then(() => done(), done);
  }
  // A service that refused the call for going beyond the token's grant: counted as a denial, as a guard's would be.
  app.addHook('onError', (req, _reply, err, done) => {
    const agent = req.agent;
    if (!agent || !(err instanceof AppError) || err.code !== 'AGENT_PERMISSION_DENIED') return done();
    agents.recordDenied(agent).then(() => done(), () => done());
  });
  // After every guard: a call that needs approval answers 202 until an approved confirmation is replayed (the route
  // then runs once).
  app.addHook('preHandler', (req, reply, done) => {
    const agent = req.agent;
    if (!agent || !agent.approval || (agent.approval.when && !agent.approval.when(req.body))) return done();
    approvals.gate(actionRequestOf(req, agent)).then((outcome: GateOutcome) => {
      // Answered here: the handler does not run (a callback hook that replies does not call done).
      if (outcome.kind === 'pending') reply.code(202).send(outcome.body);
      else done();
    }, done);
  });
  // An allowed request ends a run of denials once it is answered without a refusal: one its guards let through but
  // its service refused (counted above) must not reset the count, even when requests run in parallel.
  app.addHook('onSend', (req, reply, _payload, done) => {
    const agent = req.agent;
    // The token's own bookkeeping does not end a run of denials.
    if (!agent || reply.statusCode >= 400 || req.routeOptions.config.agentAuthentication === 'usage') return done();
    agents.settle(agent).then(() => done(), done);
  });
}
const EMPTY_BODY_SHA256 = sha256Hex('');

/** What an approval is bound to (docs/decisions.md "Agents"): method, path with sorted query, X-Org-Slug and the raw body. */
function actionRequestOf(req: FastifyRequest, agent: AgentContext): ActionRequest {
  const confirmation = req.headers['x-action-confirmation'];
  return {
    agent,
    permission: agent.approval?.permission ?? null,
    method: req.method.toUpperCase(),
    path: canonicalPath(req.url),
    orgSlug: requestedSlug(req) ?? null,
    bodySha256: agent.bodySha256 ?? EMPTY_BODY_SHA256,
    payload: req.body,
    confirmation: Array.isArray(confirmation) ? confirmation.join(', ') : confirmation,
  };
}
