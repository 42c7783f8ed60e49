import type { Executor } from '../../db/database.js';
import { PUBLIC_USER_COLUMNS } from '../users/user-columns.js';

// Every list names its columns: the export is the allow-list of what leaves about a person, and no hash, secret,
// code, token or token id (jti) is among them.

/** What checking the export's password reads (never part of the export). */
export const findProofState = (db: Executor, userId: number) =>
  db.selectFrom('users').select(['id', 'password_hash', 'password_hash_unnormalized', 'has_usable_password', 'locked_until'])
    .where('id', '=', userId).executeTakeFirst();

export const findUserInfo = (db: Executor, userId: number) =>
  db.selectFrom('users').select([...PUBLIC_USER_COLUMNS, 'updated_at']).where('id', '=', userId).executeTakeFirst();

export type UserInfoRow = NonNullable<Awaited<ReturnType<typeof findUserInfo>>>;

export const listRoles = (db: Executor, userId: number) =>
  db.selectFrom('user_roles as ur').innerJoin('roles as r', 'r.id', 'ur.role_id')
    .select(['r.id', 'r.code', 'r.name', 'r.description', 'ur.created_at as assigned_at'])
    .where('ur.user_id', '=', userId).orderBy('r.code').execute();

/** The permissions of `codes` (the user's effective ones), with the date of a direct grant where there is one. */
export const listPermissions = (db: Executor, userId: number, codes: string[]) =>
  codes.length === 0 ? Promise.resolve([]) : db.selectFrom('permissions as p')
    .leftJoin('user_permissions as up', (join) => join.onRef('up.permission_id', '=', 'p.id').on('up.user_id', '=', userId))
    .select(['p.id', 'p.code', 'p.name', 'p.description', 'up.created_at as granted_at'])
    .where('p.code', 'in', codes).orderBy('p.code').execute();

/** Every session still stored (open, or ended within the retention period), newest first. */
export const listSessions = (db: Executor, userId: number) =>
  db.selectFrom('sessions').select(['id', 'application_id', 'device_id', 'device_info', 'device_summary', 'ip_address', 'user_agent',
    'created_at', 'last_used_at', 'expires_at', 'revoked_at', 'revoke_reason'])
    .where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();

export type SessionRow = Awaited<ReturnType<typeof listSessions>>[number];

/** Names of applications, by id (never their keys). */
export const findApplicationNames = (db: Executor, ids: number[]) =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('applications').select(['id', 'name']).where('id', 'in', ids).execute();

/** The `limit` most recent login attempts made on the account. */
export const listLoginAttempts = (db: Executor, userId: number, limit: number) =>
  db.selectFrom('login_attempts').select(['id', 'identifier', 'method', 'ip_address', 'application_id', 'success', 'failure_reason',
    'created_at'])
    .where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();

/** The `limit` most recent audit events about the account. */
export const listAuditEvents = (db: Executor, userId: number, limit: number) =>
  db.selectFrom('audit_events').select(['id', 'event_type', 'severity', 'actor_id', 'application_id', 'agent_token_id', 'ip_address',
    'user_agent', 'details', 'created_at'])
    .where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();

export const listMemberships = (db: Executor, userId: number) =>
  db.selectFrom('organization_members as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .innerJoin('org_roles as r', 'r.id', 'm.org_role_id')
    .select(['o.id as organization_id', 'o.name as organization_name', 'o.slug as organization_slug', 'r.code as role_code',
      'r.name as role_name', 'm.status', 'm.joined_at'])
    .where('m.user_id', '=', userId).orderBy('m.joined_at').orderBy('m.id').execute();


/** The account's deletion requests, newest first: neither the confirmation hash nor the cancellation reference. */
export const listDeletionRequests = (db: Executor, userId: number) =>
  db.selectFrom('account_deletion_requests').select(['id', 'status', 'reason', 'ip_address', 'requested_at', 'confirmed_at',
    'grace_period_ends_at', 'completed_at', 'cancelled_at'])
    .where('user_id', '=', userId).orderBy('requested_at', 'desc').orderBy('id', 'desc').execute();

/** Registered passkeys' metadata (never their public keys or handles), the oldest first. */
export const listPasskeys = (db: Executor, userId: number) =>
  db.selectFrom('webauthn_credentials').select(['id', 'device_name as name', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();

export type PasskeyRow = Awaited<ReturnType<typeof listPasskeys>>[number];

/** Linked social-login identities, the oldest link first. */
export const listSocialAccounts = (db: Executor, userId: number) =>
  db.selectFrom('social_accounts').select(['id', 'provider', 'subject', 'email', 'linked_at', 'last_login_at'])
    .where('user_id', '=', userId).orderBy('linked_at').orderBy('id').execute();

export type SocialAccountRow = Awaited<ReturnType<typeof listSocialAccounts>>[number];
