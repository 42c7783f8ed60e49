import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string | T | undefined, string | T>;

export interface ApplicationsTable {
  id: Generated<number>;
  name: string;
  description: Generated<string>;
  access_key: string;
  secret_hash: string;
  is_active: Generated<boolean>;
  redirect_uris: Json<string[]>;
  allowed_origins: Json<string[]>;
  created_by: number | null;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

export interface Preferences {
  email_notifications: boolean;
  sms_notifications: boolean;
  marketing_emails: boolean;
}

export interface UsersTable {
  id: Generated<number>;
  email: string | null;
  username: string | null;
  phone: string | null;
  password_hash: string | null;
  has_usable_password: Generated<boolean>;
  first_name: Generated<string>;
  last_name: Generated<string>;
  avatar: string | null;
  bio: string | null;
  timezone: string | null;
  language: string | null;
  custom_fields: Json<Record<string, unknown> | null>;
  preferences: Json<Preferences>;
  is_active: Generated<boolean>;
  is_email_verified: Generated<boolean>;
  is_phone_verified: Generated<boolean>;
  is_2fa_enabled: Generated<boolean>;
  is_staff: Generated<boolean>;
  is_superuser: Generated<boolean>;
  is_banned: Generated<boolean>;
  banned_at: NullableTimestamp;
  ban_reason: string | null;
  locked_until: NullableTimestamp;
  failed_login_count: Generated<number>;
  lockout_count: Generated<number>;
  must_change_password: Generated<boolean>;
  tokens_valid_after: NullableTimestamp;
  max_sessions: number | null;
  max_devices: number | null;
  deleted_at: NullableTimestamp;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
  last_login: NullableTimestamp;
}

export interface PermissionsTable {
  id: Generated<number>;
  code: string;
  name: string;
  description: Generated<string>;
  parent_id: number | null;
  is_system: Generated<boolean>;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

export interface RolesTable {
  id: Generated<number>;
  code: string;
  name: string;
  description: Generated<string>;
  is_default: Generated<boolean>;
  is_system: Generated<boolean>;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

export interface RolePermissionsTable {
  role_id: number;
  permission_id: number;
  created_at: Generated<Timestamp>;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
  assigned_by: number | null;
  created_at: Generated<Timestamp>;
}

export interface UserPermissionsTable {
  user_id: number;
  permission_id: number;
  granted_by: number | null;
  created_at: Generated<Timestamp>;
}

export interface OrgPermissionsTable {
  code: string;
  name: string;
  description: Generated<string>;
}

export interface OrgRolesTable {
  id: Generated<number>;
  code: string;
  name: string;
  description: Generated<string>;
  weight: number;
  is_system_role: Generated<boolean>;
  created_at: Generated<Timestamp>;
}

export interface OrgRolePermissionsTable {
  org_role_id: number;
  permission_code: string;
}

export interface AuditEventsTable {
  id: Generated<number>;
  event_type: string;
  severity: Generated<string>;
  user_id: number | null;
  actor_id: number | null;
  application_id: number | null;
  ip_address: string | null;
  user_agent: string | null;
  request_id: string | null;
  trace_id: string | null;
  details: Json<Record<string, unknown>>;
  created_at: Generated<Timestamp>;
}

export interface DatabaseSchema {
  applications: ApplicationsTable;
  users: UsersTable;
  permissions: PermissionsTable;
  roles: RolesTable;
  role_permissions: RolePermissionsTable;
  user_roles: UserRolesTable;
  user_permissions: UserPermissionsTable;
  org_permissions: OrgPermissionsTable;
  org_roles: OrgRolesTable;
  org_role_permissions: OrgRolePermissionsTable;
  audit_events: AuditEventsTable;
}

export type Db = Kysely<DatabaseSchema>;
export type Trx = Transaction<DatabaseSchema>;
export type Executor = Db | Trx;

export type Row<T extends keyof DatabaseSchema> = Selectable<DatabaseSchema[T]>;
export type NewRow<T extends keyof DatabaseSchema> = Insertable<DatabaseSchema[T]>;
export type RowUpdate<T extends keyof DatabaseSchema> = Updateable<DatabaseSchema[T]>;
