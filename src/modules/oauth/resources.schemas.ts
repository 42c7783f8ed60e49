import { Type, type Static } from 'typebox';
import { toIso } from '../../core/clock.js';
import { Body } from '../../http/schema.js';
import type { ResourceRow } from './resources.repo.js';

const Uri = Type.String({ minLength: 1, maxLength: 2048,
  description: 'The API\'s URI, the audience of its tokens: an https URL (http on loopback), without fragment' });
const Scopes = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 200,
  description: 'The permission codes this API accepts: its tokens carry what was granted among them' });

export const CreateResourceBody = Body({ uri: Uri, name: Type.String({ minLength: 1, maxLength: 200 }), scopes: Type.Optional(Scopes) });
export type CreateResourceInput = Static<typeof CreateResourceBody>;

export const PatchResourceBody = Body({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), scopes: Type.Optional(Scopes) });
export type PatchResourceInput = Static<typeof PatchResourceBody>;

export const OauthResource = Type.Object({
  id: Type.Integer(),
  uri: Type.String(),
  name: Type.String(),
  scopes: Type.Array(Type.String()),
  client_id: Type.String({ description: 'Its credentials for introspection (RFC 7662)' }),
  created_at: Type.String({ format: 'date-time' }),
});
export type OauthResourceBody = Static<typeof OauthResource>;

export const OauthResourceCreated = Type.Object({
  resource: OauthResource,
  credentials: Type.Object({ client_id: Type.String(), client_secret: Type.String({ description: 'Shown once' }) }),
});

export const OauthResourceList = Type.Object({ results: Type.Array(OauthResource), count: Type.Integer() });

export const toResource = (r: ResourceRow): OauthResourceBody => ({
  id: r.id, uri: r.uri, name: r.name, scopes: r.scopes, client_id: r.client_id, created_at: toIso(r.created_at)!,
});
