import { Type, type Static } from 'typebox';
import { toIso } from '../../core/clock.js';
import { Body, Nullable } from '../../http/schema.js';
import { LoginAttempt } from '../admin/security.schemas.js';
import { AgentTokenRecord } from '../agents/agent-tokens.schemas.js';
import { OrganizationRef } from '../organizations/organizations.schemas.js';
import { PersonFields, PreferencesSchema } from '../users/users.schemas.js';
import type { PasskeyRow, SocialAccountRow, UserInfoRow } from './export.repo.js';

const When = Type.String({ format: 'date-time' });

export const ExportBody = Body({
  // Long enough for any real password, short enough that nothing huge ever reaches the hasher.
  password: Type.String({ minLength: 1, maxLength: 1024, description: 'The account\'s current password' }),
});
export type ExportInput = Static<typeof ExportBody>;

/** The profile as stored: the API's "User" and "Profile" fields, with the account flags (never a password hash or secret). */
const UserInfo = Type.Object({
  id: Type.Integer(),
  ...PersonFields,
  is_active: Type.Boolean(),
  is_email_verified: Type.Boolean(),
  is_phone_verified: Type.Boolean(),
  is_2fa_enabled: Type.Boolean(),
  is_staff: Type.Boolean(),
  is_superuser: Type.Boolean(),
  has_usable_password: Type.Boolean(),
  must_change_password: Type.Boolean(),
  custom_fields: Nullable(Type.Record(Type.String(), Type.Unknown())),
  preferences: PreferencesSchema,
  created_at: When,
  updated_at: When,
  last_login: Nullable(When),
});

const Role = Type.Object({
  id: Type.String(), code: Type.String(), name: Type.String(), description: Type.String(), assigned_at: When,
});

const Permission = Type.Object({
  id: Type.String(),
  code: Type.String(),
  name: Type.String(),
  description: Type.String(),
  is_direct: Type.Boolean({ description: 'Granted to the account itself (otherwise held through a role or a parent permission)' }),
  granted_at: Nullable(When),
});

const Application = Type.Object({
  id: Type.Integer(),
  name: Nullable(Type.String()),
  first_signed_in_at: When,
  last_used_at: When,
  active_sessions: Type.Integer(),
}, { description: 'An application the account signed in through (from its stored sessions)' });

const Session = Type.Object({
  id: Type.String(),
  application: Nullable(Type.Integer()),
  device_id: Type.String(),
  device_summary: Nullable(Type.String()),
  device_info: Nullable(Type.String()),
  ip_address: Nullable(Type.String()),
  user_agent: Nullable(Type.String()),
  created_at: When,
  last_used_at: When,
  expires_at: When,
  revoked_at: Nullable(When),
  revoke_reason: Nullable(Type.String()),
  is_active: Type.Boolean(),
});

const Device = Type.Object({
  device_id: Type.String(),
  device_summary: Nullable(Type.String()),
  device_info: Nullable(Type.String()),
  first_seen_at: When,
  last_used_at: When,
  sessions: Type.Integer(),
  active_sessions: Type.Integer(),
});

const AuditLog = Type.Object({
  id: Type.String(),
  event_type: Type.String(),
  severity: Type.String(),
  actor: Nullable(Type.Integer({ description: 'Who acted, when it was another account (an administrator)' })),
  application: Nullable(Type.Integer()),
  agent_token_id: Nullable(Type.Integer({ description: 'The agent token of an agent request (its id)' })),
  ip_address: Nullable(Type.String()),
  user_agent: Nullable(Type.String()),
  details: Type.Record(Type.String(), Type.Unknown()),
  created_at: When,
});

const Membership = Type.Object({
  organization: OrganizationRef,
  role: Type.Object({ code: Type.String(), name: Type.String() }),
  status: Type.String(),
  joined_at: When,
});

const Passkey = Type.Object({ id: Type.Integer(), name: Nullable(Type.String()), created_at: When, last_used_at: Nullable(When) });

const SocialAccount = Type.Object({
  id: Type.Integer(), provider: Type.String(), subject: Type.String({ description: "The provider's identifier of the person" }),
  email: Nullable(Type.String()), linked_at: When, last_login_at: Nullable(When),
});

const DeletionRequest = Type.Object({
  id: Type.Integer(),
  status: Type.String({ description: 'pending, confirmation_sent, confirmed, completed or cancelled' }),
  reason: Nullable(Type.String()),
  ip_address: Nullable(Type.String()),
  requested_at: When,
  confirmed_at: Nullable(When),
  grace_period_ends_at: When,
  completed_at: Nullable(When),
  cancelled_at: Nullable(When),
});

const RecordLimit = Type.Object({
  limit: Type.Integer({ description: 'At most this many of the most recent records are exported' }),
  truncated: Type.Boolean({ description: 'Older records exist beyond the limit' }),
});

