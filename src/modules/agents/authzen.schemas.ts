import { Type, type Static } from 'typebox';
import { ChainLinkRecord } from './agent-tokens.schemas.js';

// The OpenID AuthZEN Authorization API 1.0 (docs/agents.md "AuthZEN"): the subject is the agent's token, the action
// the permission, the resource the request it made. Members the API defines and Gatehouse does not use are accepted.

const Open = { additionalProperties: true } as const;

export const AuthzenSubject = Type.Object({
  type: Type.Literal('agent_token', { description: 'The only subject type: an agent token or an OAuth access token' }),
  id: Type.String({ minLength: 1, maxLength: 8192, description: 'The raw AgentBearer token or OAuth access token the agent presented' }),
  properties: Type.Optional(Type.Object({}, Open)),
}, Open);

export const AuthzenAction = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, description: 'The permission code the request needs' }),
  properties: Type.Optional(Type.Object({}, Open)),
}, Open);

export const AuthzenResource = Type.Object({
  type: Type.Optional(Type.String({ maxLength: 100 })),
  id: Type.Optional(Type.String({ maxLength: 2048 })),
  properties: Type.Optional(Type.Object({
    method: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
    path: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    body_sha256: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$' })),
    organization: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  }, Open)),
}, Open);

export const AuthzenContext = Type.Object({
  /** The approval's confirmation token, as `X-Action-Confirmation` carries it for ai/authorize/. */
  action_confirmation: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  prompt_trace_id: Type.Optional(Type.String({ maxLength: 128 })),
}, Open);

export const AuthzenEvaluationBody = Type.Object({
  subject: AuthzenSubject,
  action: AuthzenAction,
  resource: Type.Optional(AuthzenResource),
  context: Type.Optional(AuthzenContext),
}, Open);
export type AuthzenEvaluation = Static<typeof AuthzenEvaluationBody>;

/** Each evaluation's members default to the request's own (AuthZEN "Access Evaluations API"). */
export const AuthzenEvaluationsBody = Type.Object({
  subject: Type.Optional(AuthzenSubject),
  action: Type.Optional(AuthzenAction),
  resource: Type.Optional(AuthzenResource),
  context: Type.Optional(AuthzenContext),
  evaluations: Type.Optional(Type.Array(Type.Object({
    subject: Type.Optional(AuthzenSubject),
    action: Type.Optional(AuthzenAction),
    resource: Type.Optional(AuthzenResource),
    context: Type.Optional(AuthzenContext),
  }, Open), { maxItems: 64 })),
  options: Type.Optional(Type.Object({
    evaluations_semantic: Type.Optional(Type.Enum(['execute_all', 'deny_on_first_deny', 'permit_on_first_permit'], { type: 'string' })),
  }, Open)),
}, Open);
export type AuthzenEvaluations = Static<typeof AuthzenEvaluationsBody>;

export const AuthzenDecision = Type.Object({
  decision: Type.Boolean(),
  context: Type.Object({
    reason: Type.Optional(Type.String({ description: 'The refusal\'s code (as ai/authorize/ answers it), or PENDING_APPROVAL' })),
    chain: Type.Optional(Type.Array(ChainLinkRecord)),
    pending_action: Type.Optional(Type.Object({
      action_id: Type.Integer(), confirmation_token: Type.String(), expires_at: Type.String({ format: 'date-time' }),
    })),
  }),
});
export type AuthzenDecisionBody = Static<typeof AuthzenDecision>;

export const AuthzenEvaluationsResponse = Type.Object({ evaluations: Type.Array(AuthzenDecision) });

export const AuthzenConfiguration = Type.Object({
  policy_decision_point: Type.String(),
  access_evaluation_endpoint: Type.String(),
  access_evaluations_endpoint: Type.String(),
});
