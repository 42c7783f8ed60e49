/** The public user fields of docs/authentication.md (the user object, "Profile"): what any query about a person may read for display. */
export const PUBLIC_USER_COLUMNS = ['id', 'email', 'username', 'phone', 'avatar', 'bio', 'timezone', 'language', 'first_name',
  'last_name', 'is_active', 'is_email_verified', 'is_phone_verified', 'is_2fa_enabled', 'is_superuser', 'is_staff',
  'has_usable_password', 'must_change_password', 'created_at', 'last_login', 'custom_fields', 'preferences'] as const;