const ExportMetadata = Type.Object({
  exported_at: When,
  export_format: Type.Literal('json'),
  total_records: Type.Integer({ description: 'The account itself plus every record of every list' }),
  data_retention_policy: Type.Object({
    description: Type.String(),
    deletion_grace_period_days: Type.Integer(),
    ended_sessions_days: Type.Integer(),
    login_attempts_days: Type.Integer(),
    audit_ip_addresses_purged_on_deletion: Type.Boolean(),
  }),
  record_limits: Type.Object({ audit_logs: RecordLimit, login_attempts: RecordLimit }),
});

/** The API's "Account deletion and export" (POST export-user-data/) and docs/decisions.md's added lists. */
export const ExportResponse = Type.Object({
  user_info: UserInfo,
  roles: Type.Array(Role),
  permissions: Type.Array(Permission),
  applications: Type.Array(Application),
  audit_logs: Type.Array(AuditLog),
  sessions: Type.Array(Session),
  devices: Type.Array(Device),
  login_attempts: Type.Array(LoginAttempt),
  organizations: Type.Array(Membership),
  passkeys: Type.Array(Passkey),
  social_accounts: Type.Array(SocialAccount),
  agent_tokens: Type.Array(AgentTokenRecord),
  deletion_requests: Type.Array(DeletionRequest),
  export_metadata: ExportMetadata,
});
export type ExportResponseBody = Static<typeof ExportResponse>;

export const toUserInfo = (u: UserInfoRow): Static<typeof UserInfo> => ({
  id: u.id, email: u.email, username: u.username, phone: u.phone, avatar: u.avatar, bio: u.bio, timezone: u.timezone,
  language: u.language, first_name: u.first_name, last_name: u.last_name, is_active: u.is_active,
  is_email_verified: u.is_email_verified, is_phone_verified: u.is_phone_verified, is_2fa_enabled: u.is_2fa_enabled,
  is_staff: u.is_staff, is_superuser: u.is_superuser, has_usable_password: u.has_usable_password,
  must_change_password: u.must_change_password, custom_fields: u.custom_fields, preferences: u.preferences,
  created_at: toIso(u.created_at)!, updated_at: toIso(u.updated_at)!, last_login: toIso(u.last_login),
});

export const toRole = (r: { id: number; code: string; name: string; description: string; assigned_at: Date }) => ({
  id: String(r.id), code: r.code, name: r.name, description: r.description, assigned_at: toIso(r.assigned_at)!,
});

export const toPermission = (p: { id: number; code: string; name: string; description: string; granted_at: Date | null }) => ({
  id: String(p.id), code: p.code, name: p.name, description: p.description, is_direct: p.granted_at !== null,
  granted_at: toIso(p.granted_at),
});

/**
 * An audit event about the person. One that another account wrote (an administrator's ban, an organization owner's
 * change) keeps its event but not that account's IP address and user agent: those are the other person's data, not
 * the exported person's (docs/privacy.md "Export").
 */
export const toAuditLog = (e: { id: number; event_type: string; severity: string; actor_id: number | null;
  application_id: number | null; agent_token_id: number | null; ip_address: string | null; user_agent: string | null;
  details: Record<string, unknown> | null; created_at: Date }, personId: number) => {
  const byAnother = e.actor_id !== null && e.actor_id !== personId;
  return {
    id: String(e.id), event_type: e.event_type, severity: e.severity, actor: e.actor_id, application: e.application_id,
    agent_token_id: e.agent_token_id, ip_address: byAnother ? null : e.ip_address, user_agent: byAnother ? null : e.user_agent,
    details: e.details ?? {}, created_at: toIso(e.created_at)!,
  };
};

export const toMembership = (m: { organization_id: number; organization_name: string; organization_slug: string;
  role_code: string; role_name: string; status: string; joined_at: Date }) => ({
  organization: { id: m.organization_id, name: m.organization_name, slug: m.organization_slug },
  role: { code: m.role_code, name: m.role_name }, status: m.status, joined_at: toIso(m.joined_at)!,
});

export const toDeletionRequest = (r: { id: number; status: string; reason: string | null; ip_address: string | null;
  requested_at: Date; confirmed_at: Date | null; grace_period_ends_at: Date; completed_at: Date | null; cancelled_at: Date | null }) => ({
  id: r.id, status: r.status, reason: r.reason, ip_address: r.ip_address, requested_at: toIso(r.requested_at)!,
  confirmed_at: toIso(r.confirmed_at), grace_period_ends_at: toIso(r.grace_period_ends_at)!, completed_at: toIso(r.completed_at),
  cancelled_at: toIso(r.cancelled_at),
});

export const toPasskey = (p: PasskeyRow) => ({
  id: p.id, name: p.name, created_at: toIso(p.created_at)!, last_used_at: toIso(p.last_used_at),
});

export const toSocialAccount = (s: SocialAccountRow) => ({
  id: s.id, provider: s.provider, subject: s.subject, email: s.email, linked_at: toIso(s.linked_at)!,
  last_login_at: toIso(s.last_login_at),
});
