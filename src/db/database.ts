import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamp column with a database default (`now()`): optional on insert. */
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string | T | undefined, string | T>;

/** `confidential`: key and secret on every request; `public`: browser code, key only, pinned to its origins. */
export type ApplicationKind = 'confidential' | 'public';

export interface ApplicationsTable {
  id: Generated<number>;
  name: string;
  description: Generated<string>;
  kind: ColumnType<ApplicationKind, ApplicationKind | undefined, never>;
  access_key: string;
  /** SHA-256 of the secret; null for a public application, which has none. */
  secret_hash: string | null;
  is_active: Generated<boolean>;
  redirect_uris: Json<string[]>;
  allowed_origins: Json<string[]>;
  /** Where RP-initiated logout may send the person back (docs/oauth.md "Clients"). */
  post_logout_redirect_uris: Json<string[]>;
  created_by: number | null;
  /** Set on what `gatehouse seed` manages (`console`); null for an operator's application. */
  builtin: ColumnType<string | null, string | null | undefined, never>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
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
  /** The hash was made from the raw text, before passwords were normalized (NFKC): tried raw once, then upgraded. */
  password_hash_unnormalized: Generated<boolean>;
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
  /** Bumped by every new session in the same statement (see `signInStatement` in auth/login.repo.ts). */
  sessions_version: Generated<number>;
  max_sessions: number | null;
  max_devices: number | null;
  deleted_at: NullableTimestamp;
  /** When the confirmed deletion request's grace period ends; set only while one waits (the account is inactive). */
  deletion_scheduled_at: NullableTimestamp;
  /** Set while an administrator's deactivation holds the account inactive; only an administrator lifts it. */
  admin_deactivated_at: NullableTimestamp;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  last_login: NullableTimestamp;
}

