import { pathId } from '../../core/fields.js';
import { agentOf, agentOnly } from '../../http/guards/index.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { AgentTokenParams, DelegatedTokenResponse, DelegateAgentTokenBody } from './agent-tokens.schemas.js';

const tags = ['agents'];

/**
 * docs/agents.md "Delegation": a token with `can_delegate` creates a narrower child for a sub-agent, with its own
 * `AgentBearer` (another token's: 403 AGENT_TOKEN_MISMATCH). The request is the parent's: counted, on its breakers.
 */
export default async function childTokenRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { childTokens } = container.services;

  app.post('/ai/tokens/:id/delegate/', {
    schema: {
      tags, params: AgentTokenParams, body: DelegateAgentTokenBody, response: { 201: DelegatedTokenResponse },
      description: 'The creation body of ai/tokens/; the child only narrows its parent (permissions, expiry, budget from '
        + 'what the parent has left, can_delegate), acts in its organization, and is at most SVC_AIRS_MAX_DELEGATION_DEPTH deep.',
    },
    onRequest: [guards.feature('AIRS_ENABLED'), agentOnly, guards.user({ agents: true })],
  }, async (req, reply) => reply.code(201).send(await childTokens.delegate(agentOf(req), pathId(req.params), req.body)));
}
