import { Type, type Static } from 'typebox';
import { toIso } from '../../core/clock.js';
import { Body, Nullable } from '../../http/schema.js';
import { DateFilter, IdFilter, ListQuery, Ordering } from '../../core/listing.js';
import type { RefreshTokenRecordRow } from './security.repo.js';

const When = Type.String({ format: 'date-time' });

export const BLACKLIST_REASONS = ['logout', 'password_change', 'security'] as const;

export const BlacklistQuery = ListQuery({
  user_id: Type.Optional(IdFilter),
  reason: Type.Optional(Type.Enum([...BLACKLIST_REASONS])),
  expired: Type.Optional(Type.Boolean()),
  ordering: Ordering(['blacklisted_at', 'expires_at'] as const, '-blacklisted_at'),
});
export type BlacklistInput = Static<typeof BlacklistQuery>;

/** The API's "Blacklisted token". */
export const BlacklistedToken = Type.Object({
  id: Type.String(),
  token_jti: Type.String(),
  user: Nullable(Type.Integer()),
  user_email: Nullable(Type.String()),
  blacklisted_at: When,
  expires_at: When,
  reason: Type.String(),
  is_expired: Type.Boolean(),
});

export const CleanupResponse = Type.Object({ message: Type.String(), deleted_count: Type.Integer() });

export const RefreshTokenQuery = ListQuery({
  user_id: Type.Optional(IdFilter),
  application_id: Type.Optional(IdFilter),
  is_revoked: Type.Optional(Type.Boolean()),
  expired: Type.Optional(Type.Boolean()),
  ordering: Ordering(['created_at', 'expires_at', 'last_used_at'] as const, '-created_at'),
});
export type RefreshTokenInput = Static<typeof RefreshTokenQuery>;

/**
 * The refresh-token record of docs/access-control.md (`GET admin/refresh-tokens/`); `is_rotated` marks a token already
 * exchanged for its successor, `device_summary` is its session's device in words (docs/authentication.md "Sessions and
 * devices").
 */
export const RefreshTokenRecord = Type.Object({
  id: Type.String(),
  user: Type.Integer(),
  user_email: Nullable(Type.String()),
  application: Nullable(Type.Integer()),
  application_name: Nullable(Type.String()),
  device_info: Nullable(Type.String()),
  device_summary: Nullable(Type.String({ description: 'The session\'s device in words, from device_info or else the User-Agent' })),
  ip_address: Nullable(Type.String()),
  is_revoked: Type.Boolean(),
  is_rotated: Type.Boolean(),
  is_expired: Type.Boolean(),
  expires_at: When,
  created_at: When,
  last_used_at: Nullable(When),
});
export type RefreshTokenRecordBody = Static<typeof RefreshTokenRecord>;

export const RevokeBody = Body({ confirmation: Type.Optional(Type.String({ maxLength: 100, description: 'Must be "REVOKE"' })) });
export type RevokeInput = Static<typeof RevokeBody>;

export const RevokeResponse = Type.Object({ message: Type.String(), token: RefreshTokenRecord });

export const LoginAttemptQuery = ListQuery({
  identifier: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'Exact email or phone (case-insensitive)' })),
  ip_address: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  success: Type.Optional(Type.Boolean()),
  user_id: Type.Optional(IdFilter),
  application_id: Type.Optional(IdFilter),
  date_from: Type.Optional(DateFilter),
  date_to: Type.Optional(DateFilter),
  ordering: Ordering(['created_at', 'identifier', 'ip_address'] as const, '-created_at'),
});
export type LoginAttemptInput = Static<typeof LoginAttemptQuery>;

/** The API's "Login-attempt audit record", with its id and the sign-in method. */
export const LoginAttempt = Type.Object({
  id: Type.String(),
  identifier: Type.String(),
  method: Type.String(),
  ip_address: Nullable(Type.String()),
  application: Nullable(Type.Integer()),
  success: Type.Boolean(),
  failure_reason: Nullable(Type.String()),
  created_at: When,
});

export const toBlacklistedToken = (r: { id: number; jti: string; user_id: number | null; user_email: string | null;
  blacklisted_at: Date; expires_at: Date; reason: string }, now: Date) => ({
  id: String(r.id), token_jti: r.jti, user: r.user_id, user_email: r.user_email, blacklisted_at: toIso(r.blacklisted_at)!,
  expires_at: toIso(r.expires_at)!, reason: r.reason, is_expired: r.expires_at <= now,
});

export const toRefreshTokenRecord = (r: RefreshTokenRecordRow, now: Date): RefreshTokenRecordBody => ({
  id: String(r.id), user: r.user_id, user_email: r.user_email, application: r.application_id,
  application_name: r.application_name, device_info: r.device_info, device_summary: r.device_summary, ip_address: r.ip_address,
  is_revoked: r.is_revoked, is_rotated: r.rotated_at !== null, is_expired: r.expires_at <= now,
  expires_at: toIso(r.expires_at)!, created_at: toIso(r.created_at)!, last_used_at: toIso(r.last_used_at),
});

export const toLoginAttempt = (r: { id: number; identifier: string; method: string; ip_address: string | null;
  application_id: number | null; success: boolean; failure_reason: string | null; created_at: Date }) => ({
  id: String(r.id), identifier: r.identifier, method: r.method, ip_address: r.ip_address, application: r.application_id,
  success: r.success, failure_reason: r.failure_reason, created_at: toIso(r.created_at)!,
});
