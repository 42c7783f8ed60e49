import { AppError } from '../../core/errors.js';
import type { RequestMeta } from '../../core/request-meta.js';
import type { AgentActivityService } from './activity.service.js';
import { refusedTokenOf } from './agent-auth.service.js';
import { AGENT_TOKEN_PATTERN, traceIdOf, type AgentContext } from './agent-context.js';
import type { AuthorizeInput } from './authorize.schemas.js';
import { DENIALS, type AuthorizeService } from './authorize.service.js';
import type { AuthzenDecisionBody, AuthzenEvaluation, AuthzenEvaluations } from './authzen.schemas.js';

type Deps = { authorize: Pick<AuthorizeService, 'authenticate' | 'decide'>; activity: Pick<AgentActivityService, 'record'> };

/** The pending answer of a decision, as ai/authorize/ answers it (202). */
interface Pending { action_id: number; confirmation_token: string; expires_at: string }

/**
 * docs/agents.md "AuthZEN": the OpenID AuthZEN Authorization API 1.0 for applications' policy enforcement points, answering
 * from the decision `ai/authorize/` makes — the token authenticated and counted (breakers), the double check, the
 * chain, approval. Each evaluation is an agent request: in the token's activity, a denial counted as one.
 */
export function createAuthzenService({ authorize, activity }: Deps) {
  /** The decision for one evaluation, and the token it concerned (known even when refused). */
  async function decision(e: AuthzenEvaluation, input: AuthorizeInput, traceId: string | null)
    : Promise<{ answer: AuthzenDecisionBody; agent?: AgentContext; refused?: ReturnType<typeof refusedTokenOf> }> {
    const id = e.subject.id;
    const credential = { scheme: AGENT_TOKEN_PATTERN.test(id) ? 'agent' as const : 'oauth' as const, token: id };
    let agent: AgentContext | undefined;
    try {
      agent = await authorize.authenticate(input, credential, traceId);
      const decided = await authorize.decide(agent, input, e.context?.action_confirmation);
      const chain = [...agent.chain];
      if (decided.status === 200) return { agent, answer: { decision: true, context: { chain } } };
      const pending = decided.body as unknown as Pending;
      return { agent, answer: { decision: false, context: { reason: 'PENDING_APPROVAL', chain, pending_action: {
        action_id: pending.action_id, confirmation_token: pending.confirmation_token, expires_at: pending.expires_at } } } };
    } catch (err) {
      if (!(err instanceof AppError) || !DENIALS.has(err.code)) throw err;
      const answer = { decision: false, context: { reason: err.code, ...(agent ? { chain: [...agent.chain] } : {}) } };
      return agent ? { agent, answer } : { answer, refused: refusedTokenOf(err) };
    }
  }

  /** One evaluation: allowed, or not with the reason (the refusal's code, or PENDING_APPROVAL with the pending action). */
  async function evaluate(e: AuthzenEvaluation, meta: RequestMeta, path: string): Promise<AuthzenDecisionBody> {
    const p = e.resource?.properties ?? {};
    const input: AuthorizeInput = { permission: e.action.name, ...(p.method ? { method: p.method } : {}), ...(p.path ? { path: p.path } : {}),
      ...(p.body_sha256 ? { body_sha256: p.body_sha256 } : {}), ...(p.organization ? { organization: p.organization } : {}) };
    const traceId = traceIdOf(e.context?.prompt_trace_id);
    const { answer, agent, refused } = await decision(e, input, traceId);
    // In the token's activity like any agent request (the trail), refused ones included when the token is known.
    const token = agent ? { tokenId: agent.tokenId, rootTokenId: agent.chain[0]?.id, userId: agent.user.id, agentId: agent.agentId } : refused;
    if (token) {
      activity.record({ ...token, method: 'POST', path, permission: e.action.name, decision: agent?.decision ?? 'deny',
        status: answer.decision ? 200 : 403, traceId, meta });
    }
    return answer;
  }

  /** Several evaluations, each defaulting to the request's own members; `deny_on_first_deny` and `permit_on_first_permit` stop early. */
  async function evaluateAll(body: AuthzenEvaluations, meta: RequestMeta, path: string): Promise<{ evaluations: AuthzenDecisionBody[] }> {
    const items = body.evaluations?.length ? body.evaluations : [{}];
    const merged = items.map((item) => ({ subject: item.subject ?? body.subject, action: item.action ?? body.action,
      resource: item.resource ?? body.resource, context: item.context ?? body.context }));
    const incomplete = merged.findIndex((m) => !m.subject || !m.action);
    if (incomplete >= 0) throw AppError.validation({ [`evaluations.${incomplete}`]: ['A subject and an action are needed, here or in the request.'] });
    const semantic = body.options?.evaluations_semantic ?? 'execute_all';
    const evaluations: AuthzenDecisionBody[] = [];
    for (const m of merged as AuthzenEvaluation[]) {
      // An evaluation missing what approval binds is the caller's mistake, refused uncounted: alone it answers 400,
      // in a batch that one evaluation answers it.
      const decided = await evaluate(m, meta, path).catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'VALIDATION_ERROR') return { decision: false, context: { reason: 'VALIDATION_ERROR' } };
        throw err;
      });
      evaluations.push(decided);
      if ((semantic === 'deny_on_first_deny' && !decided.decision) || (semantic === 'permit_on_first_permit' && decided.decision)) break;
    }
    return { evaluations };
  }

  return { evaluate, evaluateAll };
}

export type AuthzenService = ReturnType<typeof createAuthzenService>;
