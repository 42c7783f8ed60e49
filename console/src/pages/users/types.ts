/** `GET admin/users/` rows (admin-users.schemas.ts AdminUserSummary). */
export interface AdminUserSummary {
  id: number;
  email: string | null;
  username: string | null;
  phone: string | null;
  first_name: string;
  last_name: string;
  is_active: boolean;
  is_staff: boolean;
  is_superuser: boolean;
  is_banned: boolean;
  is_locked: boolean;
  locked_until: string | null;
  is_deleted: boolean;
  is_email_verified: boolean;
  is_phone_verified: boolean;
  is_2fa_enabled: boolean;
  must_change_password: boolean;
  roles: string[];
  created_at: string;
  last_login: string | null;
}

/** `GET admin/users/<id>/`. */
export interface AdminUserDetail extends AdminUserSummary {
  banned_at: string | null;
  ban_reason: string | null;
  deleted_at: string | null;
  failed_login_count: number;
  has_usable_password: boolean;
  max_sessions: number | null;
  max_devices: number | null;
  permissions: string[];
  updated_at: string;
}

/** The answer of lock, unlock, ban and unban. */
export interface AdminUserAction {
  message: string;
  sessions_revoked?: number;
  user: AdminUserDetail;
}

export interface RoleSummary {
  id: string;
  code: string;
  name: string;
  is_default: boolean;
}

/** `GET admin/refresh-tokens/` rows: one per refresh token, each belonging to a session. */
export interface RefreshTokenRecord {
  id: string;
  user: number;
  user_email: string | null;
  application: number | null;
  application_name: string | null;
  device_info: string | null;
  /** The session's device in words, from `device_info` or else the User-Agent; null when the client sent neither. */
  device_summary?: string | null;
  ip_address: string | null;
  is_revoked: boolean;
  is_rotated: boolean;
  is_expired: boolean;
  expires_at: string;
  created_at: string;
  last_used_at: string | null;
}
