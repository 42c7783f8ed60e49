import type { FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.js';
/** User guards made with `{ agents: true }`: the routes they sit on accept `AgentBearer` (docs/agents.md). */
const agentGuards = new WeakSet<object>();

export function markAcceptsAgents<T extends object>(guard: T): T {
  agentGuards.add(guard);
  return guard;
}

/** Whether a route's declared hooks include a user guard that accepts agents. */
export function acceptsAgents(hooks: unknown): boolean {
  return [hooks].flat().some((hook) => typeof hook === 'function' && agentGuards.has(hook));
}

/** A route of the agent's own (its bookkeeping, its delegation): a user bearer (or nothing) is not an agent token. */
export async function agentOnly(req: FastifyRequest): Promise<void> {
  if (req.agent) return;
  throw new AppError(req.headers.authorization === undefined ? 'UNAUTHORIZED' : 'AGENT_TOKEN_INVALID');
}

export type { AgentRuleOptions } from '../../modules/agents/agent-policy.js';
