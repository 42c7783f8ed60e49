import { Type, type Static } from 'typebox';
import { Body, Nullable } from '../../http/schema.js';
import { ChainLinkRecord } from './agent-tokens.schemas.js';
import { PendingActionBody } from './pending-actions.schemas.js';

/**
 * docs/decisions.md "Agents", integrators' own APIs: what an integrator's backend asks about the request an agent made
 * to it. `method`, `path` and `body_sha256` describe that request; they are required when the permission needs the
 * delegating user's approval, which is then bound to them.
 */
export const AuthorizeBody = Body({
  permission: Type.String({ minLength: 1, maxLength: 100, description: 'The permission code the integrator\'s route needs' }),
  method: Type.Optional(Type.String({ pattern: '^[A-Za-z]{1,16}$', description: 'The HTTP method of the agent\'s request' })),
  path: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, pattern: '^/',
    description: 'The path of the agent\'s request, with its query string' })),
  body_sha256: Type.Optional(Type.String({ pattern: '^[0-9A-Fa-f]{64}$',
    description: 'Hex SHA-256 of the raw body of the agent\'s request (of the empty string when it has none)' })),
  organization: Type.Optional(Type.String({ minLength: 1, maxLength: 100,
    description: 'Slug of the organization the request acts in (the double check then uses the user\'s role there)' })),
});
export type AuthorizeInput = Static<typeof AuthorizeBody>;

/** 200: the agent may do it now. */
export const AuthorizeAllowResponse = Type.Object({
  decision: Type.Literal('allow'),
  agent_token_id: Type.Integer(),
  agent_id: Type.String(),
  user: Type.Object({ id: Type.Integer(), email: Nullable(Type.String()) }, { description: 'The delegating user' }),
  granted_permissions: Type.Array(Type.String(), { description: 'What the token may use: its grant ∩ every ancestor\'s' }),
  chain: Type.Array(ChainLinkRecord, { description: 'The tokens from the root to this one (docs/agents.md "Delegation")' }),
});
export type AuthorizeAllow = Static<typeof AuthorizeAllowResponse>;

/** 202: the request waits for the delegating user's approval; the agent repeats it with `X-Action-Confirmation`. */
export const AuthorizePendingResponse = Type.Object({
  decision: Type.Literal('pending'),
  ...PendingActionBody.properties,
});
export type AuthorizePending = Static<typeof AuthorizePendingResponse>;

export type AuthorizeAnswer = { status: 200; body: AuthorizeAllow } | { status: 202; body: AuthorizePending };
