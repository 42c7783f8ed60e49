import { Type, type Static } from 'typebox';
import { toIso } from '../../core/clock.js';
import { Body, Nullable } from '../../http/schema.js';
import { DateFilter, ListQuery, Ordering, SearchText } from '../../core/listing.js';
import type { AdminUserRow } from './admin-users.repo.js';

export const ADMIN_USER_ORDERING = ['created_at', 'email', 'last_login', 'first_name', 'last_name'] as const;

export const AdminUserListQuery = ListQuery({
  search: Type.Optional(SearchText),
  is_active: Type.Optional(Type.Boolean()),
  is_locked: Type.Optional(Type.Boolean()),
  is_banned: Type.Optional(Type.Boolean()),
  is_deleted: Type.Optional(Type.Boolean({ description: 'Soft-deleted accounts are listed only with is_deleted=true' })),
  is_staff: Type.Optional(Type.Boolean()),
  is_superuser: Type.Optional(Type.Boolean()),
  role: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A role code the user holds' })),
  date_from: Type.Optional(DateFilter),
  date_to: Type.Optional(DateFilter),
  ordering: Ordering(ADMIN_USER_ORDERING, '-created_at'),
});
export type AdminUserListInput = Static<typeof AdminUserListQuery>;

const Limit = Type.Integer({ minimum: 0, maximum: 1000, description: '0: unlimited; null: the server setting' });

export const AdminUserPatchBody = Body({
  first_name: Type.Optional(Type.String({ maxLength: 150 })),
  last_name: Type.Optional(Type.String({ maxLength: 150 })),
  must_change_password: Type.Optional(Type.Boolean()),
  is_active: Type.Optional(Type.Boolean()),
  is_staff: Type.Optional(Type.Boolean({ description: 'Superusers only' })),
  is_superuser: Type.Optional(Type.Boolean({ description: 'Superusers only' })),
  max_sessions: Type.Optional(Nullable(Limit)),
  max_devices: Type.Optional(Nullable(Limit)),
});
export type AdminUserPatch = Static<typeof AdminUserPatchBody>;

/** Actions that take no input still refuse unknown fields, so a misspelt option is never ignored. */
export const EmptyBody = Body({});

export const BanBody = Body({ reason: Type.Optional(Type.String({ maxLength: 500 })) });
export type BanInput = Static<typeof BanBody>;

export const LockBody = Body({
  duration_minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 43_200, default: 30, description: 'Default 30, at most 30 days' })),
  reason: Type.Optional(Type.String({ maxLength: 500 })),
});
export type LockInput = Static<typeof LockBody>;

const When = Type.String({ format: 'date-time' });

/** An account in the administrative listing (the id is an integer, as in profile responses). */
export const AdminUserSummary = Type.Object({
  id: Type.Integer(),
  email: Nullable(Type.String()),
  username: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  first_name: Type.String(),
  last_name: Type.String(),
  is_active: Type.Boolean(),
  is_staff: Type.Boolean(),
  is_superuser: Type.Boolean(),
  is_banned: Type.Boolean(),
  is_locked: Type.Boolean(),
  locked_until: Nullable(When),
  is_deleted: Type.Boolean(),
  is_email_verified: Type.Boolean(),
  is_phone_verified: Type.Boolean(),
  is_2fa_enabled: Type.Boolean(),
  must_change_password: Type.Boolean(),
  roles: Type.Array(Type.String()),
  created_at: When,
  last_login: Nullable(When),
});
export type AdminUserSummaryBody = Static<typeof AdminUserSummary>;

export const AdminUserDetail = Type.Object({
  ...AdminUserSummary.properties,
  banned_at: Nullable(When),
  ban_reason: Nullable(Type.String()),
  deleted_at: Nullable(When),
  failed_login_count: Type.Integer(),
  has_usable_password: Type.Boolean(),
  max_sessions: Nullable(Type.Integer()),
  max_devices: Nullable(Type.Integer()),
  permissions: Type.Array(Type.String(), { description: 'Effective permission codes' }),
  updated_at: When,
});
export type AdminUserDetailBody = Static<typeof AdminUserDetail>;

export const AdminUserUpdatedResponse = Type.Object({
  message: Type.String(), updated_fields: Type.Array(Type.String()), user: AdminUserDetail,
});

export const AdminUserActionResponse = Type.Object({
  message: Type.String(),
  sessions_revoked: Type.Optional(Type.Integer({ description: 'Sessions ended by this action' })),
  user: AdminUserDetail,
});

export function toAdminUserSummary(u: AdminUserRow, roles: string[], now: Date): AdminUserSummaryBody {
  return {
    id: u.id, email: u.email, username: u.username, phone: u.phone, first_name: u.first_name, last_name: u.last_name,
    is_active: u.is_active, is_staff: u.is_staff, is_superuser: u.is_superuser, is_banned: u.is_banned,
    is_locked: u.locked_until !== null && u.locked_until > now, locked_until: toIso(u.locked_until),
    is_deleted: u.deleted_at !== null, is_email_verified: u.is_email_verified, is_phone_verified: u.is_phone_verified,
    is_2fa_enabled: u.is_2fa_enabled, must_change_password: u.must_change_password, roles,
    created_at: toIso(u.created_at)!, last_login: toIso(u.last_login),
  };
}

export function toAdminUserDetail(u: AdminUserRow, grants: { roles: string[]; permissions: string[] }, now: Date): AdminUserDetailBody {
  return {
    ...toAdminUserSummary(u, grants.roles, now),
    banned_at: toIso(u.banned_at), ban_reason: u.ban_reason, deleted_at: toIso(u.deleted_at),
    failed_login_count: u.failed_login_count, has_usable_password: u.has_usable_password,
    max_sessions: u.max_sessions, max_devices: u.max_devices, permissions: grants.permissions, updated_at: toIso(u.updated_at)!,
  };
}
