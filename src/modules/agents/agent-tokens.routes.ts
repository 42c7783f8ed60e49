import type { FastifyRequest } from 'fastify';
import { PageOf, toPage } from '../../core/pagination.js';
import { pathId } from '../../core/fields.js';
import { userAuthOf } from '../../http/guards/index.js';
import { actorMetaOf } from '../../http/request-meta.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { EmptyBody } from '../admin/admin-users.schemas.js';
import {
  AgentTokenActionResponse, AgentTokenCreatedResponse, AgentTokenListQuery, AgentTokenParams, AgentTokenRecord,
  CreateAgentTokenBody, RevokeAllResponse, UpdateAgentTokenBody,
} from './agent-tokens.schemas.js';
import type { TokenOwner } from './agent-tokens.service.js';

const tags = ['agents'];

/** The signed-in user managing their own agent tokens, with what an audit event records about the request. */
export function tokenOwnerOf(req: FastifyRequest): TokenOwner {
  const { user, claims } = userAuthOf(req);
  return { id: user.id, is_superuser: user.is_superuser, meta: actorMetaOf(req), session: { id: Number(claims.sid), issuedAt: claims.iat } };
}

/**
 * docs/agents.md "Tokens": a user's own agent tokens (user bearer with full scope; closed to agents). Another user's
 * token answers 404 NOT_FOUND.
 */
export default async function agentTokenRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { agentTokens } = container.services;
  const onRequest = [guards.feature('AIRS_ENABLED'), guards.user()];

  app.post('/ai/tokens/', {
    schema: { tags, body: CreateAgentTokenBody, response: { 201: AgentTokenCreatedResponse } }, onRequest,
    preHandler: [guards.recentAuth()],
  }, async (req, reply) => reply.code(201).send(await agentTokens.create(tokenOwnerOf(req), req.body)));

  app.get('/ai/tokens/', {
    schema: { tags, querystring: AgentTokenListQuery, response: { 200: PageOf(AgentTokenRecord) } }, onRequest,
  }, async (req) => {
    const { results, count, page } = await agentTokens.list(tokenOwnerOf(req), req.query);
    return toPage(results, count, page, req.url);
  });

  app.post('/ai/tokens/revoke-all/', {
    schema: { tags, body: EmptyBody, response: { 200: RevokeAllResponse } }, onRequest,
  }, async (req) => agentTokens.revokeAll(tokenOwnerOf(req)));

  app.get('/ai/tokens/:id/', {
    schema: { tags, params: AgentTokenParams, response: { 200: AgentTokenRecord } }, onRequest,
  }, async (req) => agentTokens.get(tokenOwnerOf(req), pathId(req.params)));

  app.put('/ai/tokens/:id/', {
    schema: { tags, params: AgentTokenParams, body: UpdateAgentTokenBody, response: { 200: AgentTokenRecord } }, onRequest,
  }, async (req) => agentTokens.update(tokenOwnerOf(req), pathId(req.params), req.body));

  app.delete('/ai/tokens/:id/', {
    schema: { tags, params: AgentTokenParams, response: { 200: AgentTokenActionResponse } }, onRequest,
  }, async (req) => agentTokens.revoke(tokenOwnerOf(req), pathId(req.params)));

  for (const action of ['revoke', 'suspend', 'resume'] as const) {
    app.post(`/ai/tokens/:id/${action}/`, {
      schema: { tags, params: AgentTokenParams, body: EmptyBody, response: { 200: AgentTokenActionResponse } }, onRequest,
    }, async (req) => agentTokens[action](tokenOwnerOf(req), pathId(req.params)));
  }
}
