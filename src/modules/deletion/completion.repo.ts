import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

/**
 * The erasure of an account (docs/decisions.md "Account deletion"): the one place that knows every table
 * holding a person's data, so a reviewer reads the whole of it here and a new table adds one step to `ERASURE_STEPS`.
 * Every function runs inside the completion's transaction.
 */

const REQUEST_COLUMNS = ['id', 'user_id', 'status'] as const;

/** The request, locked until the transaction ends: a concurrent completion or cancellation waits, then sees the result. */
export const lockRequest = (trx: Executor, id: number) =>
  trx.selectFrom('account_deletion_requests').select(REQUEST_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();

/** The request if it is still confirmed and due and no other instance holds it; undefined ⇒ skip it. */
export const lockDueRequest = (trx: Executor, id: number, now: Date) =>
  trx.selectFrom('account_deletion_requests').select(REQUEST_COLUMNS)
    .where('id', '=', id).where('status', '=', 'confirmed').where('grace_period_ends_at', '<=', now)
    .forUpdate().skipLocked().executeTakeFirst();

export type LockedRequest = NonNullable<Awaited<ReturnType<typeof lockRequest>>>;

/** Confirmed requests whose grace period has ended, the longest overdue first. */
export const listDueRequests = (db: Executor, now: Date, limit: number) =>
  db.selectFrom('account_deletion_requests').select(['id', 'user_id'])
    .where('status', '=', 'confirmed').where('grace_period_ends_at', '<=', now)
    .orderBy('grace_period_ends_at').orderBy('id').limit(limit).execute();

/** A completion that failed (and was rolled back): counted, its reason kept, retried by the next run. */
export const recordFailure = (db: Executor, id: number, error: string) =>
  db.updateTable('account_deletion_requests').set({ attempts: sql`attempts + 1`, last_error: error })
    .where('id', '=', id).where('status', '=', 'confirmed').execute();

/** Where the last message goes, read (and the account locked) before anything is erased. */
export const lockAccount = (trx: Executor, userId: number) =>
  trx.selectFrom('users').select(['id', 'email', 'phone', 'language']).where('id', '=', userId).forUpdate().executeTakeFirst();

export const requestEmailsOf = (trx: Executor, userId: number) =>
  trx.selectFrom('account_deletion_requests').select('user_email').where('user_id', '=', userId)
    .where('user_email', 'is not', null).execute().then((rows) => rows.map((r) => r.user_email!));

export interface ErasureSubject {
  userId: number;
  /** Every former email address (lower-cased) and phone of the account: its rows elsewhere are found by them. */
  identifiers: string[];
  anonymizedEmail: string;
  now: Date;
}

type ErasureStep = (trx: Executor, s: ErasureSubject) => Promise<unknown>;

/**
 * `column` holds one of the identifiers (an empty list matches nothing). Addresses are stored lower-cased everywhere
 * (docs/decisions.md "Account deletion": login attempts), so plain equality finds them, through the columns' indexes.
 */
const isIdentifier = (column: string, identifiers: string[]) => sql<boolean>`${sql.ref(column)} = any(${identifiers}::text[])`;

/** The audit events that record someone else's address in their details (an invitation's `email`). */
const ADDRESS_EVENT_TYPES = ['organization_invitation_created', 'organization_invitation_revoked', 'organization_invitation_accepted',
  'organization_invitation_declined'] as const;

/** What stays of the account row: its id, dates and flags, under a name that identifies nobody. */
const anonymizeAccount: ErasureStep = (trx, { userId, anonymizedEmail, now }) =>
  trx.updateTable('users').set({
    email: anonymizedEmail, username: null, phone: null, first_name: 'Deleted', last_name: 'User', avatar: null, bio: null,
    timezone: null, language: null, custom_fields: null, password_hash: null, password_hash_unnormalized: false,
    has_usable_password: false, is_2fa_enabled: false, is_email_verified: false, is_phone_verified: false,
    is_active: false, is_staff: false, is_superuser: false, ban_reason: null, locked_until: null, failed_login_count: 0,
    lockout_count: 0, must_change_password: false, tokens_valid_after: new Date(Math.floor(now.getTime() / 1000) * 1000),
    deleted_at: now, deletion_scheduled_at: null, updated_at: now,
  }).where('id', '=', userId).execute();

const deleteCredentials: ErasureStep = async (trx, { userId }) => {
  await trx.deleteFrom('totp_credentials').where('user_id', '=', userId).execute();
  await trx.deleteFrom('backup_codes').where('user_id', '=', userId).execute();
  await trx.deleteFrom('password_history').where('user_id', '=', userId).execute();
  await trx.deleteFrom('otp_codes').where('user_id', '=', userId).execute();
  await trx.deleteFrom('magic_links').where('user_id', '=', userId).execute();
  await trx.deleteFrom('webauthn_credentials').where('user_id', '=', userId).execute();
  await trx.deleteFrom('webauthn_challenges').where('user_id', '=', userId).execute();
};

/** Session rows hold IP addresses, user agents and device descriptions: removed, not just revoked. */
const deleteSessions: ErasureStep = async (trx, { userId }) => {
  await trx.deleteFrom('refresh_tokens').where('user_id', '=', userId).execute();
  await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
};

/** Social-login identities link the account to a person at a provider; the browser flow's hand-over tokens go too. */
const deleteSocialIdentities: ErasureStep = async (trx, { userId }) => {
  await trx.deleteFrom('social_mfa_tokens').where('user_id', '=', userId).execute();
  await trx.deleteFrom('social_accounts').where('user_id', '=', userId).execute();
};

/** An uploaded avatar (docs/authentication.md "Profile"): the account row's URL of it is cleared above, the image itself goes here. */
const deleteAvatar: ErasureStep = (trx, { userId }) => trx.deleteFrom('avatars').where('user_id', '=', userId).execute();

const deleteAgentTokens: ErasureStep = async (trx, { userId }) => {
  await trx.deleteFrom('agent_pending_actions').where('user_id', '=', userId).execute();
  await trx.deleteFrom('agent_tokens').where('user_id', '=', userId).execute();
};

const deleteGrants: ErasureStep = async (trx, { userId }) => {
  await trx.deleteFrom('user_roles').where('user_id', '=', userId).execute();
  await trx.deleteFrom('user_permissions').where('user_id', '=', userId).execute();
};

/** Memberships and invitations to the person go; invitations the person sent and nobody answered are revoked. */
const leaveOrganizations: ErasureStep = async (trx, { userId, identifiers, now }) => {
  await trx.deleteFrom('organization_members').where('user_id', '=', userId).execute();
  await trx.deleteFrom('organization_invitations')
    .where((eb) => eb.or([isIdentifier('email', identifiers), eb('accepted_by', '=', userId)])).execute();
  await trx.updateTable('organization_invitations').set({ status: 'revoked', responded_at: now })
    .where('invited_by', '=', userId).where('status', '=', 'pending').execute();
};

/** Sign-in records stay for the statistics, under the anonymized address and without their IP address. */
const anonymizeLoginAttempts: ErasureStep = async (trx, { userId, identifiers, anonymizedEmail }) => {
  await trx.updateTable('login_attempts').set({ identifier: anonymizedEmail, ip_address: null })
    .where((eb) => eb.or([eb('user_id', '=', userId), isIdentifier('identifier', identifiers)])).execute();
  await trx.deleteFrom('identifier_lockouts').where(isIdentifier('identifier', identifiers)).execute();
};

/** Messages still waiting for the former address or phone (the last one is queued after this step). */
const deleteMessages: ErasureStep = (trx, { identifiers }) =>
  trx.deleteFrom('outbox_messages').where(isIdentifier('recipient', identifiers)).execute();

/**
 * Audit rows are kept with the user id, but an address or phone recorded in their details (an invitation's
 * `email`, for instance) is replaced wherever it appears, inside a longer text too. Only the rows by or about the
 * person and the event types that record addresses are searched, through indexes: never the whole trail.
 */
const scrubAuditDetails: ErasureStep = async (trx, { userId, identifiers, anonymizedEmail }) => {
  for (const value of identifiers) {
    const jsonText = JSON.stringify(value).slice(1, -1);
    const pattern = jsonText.replace(/[.^$*+?()[\]{}|\\]/g, '\\$&');
    const replacement = value.includes('@') ? anonymizedEmail : '[deleted]';
    await trx.updateTable('audit_events')
      .set({ details: sql`regexp_replace(details::text, ${pattern}, ${replacement}, 'gi')::jsonb` })
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('actor_id', '=', userId), eb('event_type', 'in', ADDRESS_EVENT_TYPES)]))
      .where(sql<boolean>`strpos(lower(details::text), ${jsonText.toLowerCase()}) > 0`).execute();
  }
};

