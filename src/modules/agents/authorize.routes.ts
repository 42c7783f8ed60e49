import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.js';
import { errorHandler } from '../../http/error-handler.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { agentOf } from '../../http/guards/index.js';
import { traceIdOf } from './agent-context.js';
import { DENIALS, type ForwardedCredential } from './authorize.service.js';
import { AuthorizeAllowResponse, AuthorizeBody, AuthorizePendingResponse } from './authorize.schemas.js';

const FORWARDED_RE = /^(AgentBearer|Bearer)[ ]+(\S+)$/i;

/**
 * The credential the integrator forwards: the agent's token (`Authorization: AgentBearer <token>`) or an OAuth access
 * token of the authorization server (`Authorization: Bearer <token>`), if any.
 */
function forwardedCredential(req: FastifyRequest): ForwardedCredential {
  const match = FORWARDED_RE.exec(req.headers.authorization ?? '');
  if (!match) return undefined;
  return { scheme: match[1]!.toLowerCase() === 'bearer' ? 'oauth' : 'agent', token: match[2]! };
}

/**
 * A denial keeps the catalogue's code and status (401 for an unknown, expired or revoked token, 403 otherwise) and
 * gains `decision: "deny"`; other errors (the application's credentials, validation, an outage) answer as anywhere.
 * The `onError` hooks have seen the original error by then, so the agent's activity row still names its token.
 */
function answerDenials(err: unknown, req: FastifyRequest, reply: FastifyReply) {
  const denial = err instanceof AppError && DENIALS.has(err.code)
    ? new AppError(err.code, { ...err.opts, extra: { decision: 'deny', ...err.opts.extra } }) : err;
  return errorHandler(denial, req, reply);
}

const confirmationOf = (req: FastifyRequest) => {
  const header = req.headers['x-action-confirmation'];
  return typeof header === 'string' ? header : undefined;
};

/**
 * docs/agents.md "Protecting your own API": `POST ai/authorize/` with the application's credentials and the
 * agent's forwarded `AgentBearer`, answering the decision a built-in route would reach — 200 allow, 202 pending, or
 * 401/403 with `decision: "deny"`. The agent hook leaves the route alone (`agentAuthentication: 'route'`): it
 * authenticates the forwarded token here, once the body is valid, so that a malformed call is not counted.
 */
export default async function authorizeRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { authorize } = container.services;

  app.post('/ai/authorize/', {
    config: { agentAuthentication: 'route' },
    schema: {
      tags: ['agents'],
      description: 'Decides an agent\'s request to an integrator\'s own API. Denials answer 401 or 403 '
        + '`{decision: "deny", code, error}` (with `reason` for a suspended token).',
      body: AuthorizeBody,
      response: { 200: AuthorizeAllowResponse, 202: AuthorizePendingResponse },
    },
    errorHandler: answerDenials,
    onRequest: [guards.feature('AIRS_ENABLED')],
    preHandler: async (req) => {
      req.agent = await authorize.authenticate(req.body, forwardedCredential(req),
        traceIdOf(req.headers['x-prompt-trace-id']));
    },
  }, async (req, reply) => {
    const answer = await authorize.decide(agentOf(req), req.body, confirmationOf(req));
    return reply.code(answer.status).send(answer.body);
  });
}
