import { Type, type Static } from 'typebox';
import { toIso } from '../../core/clock.js';
import { Nullable } from '../../http/schema.js';
import { ReauthProofFields } from '../auth/reauth.schemas.js';
import type { OrgContext } from '../organizations/org-context.js';
import { OrganizationRef } from '../organizations/organizations.schemas.js';
import type { PublicUser } from '../users/lookup.js';
import { PersonFields } from '../users/users.schemas.js';
import { StoredText } from '../users/users.schemas.js';

/** The caller's standing in the organization named by `X-Org-Slug` (empty without one). */
const OrganizationContext = Type.Object({
  current_org: Nullable(OrganizationRef),
  roles: Type.Array(Type.String(), { description: 'The effective organization role: the heaviest held there or above' }),
  permissions: Type.Array(Type.String(), { description: 'The effective organization permissions: those of every role held there or above' }),
});
export type OrganizationContext = Static<typeof OrganizationContext>;

export const NO_ORGANIZATION: OrganizationContext = { current_org: null, roles: [], permissions: [] };

/**
 * docs/decisions.md "Organizations": `roles` is the effective role alone (the `user_role` of the organization's detail).
 * Any other role held there or above is lighter, and `permissions` (the union of all of them) already covers it.
 */
export function toOrganizationContext({ organization: { id, name, slug }, role, permissions }: OrgContext): OrganizationContext {
  return { current_org: { id, name, slug }, roles: role ? [role.code] : [], permissions: [...permissions].sort() };
}

/** The API's "Profile" (GET me/); the id is an integer here. */
export const ProfileResponse = Type.Object({
  id: Type.Integer(),
  ...PersonFields,
  is_active: Type.Boolean(),
  is_verified: Type.Boolean(),
  date_joined: Type.String({ format: 'date-time' }),
  last_login: Nullable(Type.String({ format: 'date-time' })),
  custom_fields: Nullable(Type.Record(Type.String(), Type.Unknown())),
  preferences: Type.Object({
    email_notifications: Type.Boolean(),
    sms_notifications: Type.Boolean(),
    marketing_emails: Type.Boolean(),
    two_factor_enabled: Type.Boolean(),
  }),
  organization_context: OrganizationContext,
});
export type Profile = Static<typeof ProfileResponse>;

export function toProfile(u: PublicUser, org: OrganizationContext = NO_ORGANIZATION): Profile {
  return {
    id: u.id, email: u.email, first_name: u.first_name, last_name: u.last_name, username: u.username, phone: u.phone,
    avatar: u.avatar, bio: u.bio, timezone: u.timezone, language: u.language, is_active: u.is_active,
    is_verified: (u.email !== null && u.is_email_verified) || (u.phone !== null && u.is_phone_verified),
    date_joined: toIso(u.created_at)!, last_login: toIso(u.last_login), custom_fields: u.custom_fields,
    preferences: { ...u.preferences, two_factor_enabled: u.is_2fa_enabled },
    organization_context: org,
  };
}

/**
 * PATCH me/ accepts only these fields; anything else in the body is ignored and never stored. A change of phone also
 * takes the proof of docs/security.md "Recent authentication" when the sign-in is not recent; the proof is never stored.
 */
export const UpdateProfileBody = Type.Object({
  ...ReauthProofFields,
  first_name: Type.Optional(StoredText({ maxLength: 150 })),
  last_name: Type.Optional(StoredText({ maxLength: 150 })),
  username: Type.Optional(Nullable(Type.String({ minLength: 3, maxLength: 150, pattern: '^[A-Za-z0-9_.@+-]+$' }))),
  phone: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
  bio: Type.Optional(Nullable(StoredText({ maxLength: 1000 }))),
  timezone: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  language: Type.Optional(Nullable(Type.String({ maxLength: 35, pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$' }))),
  custom_fields: Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown(), { maxProperties: 100 }))),
}, { additionalProperties: true });
export type UpdateProfileInput = Static<typeof UpdateProfileBody>;

export const UpdateProfileResponse = Type.Object({
  message: Type.String(),
  updated_fields: Type.Array(Type.String()),
  user: ProfileResponse,
  verification_required: Type.Object({ email_changed: Type.Boolean(), phone_changed: Type.Boolean() }),
  avatar: Type.Optional(Nullable(Type.String({ description: 'With an uploaded avatar only: its URL, as in `user.avatar` '
    + '(the Tenxyte SDK reads the answer as a user)' }))),
});

/** The global roles and permissions; with `X-Org-Slug`, also the organization context. */
export const RolesResponse = Type.Object({
  roles: Type.Array(Type.String()),
  permissions: Type.Array(Type.String()),
  organization_context: Type.Optional(OrganizationContext),
});
