import { pathId } from '../../core/fields.js';
import { agentOf, agentOnly } from '../../http/guards/index.js';
import type { RouteDeps, TypedApp } from '../../http/route-plugin.js';
import { EmptyBody } from '../admin/admin-users.schemas.js';
import { AgentTokenParams } from './agent-tokens.schemas.js';
import { HeartbeatResponse, ReportUsageBody, UsageResponse } from './usage.schemas.js';

const tags = ['agents'];

/**
 * docs/agents.md "Usage and budget": `heartbeat/` and `report-usage/`, with the `AgentBearer` of
 * the token in the path (another token: 403 AGENT_TOKEN_MISMATCH). The agent hook authenticates these without
 * counting them or applying the breakers (`agentAuthentication: 'usage'`).
 */
export default async function usageRoutes(app: TypedApp, { container, guards }: RouteDeps) {
  const { agentUsage } = container.services;
  const onRequest = [guards.feature('AIRS_ENABLED'), agentOnly, guards.user({ agents: true })];
  const config = { agentAuthentication: 'usage' as const };

  app.post('/ai/tokens/:id/heartbeat/', {
    config,
    schema: {
      tags, params: AgentTokenParams, body: EmptyBody, response: { 200: HeartbeatResponse },
      description: 'The dead man\'s switch: a suspended token answers 403 AGENT_TOKEN_SUSPENDED with `reason`; a beat '
        + 'after the deadline suspends the token (HEARTBEAT_MISSING).',
    },
    onRequest,
  }, async (req) => agentUsage.heartbeat(agentOf(req), pathId(req.params)));

  app.post('/ai/tokens/:id/report-usage/', {
    config,
    schema: {
      tags, params: AgentTokenParams, body: ReportUsageBody, response: { 200: UsageResponse },
      description: 'Adds the cost (always recorded, also for a suspended token). While the spend is at or above the budget '
        + 'the answer is 403 `{error, code: "BUDGET_EXCEEDED", status: "suspended", spend_usd, budget_limit_usd}`.',
    },
    onRequest,
  }, async (req) => agentUsage.reportUsage(agentOf(req), pathId(req.params), req.body));
}