export interface PermissionsTable {
  id: Generated<number>;
  code: string;
  name: string;
  description: Generated<string>;
  parent_id: number | null;
  is_system: Generated<boolean>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface RolesTable {
  id: Generated<number>;
  code: string;
  name: string;
  description: Generated<string>;
  is_default: Generated<boolean>;
  is_system: Generated<boolean>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface RolePermissionsTable {
  role_id: number;
  permission_id: number;
  created_at: DefaultTimestamp;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
  assigned_by: number | null;
  created_at: DefaultTimestamp;
}

export interface UserPermissionsTable {
  user_id: number;
  permission_id: number;
  granted_by: number | null;
  created_at: DefaultTimestamp;
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
  created_at: DefaultTimestamp;
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
  agent_token_id: ColumnType<number | null, number | null | undefined, number | null>;
  details: Json<Record<string, unknown>>;
  /** An agent activity row's place in its root token's trail (docs/agents.md "The trail"). */
  trail_seq: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: DefaultTimestamp;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  application_id: number | null;
  device_id: string;
  device_info: string | null;
  device_summary: string | null;
  ip_address: string | null;
  user_agent: string | null;
  created_at: DefaultTimestamp;
  last_used_at: DefaultTimestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  revoke_reason: string | null;
  /** `passkey` when the sign-in proved two factors with a passkey (user verification): the 2FA gate counts it. */
  second_factor: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the person last proved a credential interactively: the `auth_time` of the session's access tokens (null before 0022). */
  auth_time: NullableTimestamp;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  session_id: number;
  user_id: number;
  application_id: number | null;
  token_hash: string;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  last_used_at: NullableTimestamp;
  rotated_at: NullableTimestamp;
  replaced_by_id: number | null;
  revoked_at: NullableTimestamp;
  ip_address: string | null;
  device_info: string | null;
}

export interface TokenBlacklistTable {
  id: Generated<number>;
  jti: string;
  user_id: number | null;
  session_id: number | null;
  reason: string;
  blacklisted_at: DefaultTimestamp;
  expires_at: Timestamp;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  identifier: string;
  method: string;
  user_id: number | null;
  ip_address: string | null;
  application_id: number | null;
  success: boolean;
  failure_reason: string | null;
  created_at: DefaultTimestamp;
}

export interface IdentifierLockoutsTable {
  identifier: string;
  failed_count: Generated<number>;
  lockout_count: Generated<number>;
  locked_until: NullableTimestamp;
  updated_at: DefaultTimestamp;
}

export interface OutboxMessagesTable {
  id: Generated<number>;
  channel: 'email' | 'sms';
  recipient: string;
  purpose: string;
  language: Generated<string>;
  payload: string;
  dedup_key: string | null;
  status: Generated<'pending' | 'sending' | 'sent' | 'failed' | 'expired'>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  locked_until: NullableTimestamp;
  expires_at: Timestamp;
  last_error: string | null;
  created_at: DefaultTimestamp;
  sent_at: NullableTimestamp;
}

export type OtpPurpose = 'verify_email' | 'verify_phone' | 'password_change' | 'password_reset' | 'login';

export interface OtpCodesTable {
  id: string;
  user_id: number;
  purpose: OtpPurpose;
  channel: 'email' | 'sms';
  recipient: string;
  code_hmac: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  consumed_at: NullableTimestamp;
  created_at: DefaultTimestamp;
}

export interface PasswordHistoryTable {
  id: Generated<number>;
  user_id: number;
  password_hash: string;
  /** Made from the raw text, before passwords were normalized: compared raw as well. */
  unnormalized: Generated<boolean>;
  created_at: DefaultTimestamp;
}

export interface TotpCredentialsTable {
  user_id: number;
  /** AES-256-GCM sealed base32 secret, set once setup is confirmed. */
  secret_sealed: string | null;
  /** AES-256-GCM sealed base32 secret awaiting confirmation. */
  pending_secret_sealed: string | null;
  /** The last accepted time step: only later steps are accepted. */
  last_step: number | null;
  confirmed_at: NullableTimestamp;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface BackupCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  created_at: DefaultTimestamp;
  consumed_at: NullableTimestamp;
}

export interface MagicLinksTable {
  id: Generated<number>;
  user_id: number;
  /** The address the link was sent to: the link signs in only while the account still has it. */
  email: string;
  token_hash: string;
  application_id: number | null;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  consumed_at: NullableTimestamp;
}

export interface OrganizationsTable {
  id: Generated<number>;
  name: string;
  slug: string;
  description: Generated<string>;
  metadata: Json<Record<string, unknown>>;
  is_active: Generated<boolean>;
  /** 0: no limit. */
  max_members: Generated<number>;
  parent_id: number | null;
  /** Materialized path: the ids of every ancestor, the root first; its length is the depth. */
  ancestor_ids: ColumnType<number[], number[] | undefined, number[]>;
  created_by: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface OrganizationMembersTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  org_role_id: number;
  status: Generated<string>;
  invited_by: number | null;
  joined_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface OrganizationInvitationsTable {
  id: Generated<number>;
  organization_id: number;
  email: string;
  org_role_id: number;
  token_hash: string;
  status: Generated<string>;
  invited_by: number | null;
  accepted_by: number | null;
  expires_at: Timestamp;
  created_at: DefaultTimestamp;
  responded_at: NullableTimestamp;
}

/** Decimal amounts come back as exact strings; they are written as strings too. */
type Decimal = ColumnType<string, string | undefined, string>;
type NullableDecimal = ColumnType<string | null, string | null | undefined, string | null>;

export type AgentTokenStatus = 'ACTIVE' | 'SUSPENDED' | 'REVOKED' | 'EXPIRED';

export interface AgentTokensTable {
  id: Generated<number>;
  user_id: number;
  organization_id: number | null;
  agent_id: string;
  token_hash: string;
  status: ColumnType<AgentTokenStatus, AgentTokenStatus | undefined, AgentTokenStatus>;
  suspended_reason: string | null;
  granted_permissions: string[];
  expires_at: Timestamp;
  max_requests_per_minute: number;
  max_requests_total: ColumnType<number, number, number>;
  max_failed_requests: number;
  heartbeat_required_every: number | null;
  budget_limit_usd: NullableDecimal;
  request_count: Generated<number>;
  window_started_at: NullableTimestamp;
  window_count: Generated<number>;
  failed_count: Generated<number>;
  spend_usd: Decimal;
  prompt_tokens: Generated<number>;
  completion_tokens: Generated<number>;
  last_heartbeat_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
  status_changed_at: NullableTimestamp;
  /** Set on the delegation behind an OAuth grant (docs/oauth.md "Grants and ai/authorize/"): no one holds its token. */
  oauth_grant_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The token this one was delegated from (docs/agents.md "Delegation"); null for a token its person created. */
  parent_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** 1 for a token its person created, the parent's + 1 for a child. */
  depth: ColumnType<number, number | undefined, number>;
  /** The ancestors' ids, from the root to the parent. */
  ancestor_ids: ColumnType<number[], number[] | undefined, number[]>;
  can_delegate: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

/** The last row of a root token's trail (docs/agents.md "The trail"): appends lock it, so one root's appends queue. */
export interface AgentTrailHeadsTable {
  root_token_id: number;
  seq: ColumnType<number, number | undefined, number>;
  hash: string | null;
}

/** One row of a root token's hash chain. `at` is kept as hashed (ISO 8601, UTC, milliseconds). */
export interface AgentTrailTable {
  root_token_id: number;
  seq: number;
  token_id: number;
  type: string;
  at: string;
  data: Json<Record<string, unknown>>;
  prev_hash: string | null;
  hash: string;
}

/** Token events and pending-action decisions queued by triggers, waiting to be hashed into their root's trail. */
export interface AgentTrailQueueTable {
  id: Generated<number>;
  root_token_id: number;
  token_id: number;
  type: string;
  at: Timestamp;
  data: Json<Record<string, unknown>>;
}

export type PendingActionStatus = 'pending' | 'approved' | 'rejected' | 'executed';

export interface AgentPendingActionsTable {
  id: Generated<number>;
  agent_token_id: number;
  user_id: number;
  confirmation_hash: string;
  token_nonce: string;
  permission: string | null;
  method: string;
  path: string;
  org_slug: string | null;
  body_sha256: string;
  payload: Json<unknown> | null;
  prompt_trace_id: string | null;
  status: ColumnType<PendingActionStatus, PendingActionStatus | undefined, PendingActionStatus>;
  expires_at: Timestamp;
  created_at: DefaultTimestamp;
  decided_at: NullableTimestamp;
  executed_at: NullableTimestamp;
}

export type DeletionStatus = 'pending' | 'confirmation_sent' | 'confirmed' | 'completed' | 'cancelled';

export interface AccountDeletionRequestsTable {
  id: Generated<number>;
  user_id: number;
  /** Blanked once the request is completed (after the final email is queued). */
  user_email: string | null;
  status: ColumnType<DeletionStatus, DeletionStatus | undefined, DeletionStatus>;
  reason: string | null;
  ip_address: string | null;
  /** SHA-256 of the emailed confirmation token; cleared once used. */
  confirmation_hash: string | null;
  confirmation_expires_at: NullableTimestamp;
  /** The outbox message carrying the token: its delivery moves the request to `confirmation_sent`. */
  confirmation_message_id: number | null;
  /** A reference to the request, not a credential (docs/privacy.md "The lifecycle"). */
  cancellation_token: string;
  requested_at: DefaultTimestamp;
  confirmed_at: NullableTimestamp;
  grace_period_ends_at: Timestamp;
  completed_at: NullableTimestamp;
  cancelled_at: NullableTimestamp;
  admin_notes: string | null;
  processed_by: number | null;
  /** Failed completion attempts (the job retries on its next run). */
  attempts: Generated<number>;
  last_error: string | null;
}

export interface SocialAccountsTable {
  id: Generated<number>;
  user_id: number;
  /** The configured provider name (`google`, never the `provider_a` alias). */
  provider: string;
  /** The provider's stable identifier of the person: the identity. */
  subject: string;
  /** The verified address the provider gave, when it gave one. */
  email: string | null;
  linked_at: DefaultTimestamp;
  last_login_at: NullableTimestamp;
}

export interface SocialLoginStatesTable {
  id: Generated<number>;
  /** SHA-256 of the `state` parameter. */
  state_hash: string;
  /** SHA-256 of the cookie set on the browser that started the flow. */
  cookie_hash: string;
  provider: string;
  /** The application and redirect URI the browser goes back to; null for a sign-in on the authorization server's page. */
  application_id: number | null;
  redirect_uri: string | null;
  /** The authorization server's interaction the sign-in finishes (docs/oauth.md "Sign-in and consent"). */
  oauth_interaction: string | null;
  /** The PKCE verifier, sealed (AES-256-GCM): it is sent to the provider with the code. */
  code_verifier_sealed: string;
  nonce: string | null;
  expires_at: Timestamp;
  consumed_at: NullableTimestamp;
  created_at: DefaultTimestamp;
}

export interface SocialMfaTokensTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  provider: string;
  application_id: number | null;
  expires_at: Timestamp;
  consumed_at: NullableTimestamp;
  created_at: DefaultTimestamp;
}

export interface WebauthnCredentialsTable {
  id: Generated<number>;
  user_id: number;
  /** base64url, as the browser names it. */
  credential_id: string;
  /** The COSE public key. */
  public_key: Buffer;
  /** base64url of the `user.id` given at registration, answered back as `userHandle` by discoverable credentials. */
  user_handle: string;
  sign_count: ColumnType<number, number | undefined, number>;
  transports: ColumnType<string[], string[] | undefined, string[]>;
  device_name: ColumnType<string, string | undefined, string>;
  device_type: 'singleDevice' | 'multiDevice';
  backed_up: ColumnType<boolean, boolean | undefined, boolean>;
  authenticator_type: 'platform' | 'cross-platform' | null;
  is_resident_key: ColumnType<boolean, boolean | undefined, boolean>;
  aaguid: string | null;
  is_active: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: DefaultTimestamp;
  last_used_at: NullableTimestamp;
}

export interface WebauthnChallengesTable {
  id: Generated<number>;
  /** SHA-256 of the challenge: the challenge itself only travels in the begin answer. */
  challenge_hash: string;
  purpose: 'register' | 'authenticate';
  /** Null for a resident-key sign-in, where the authenticator names the account. */
  user_id: number | null;
  /** Registration: the `user.id` the options gave (base64url), recorded with the credential. */
  user_handle: string | null;
  user_verification: 'required' | 'preferred';
  application_id: number | null;
  expires_at: Timestamp;
  consumed_at: NullableTimestamp;
  created_at: DefaultTimestamp;
}

/** An uploaded avatar (docs/authentication.md "Profile"): at most one per account, replaced whole. */
export interface AvatarsTable {
  id: Generated<number>;
  user_id: number;
  /** `<32 random hex>.<ext>`, the last segment of its URL: never the client's file name. */
  name: string;
  content_type: 'image/png' | 'image/jpeg' | 'image/webp';
  /** PostgreSQL's driver reads a Buffer, PGlite a Uint8Array. */
  bytes: Uint8Array;
  created_at: DefaultTimestamp;
}

/**
 * An asymmetric access-token signing key (docs/resource-servers.md "Rotation: what a resource server sees"): signing until `superseded_at`, then
 * verifying until `verifies_until`, then retired (neither published nor accepted).
 */
export interface SigningKeysTable {
  id: Generated<number>;
  /** RFC 7638 thumbprint of the public key. */
  kid: string;
  algorithm: 'EdDSA' | 'ES256' | 'RS256';
  public_jwk: Json<Record<string, string>>;
  /** PKCS#8 PEM sealed with AES-256-GCM under a key derived from `SVC_ENCRYPTION_KEY` (security/seal.ts). */
  private_key_sealed: string;
  created_at: DefaultTimestamp;
  activated_at: Timestamp;
  superseded_at: NullableTimestamp;
  verifies_until: NullableTimestamp;
  /** What the key signs: access tokens, or the OpenID Provider's tokens (docs/resource-servers.md "The OpenID Provider's keys"). */
  purpose: Generated<'access' | 'oauth' | 'trail'>;
}

/**
 * One record of the OpenID Provider (docs/oauth.md "Storage"): a code, token, grant, session, interaction or registered
 * client, found by the SHA-256 of its id; the payload never holds the id itself.
 */
export interface OauthRecordsTable {
  model: string;
  id_hash: string;
  payload: Json<Record<string, unknown>>;
  grant_id: string | null;
  uid: string | null;
  /** The person a grant, token or session belongs to. */
  account_id: number | null;
  expires_at: NullableTimestamp;
  consumed_at: NullableTimestamp;
}

/** An API that accepts Gatehouse's OAuth access tokens (docs/oauth.md "Resources"). */
export interface OauthResourcesTable {
  id: Generated<number>;
  uri: string;
  name: string;
  scopes: Json<string[]>;
  /** Its credentials for introspection: the secret is stored as SHA-256. */
  client_id: string;
  secret_hash: string;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

/** A webhook subscription (docs/webhooks.md). The signing secret is kept sealed: it must be recovered to sign. */
export interface WebhooksTable {
  id: Generated<number>;
  url: string;
  description: Generated<string>;
  /** Event types subscribed to, a JSON array of strings. */
  events: Json<string[]>;
  is_active: Generated<boolean>;
  /** `whsec_…` sealed with AES-256-GCM (security/seal.ts): never stored in clear, never answered after creation. */
  secret_sealed: string;
  created_by: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

/**
 * Values sealed with the encryption key itself rather than data (modules/encryption): `key-check`, a known text whose
 * opening proves the key at start-up, and `backup-code-key`, the HMAC key of the backup codes.
 */
export interface SealedValuesTable {
  name: 'key-check' | 'backup-code-key';
  sealed: string;
  updated_at: DefaultTimestamp;
}

/**
 * One row: a new random `version` with every change to roles, permissions or role_permissions, made by a trigger in the
 * changing transaction (modules/rbac/permission-graph.ts).
 */
export interface PermissionGraphVersionTable {
  id: Generated<number>;
  version: string;
}

/** A fixed-window request counter shared by the instances when Redis does not hold it (http/rate-limit.ts). */
export interface RateLimitCountersTable {
  /** `<prefix>rl:<limit name>:<window ms>:<client IP>`, as the Redis key. */
  key: string;
  count: number;
  window_ends: Date;
}

/** One invitation sent: what the per-inviter and per-organization limits count (docs/organizations.md). */
export interface InvitationSendsTable {
  inviter_id: number;
  organization_id: number;
  sent_at: Timestamp;
}

export type WebhookDeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed';

/** One event for one webhook: the outbox row, retried with backoff until delivered or given up. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  /** The `webhook-id` header: the same on every attempt and replay of this event. */
  event_id: string;
  type: string;
  /** The event's `data` (never a secret, code or token). */
  payload: Json<Record<string, unknown>>;
  /** The account the event is about, so that its deletion can scrub the stored payloads. */
  user_id: number | null;
  status: Generated<WebhookDeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: NullableTimestamp;
  locked_until: NullableTimestamp;
  last_status_code: number | null;
  last_error: string | null;
  replay_of: number | null;
  created_at: Timestamp;
  delivered_at: NullableTimestamp;
}

/** One attempt at a delivery, as the deliveries list shows it: never the receiver's answer body. */
export interface WebhookDeliveryAttemptsTable {
  delivery_id: number;
  /** 1 for the first attempt: the delivery's `attempts` when it was made. */
  attempt: number;
  attempted_at: Timestamp;
  /** The receiver's HTTP status, or null when there was no answer (see `error`). */
  status_code: number | null;
  /** Why the attempt failed (`HTTP 500`, `connect ECONNREFUSED …`, `refused: …`), or null when it was delivered. */
  error: string | null;
  duration_ms: number;
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
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  token_blacklist: TokenBlacklistTable;
  login_attempts: LoginAttemptsTable;
  identifier_lockouts: IdentifierLockoutsTable;
  outbox_messages: OutboxMessagesTable;
  otp_codes: OtpCodesTable;
  magic_links: MagicLinksTable;
  totp_credentials: TotpCredentialsTable;
  backup_codes: BackupCodesTable;
  password_history: PasswordHistoryTable;
  organizations: OrganizationsTable;
  organization_members: OrganizationMembersTable;
  organization_invitations: OrganizationInvitationsTable;
  agent_tokens: AgentTokensTable;
  agent_trail_heads: AgentTrailHeadsTable;
  agent_trail: AgentTrailTable;
  agent_trail_queue: AgentTrailQueueTable;
  agent_pending_actions: AgentPendingActionsTable;
  account_deletion_requests: AccountDeletionRequestsTable;
  social_accounts: SocialAccountsTable;
  social_login_states: SocialLoginStatesTable;
  social_mfa_tokens: SocialMfaTokensTable;
  webauthn_credentials: WebauthnCredentialsTable;
  webauthn_challenges: WebauthnChallengesTable;
  avatars: AvatarsTable;
  signing_keys: SigningKeysTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  rate_limit_counters: RateLimitCountersTable;
  invitation_sends: InvitationSendsTable;
  sealed_values: SealedValuesTable;
  permission_graph_version: PermissionGraphVersionTable;
  oauth_records: OauthRecordsTable;
  oauth_resources: OauthResourcesTable;
}

export type Db = Kysely<DatabaseSchema>;
export type Trx = Transaction<DatabaseSchema>;
export type Executor = Db | Trx;

export type Row<T extends keyof DatabaseSchema> = Selectable<DatabaseSchema[T]>;
export type NewRow<T extends keyof DatabaseSchema> = Insertable<DatabaseSchema[T]>;
export type RowUpdate<T extends keyof DatabaseSchema> = Updateable<DatabaseSchema[T]>;
