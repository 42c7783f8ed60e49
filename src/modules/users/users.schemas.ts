import { Type, type Static } from 'typebox';
import { toIso } from '../../core/clock.js';
import { Nullable } from '../../http/schema.js';
import type { Grants } from '../rbac/rbac.service.js';
import type { PublicUser } from './users.repo.js';

/**
 * Text that is stored in, or looked up against, a PostgreSQL text column, which cannot hold U+0000: a request
 * carrying it answers 400 naming the field instead of failing in the database.
 */
export const StoredText = (opts: { minLength?: number; maxLength: number }) => Type.String({ ...opts, pattern: '^[^\\u0000]*$' });

export const PreferencesSchema = Type.Object({
  email_notifications: Type.Boolean(),
  sms_notifications: Type.Boolean(),
  marketing_emails: Type.Boolean(),
});

/** The personal fields the User and Profile representations share. */
export const PersonFields = {
  email: Nullable(Type.String()),
  username: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  avatar: Nullable(Type.String()),
  bio: Nullable(Type.String()),
  timezone: Nullable(Type.String()),
  language: Nullable(Type.String()),
  first_name: Type.String(),
  last_name: Type.String(),
};

/** The API's "User" as returned by registration and login responses (the id is a string there). */
export const UserResponse = Type.Object({
  id: Type.String(),
  ...PersonFields,
  is_active: Type.Boolean(),
  is_email_verified: Type.Boolean(),
  is_phone_verified: Type.Boolean(),
  is_2fa_enabled: Type.Boolean(),
  has_usable_password: Type.Optional(Type.Boolean()),
  created_at: Type.String({ format: 'date-time' }),
  last_login: Nullable(Type.String({ format: 'date-time' })),
  custom_fields: Nullable(Type.Record(Type.String(), Type.Unknown())),
  preferences: PreferencesSchema,
  roles: Type.Array(Type.String()),
  permissions: Type.Array(Type.String()),
});
export type UserResponseBody = Static<typeof UserResponse>;

/**
 * `has_usable_password` is part of the user only where the API names it (the passwordless OTP login response);
 * pass `withPasswordState` there.
 */
export function toUserResponse(u: PublicUser, grants: Grants, opts: { withPasswordState?: boolean } = {}): UserResponseBody {
  return {
    id: String(u.id),
    email: u.email, username: u.username, phone: u.phone, avatar: u.avatar, bio: u.bio, timezone: u.timezone,
    language: u.language, first_name: u.first_name, last_name: u.last_name, is_active: u.is_active,
    is_email_verified: u.is_email_verified, is_phone_verified: u.is_phone_verified, is_2fa_enabled: u.is_2fa_enabled,
    ...(opts.withPasswordState ? { has_usable_password: u.has_usable_password } : {}),
    created_at: toIso(u.created_at)!, last_login: toIso(u.last_login),
    custom_fields: u.custom_fields, preferences: u.preferences,
    roles: grants.roles, permissions: grants.permissions,
  };
}
