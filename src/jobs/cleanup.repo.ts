import type { Executor } from '../db/database.js';

/**
 * The cleanup job's deletions, one per table: each removes the rows past the cutoff it is given and answers how many
 * it removed. The job decides the cutoffs (docs/privacy.md); these only delete.
 */
const removed = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);

export const deleteExpiredBlacklistEntries = async (db: Executor, now: Date) =>
  removed(await db.deleteFrom('token_blacklist').where('expires_at', '<', now).executeTakeFirst());

/** Sessions that expired or were revoked before the cutoff; their refresh tokens go with them. */
export const deleteEndedSessions = async (db: Executor, cutoff: Date) =>
  removed(await db.deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)])).executeTakeFirst());

export const deleteLoginAttemptsBefore = async (db: Executor, cutoff: Date) =>
  removed(await db.deleteFrom('login_attempts').where('created_at', '<', cutoff).executeTakeFirst());

/** Failure counters of unknown identifiers untouched since the cutoff, unless they still hold a lock. */
export const deleteStaleLockouts = async (db: Executor, cutoff: Date, now: Date) =>
  removed(await db.deleteFrom('identifier_lockouts')
    .where('updated_at', '<', cutoff)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)])).executeTakeFirst());

export const deleteOtpCodesExpiredBefore = async (db: Executor, cutoff: Date) =>
  removed(await db.deleteFrom('otp_codes').where('expires_at', '<', cutoff).executeTakeFirst());

export const deleteMagicLinksExpiredBefore = async (db: Executor, cutoff: Date) =>
  removed(await db.deleteFrom('magic_links').where('expires_at', '<', cutoff).executeTakeFirst());

export const deleteSocialLoginStatesExpiredBefore = async (db: Executor, cutoff: Date) =>
  removed(await db.deleteFrom('social_login_states').where('expires_at', '<', cutoff).executeTakeFirst());

export const deleteSocialMfaTokensExpiredBefore = async (db: Executor, cutoff: Date) =>
  removed(await db.deleteFrom('social_mfa_tokens').where('expires_at', '<', cutoff).executeTakeFirst());

export const deleteWebauthnChallengesExpiredBefore = async (db: Executor, cutoff: Date) =>
  removed(await db.deleteFrom('webauthn_challenges').where('expires_at', '<', cutoff).executeTakeFirst());

export const deleteEndedRateLimitCounters = async (db: Executor, now: Date) =>
  removed(await db.deleteFrom('rate_limit_counters').where('window_ends', '<', now).executeTakeFirst());

export const deleteInvitationSendsBefore = async (db: Executor, cutoff: Date) =>
  removed(await db.deleteFrom('invitation_sends').where('sent_at', '<', cutoff).executeTakeFirst());

/** The authorization server's records past their expiry: codes, tokens, grants, sessions and page states. */
export const deleteExpiredOauthRecords = async (db: Executor, now: Date) =>
  removed(await db.deleteFrom('oauth_records').where('expires_at', '<', now).executeTakeFirst());
