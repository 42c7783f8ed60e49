import type { FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.js';
import type { AgentContext } from '../../modules/agents/agent-context.js';

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

/** The agent context of a request authenticated with `AgentBearer`. */
export function agentOf(req: FastifyRequest): AgentContext {
  if (!req.agent) throw new AppError('AGENT_TOKEN_INVALID');
  return req.agent;
}

export type { AgentContext };
export type { AgentRuleOptions } from '../../modules/agents/agent-policy.js';
