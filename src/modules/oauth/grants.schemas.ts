import { Type } from 'typebox';
import { Nullable } from '../../http/schema.js';
import { PageQuery } from '../../core/pagination.js';

/** One grant a person approved (docs/oauth.md "Grants"): a delegation to a client. */
export const OauthGrant = Type.Object({
  id: Type.String({ description: 'The grant\'s id' }),
  client_id: Type.String(),
  client_name: Type.String(),
  verified: Type.Boolean({ description: 'False for clients registered dynamically or by a metadata document' }),
  resource: Nullable(Type.String({ description: 'The API its access tokens are for; null: userinfo only' })),
  scopes: Type.Array(Type.String()),
  organization: Nullable(Type.String({ description: 'The organization slug it is bound to' })),
  status: Type.Union([Type.Literal('active'), Type.Literal('suspended'), Type.Literal('revoked'), Type.Literal('expired')], {
    description: 'Its delegation\'s state (docs/oauth.md "Grants and ai/authorize/"): suspended by a breaker or by the person, '
      + 'revoked or expired; a grant without a resource is active while it lasts' }),
  delegation: Nullable(Type.Object({
    agent_token_id: Type.Integer({ description: 'The delegation in ai/agent-tokens/: its usage, limits and pending actions' }),
    max_requests_per_minute: Type.Integer(),
    budget_limit_usd: Nullable(Type.Number()),
    expires_at: Type.String({ format: 'date-time' }),
  }, { description: 'What ai/authorize/ counts this grant\'s access tokens against; null for a grant without a resource' })),
  created_at: Type.String({ format: 'date-time' }),
});

export const GrantParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** `GET admin/grants/?user_id=`: one person's grants, a page at a time. */
export const AdminGrantQuery = Type.Object({
  ...PageQuery.properties,
  user_id: Type.Integer({ minimum: 1, description: 'The person whose grants are listed' }),
});
