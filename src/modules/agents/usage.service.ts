import { toIso, type Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { AgentAuthService } from './agent-auth.service.js';
import type { AgentContext } from './agent-context.js';
import { usd } from './agent-tokens.schemas.js';
import type { ReportUsageInput } from './usage.schemas.js';
import * as repo from './usage.repo.js';

type Deps = { db: Db; clock: Clock; agentAuth: AgentAuthService };

/**
 * docs/decisions.md "Agents": an agent's own bookkeeping — `heartbeat/` and `report-usage/`, with the `AgentBearer` of the
 * token named in the path — and the agent-heartbeats job that applies the dead man's switch and expiry to idle tokens.
 */
export function createUsageService({ db, clock, agentAuth }: Deps) {
  const suspended = agentAuth.recordSuspension;

  /** Only the token itself may report for itself (403 AGENT_TOKEN_MISMATCH), whether or not the other one exists. */
  function ownToken(agent: AgentContext, tokenId: number) {
    if (agent.tokenId === tokenId) return;
    agent.decision = 'deny';
    throw new AppError('AGENT_TOKEN_MISMATCH');
  }

  async function heartbeat(agent: AgentContext, tokenId: number) {
    ownToken(agent, tokenId);
    const row = await repo.beat(db, agent.tokenId, clock.now());
    if (!row) throw await agentAuth.refuseOwn(agent.tokenId);
    if (row.status !== 'ACTIVE') {
      // The beat came after the deadline: the switch has tripped.
      await suspended({ id: agent.tokenId, user_id: agent.user.id, agent_id: agent.agentId }, 'HEARTBEAT_MISSING');
      agent.decision = 'deny';
      throw new AppError('AGENT_TOKEN_SUSPENDED', { extra: { reason: row.suspended_reason } });
    }
    return { status: 'ok' as const, last_heartbeat_at: toIso(row.last_heartbeat_at)! };
  }

  /**
   * The cost is recorded whatever the token's standing (it was incurred), unless the token is revoked or expired.
   * While the spend is at or above the budget the answer is 403 BUDGET_EXCEEDED, the token suspended.
   */
  async function reportUsage(agent: AgentContext, tokenId: number, input: ReportUsageInput) {
    ownToken(agent, tokenId);
    // The schema bounds the value; this keeps a non-finite number from ever reaching the statement.
    if (!Number.isFinite(input.cost_usd) || input.cost_usd < 0) throw AppError.validation({ cost_usd: ['Must be a finite number, at least 0.'] });
    const found = await repo.addUsage(db, agent.tokenId, {
      // The shortest text that reads back as the number sent: 0.1 is added as the decimal 0.1, not as its binary neighbour.
      cost: String(input.cost_usd), promptTokens: input.prompt_tokens ?? 0, completionTokens: input.completion_tokens ?? 0,
    }, clock.now());
    if (!found) throw await agentAuth.refuseOwn(agent.tokenId);
    const row = found.own;
    for (const tripped of found.chain.filter((r) => r.tripped)) await suspended(tripped, 'BUDGET_EXCEEDED');
    const spend = usd(row.spend_usd)!;
    const budget = usd(row.budget_limit_usd);
    // A budget reached anywhere along a delegation chain stops the token (its ancestor holds it).
    if (found.chain.some((r) => r.over_budget)) {
      throw new AppError('BUDGET_EXCEEDED', { extra: { status: 'suspended', spend_usd: spend, budget_limit_usd: budget } });
    }
    return { status: 'ok' as const, spend_usd: spend, budget_limit_usd: budget, remaining_usd: usd(row.remaining_usd) };
  }

  /** The agent-heartbeats job: expires tokens past their time, then suspends those whose heartbeat is overdue. */
  async function sweep() {
    const now = clock.now();
    const expired = await repo.expirePastDue(db, now);
    const stale = await repo.suspendStaleHeartbeats(db, now);
    for (const token of stale) await suspended(token, 'HEARTBEAT_MISSING');
    return { expired, suspended: stale.length };
  }

  return { heartbeat, reportUsage, sweep };
}

export type UsageService = ReturnType<typeof createUsageService>;
