import { Type } from 'typebox';
import { Nullable } from '../../http/schema.js';

/** One grant a person approved (docs/oauth.md "Grants"): a delegation to a client. */
export const OauthGrant = Type.Object({
  id: Type.String({ description: 'The grant\'s id' }),
  client_id: Type.String(),
  client_name: Type.String(),
  verified: Type.Boolean({ description: 'False for clients registered dynamically or by a metadata document' }),
  resource: Nullable(Type.String({ description: 'The API its access tokens are for; null: userinfo only' })),
  scopes: Type.Array(Type.String()),
  organization: Nullable(Type.String({ description: 'The organization slug it is bound to' })),
  status: Type.Literal('active'),
  created_at: Type.String({ format: 'date-time' }),
});

export const GrantParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