/** The steps, in order. The deletion request's own contacts are forgotten last, after the final message is queued. */
export const ERASURE_STEPS: readonly ErasureStep[] = [
  anonymizeAccount, deleteCredentials, deleteSessions, deleteSocialIdentities, deleteAgentTokens, deleteGrants, leaveOrganizations,
  anonymizeLoginAttempts, deleteMessages, scrubAuditDetails, deleteAvatar,
];

/** SVC_PURGE_IP_ON_DELETION: the IP address and user agent of every audit row by or about the person. */
export const purgeAuditOrigins = (trx: Executor, userId: number) =>
  trx.updateTable('audit_events').set({ ip_address: null, user_agent: null })
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('actor_id', '=', userId)])).execute();

/** Every request of the account forgets the address and IP address it recorded. */
export const forgetRequestContacts = (trx: Executor, userId: number) =>
  trx.updateTable('account_deletion_requests').set({ user_email: null, ip_address: null }).where('user_id', '=', userId).execute();

export const markCompleted = (trx: Executor, id: number, v: { now: Date; processedBy: number | null; adminNotes: string | null }) =>
  trx.updateTable('account_deletion_requests')
    .set({ status: 'completed', completed_at: v.now, processed_by: v.processedBy, admin_notes: v.adminNotes, confirmation_hash: null })
    .where('id', '=', id).execute();
