import { Type, type Static } from 'typebox';
import { toIso } from '../../core/clock.js';
import { Body, Nullable } from '../../http/schema.js';
import { ListQuery, Ordering, SearchText } from '../../core/listing.js';
import type { ApplicationRow } from './applications.repo.js';
import { APPLICATION_KINDS } from './kinds.js';

const Name = Type.String({ minLength: 1, maxLength: 100 });
const Description = Type.String({ maxLength: 1000 });
const RedirectUris = Type.Array(Type.String({ maxLength: 2048 }), { maxItems: 50,
  description: 'Absolute http(s) URLs, matched exactly (social callbacks, magic-link validation_url)' });
const PostLogoutRedirectUris = Type.Array(Type.String({ maxLength: 2048 }), { maxItems: 50,
  description: 'Absolute http(s) URLs, matched exactly, where OAuth RP-initiated logout may send the person back (docs/oauth.md)' });
const AllowedOrigins = Type.Array(Type.String({ maxLength: 2048 }), { maxItems: 50,
  description: 'Bare origins (scheme://host[:port]) allowed to call the API from a browser; a public application needs at least one' });
const Kind = Type.Enum([...APPLICATION_KINDS], { type: 'string',
  description: '`confidential`: key and secret on every request (server code). `public`: browser code, key only, accepted only '
    + 'from its allowed_origins, refresh tokens in the HttpOnly cookie only. Fixed at creation.' });

export const APPLICATION_ORDERING = ['name', 'created_at', 'updated_at'] as const;

export const ApplicationListQuery = ListQuery({
  search: Type.Optional(SearchText),
  is_active: Type.Optional(Type.Boolean()),
  kind: Type.Optional(Kind),
  ordering: Ordering(APPLICATION_ORDERING, 'name'),
});
export type ApplicationListInput = Static<typeof ApplicationListQuery>;

/** The fields of create and PUT: `name` required, the rest optional (`kind` defaults to confidential, and never changes). */
const ApplicationFields = {
  name: Name,
  description: Type.Optional(Description),
  kind: Type.Optional(Kind),
  redirect_uris: Type.Optional(RedirectUris),
  post_logout_redirect_uris: Type.Optional(PostLogoutRedirectUris),
  allowed_origins: Type.Optional(AllowedOrigins),
  is_active: Type.Optional(Type.Boolean()),
};

export const CreateApplicationBody = Body(ApplicationFields);
export type CreateApplicationInput = Static<typeof CreateApplicationBody>;

export const ReplaceApplicationBody = Body(ApplicationFields, 'name is required; other fields left out keep their value');

export const PatchApplicationBody = Body({
  name: Type.Optional(Name),
  description: Type.Optional(Description),
  kind: Type.Optional(Kind),
  redirect_uris: Type.Optional(RedirectUris),
  post_logout_redirect_uris: Type.Optional(PostLogoutRedirectUris),
  allowed_origins: Type.Optional(AllowedOrigins),
  is_active: Type.Optional(Type.Boolean()),
});
export type UpdateApplicationInput = Static<typeof PatchApplicationBody>;

export const RegenerateBody = Body({ confirmation: Type.Optional(Type.String({ maxLength: 100, description: 'Must be "REGENERATE"' })) });
export type RegenerateInput = Static<typeof RegenerateBody>;

/** An application as the API shows it: never the secret, nor its hash. */
export const ApplicationResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  kind: Kind,
  access_key: Type.String(),
  is_active: Type.Boolean(),
  redirect_uris: Type.Array(Type.String()),
  post_logout_redirect_uris: Type.Array(Type.String(), { description: 'Where OAuth RP-initiated logout may send the person back (docs/oauth.md)' }),
  allowed_origins: Type.Array(Type.String()),
  created_by: Nullable(Type.Integer()),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type ApplicationBody = Static<typeof ApplicationResponse>;

/**
 * Create and regenerate: the only two answers that carry the secret. `id`, `client_id` and `client_secret` repeat the
 * application id and the credentials at the top level, where the Tenxyte SDK reads them (docs/migrating-from-tenxyte.md). A
 * public application has no secret: `access_secret` and `client_secret` are null.
 */
export const ApplicationCredentialsResponse = Type.Object({
  message: Type.String(),
  application: ApplicationResponse,
  credentials: Type.Object({
    access_key: Type.String(),
    access_secret: Nullable(Type.String({ description: 'Shown once; null for a public application, which has no secret' })),
  }),
  warning: Type.String(),
  id: Type.Integer({ description: 'Same as application.id' }),
  client_id: Type.String({ description: 'Same as credentials.access_key' }),
  client_secret: Nullable(Type.String({ description: 'Same as credentials.access_secret' })),
});
export type ApplicationCredentialsBody = Static<typeof ApplicationCredentialsResponse>;

export const toApplication = (a: ApplicationRow): ApplicationBody => ({
  id: a.id, name: a.name, description: a.description, kind: a.kind, access_key: a.access_key, is_active: a.is_active,
  redirect_uris: a.redirect_uris, post_logout_redirect_uris: a.post_logout_redirect_uris, allowed_origins: a.allowed_origins,
  created_by: a.created_by,
  created_at: toIso(a.created_at)!, updated_at: toIso(a.updated_at)!,
});

/** The answer of create and regenerate, with the SDK's top-level aliases. */
export const toCredentialsAnswer = (message: string, warning: string, row: ApplicationRow,
  credentials: { access_key: string; access_secret: string | null }): ApplicationCredentialsBody => ({
  message, application: toApplication(row), credentials, warning,
  id: row.id, client_id: credentials.access_key, client_secret: credentials.access_secret,
});
