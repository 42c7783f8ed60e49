import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { pageRequest } from '../../core/pagination.js';
import type { Db } from '../../db/database.js';
import type { RequestMeta } from '../../core/request-meta.js';
import { AGENT_ACTION_EVENT, toActivityRow, type AgentActionDetails, type AgentActivityInput } from './activity.schemas.js';
import type { AgentDecision } from './agent-context.js';
import * as repo from './activity.repo.js';
import type { TrailWriter } from './trail-writer.js';

type Deps = { db: Db; clock: Clock; writer: TrailWriter };

/** An agent request as it ended, for its `agent_action` row. */
export interface AgentAction {
  tokenId: number;
  /** The root of the token's tree when the request read its chain; looked up by the writer otherwise. */
  rootTokenId?: number;
  /** The delegating user. */
  userId: number;
  agentId: string;
  method: string;
  /** The path without its query string (a query may carry personal data). */
  path: string;
  permission: string | null;
  decision: AgentDecision;
  status: number;
  traceId: string | null;
  meta: RequestMeta;
}

/**
 * docs/decisions.md "Agents": every agent request, allowed or not, leaves an `agent_action` audit row. They are written
 * whatever SVC_AUDIT_LOGGING_ENABLED says (they are the agent's trail, read by its owner), with severity info, off the
 * request path through the batching writer; the readers wait for what is queued.
 */
export function createAgentActivityService({ db, clock, writer }: Deps) {
  function record(action: AgentAction): void {
    const details: AgentActionDetails = {
      token_id: action.tokenId, agent_id: action.agentId, method: action.method, path: action.path,
      permission: action.permission, decision: action.decision, status: action.status, prompt_trace_id: action.traceId,
    };
    writer.enqueue({
      audit: {
        event_type: AGENT_ACTION_EVENT, severity: 'info', user_id: action.userId, actor_id: null,
        application_id: action.meta.applicationId, ip_address: action.meta.ip, user_agent: action.meta.userAgent,
        request_id: action.meta.requestId, trace_id: action.traceId, agent_token_id: action.tokenId, details: JSON.stringify(details),
        created_at: clock.now(),
      },
      tokenId: action.tokenId, root: action.rootTokenId ?? null, data: { ...details },
    });
  }

  /** GET ai/tokens/<id>/activity/: the owner's view of one token's requests, newest first. */
  async function list(ownerId: number, tokenId: number, query: AgentActivityInput) {
    if (!(await repo.isOwnToken(db, ownerId, tokenId))) throw new AppError('NOT_FOUND');
    await writer.flush();
    const page = pageRequest(query);
    const { rows, count } = await repo.listActions(db, tokenId, query.prompt_trace_id, { limit: page.pageSize, offset: page.offset });
    return { results: rows.map(toActivityRow), count, page };
  }

  return { record, list, flush: writer.flush };
}

export type AgentActivityService = ReturnType<typeof createAgentActivityService>;
