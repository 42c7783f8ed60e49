import type { LoginUser } from './users.repo.js';

/**
 * Inactive, banned and deleted accounts sign in by no method and are sent no codes or links. An account inactive only
 * because its deletion is confirmed still signs in, with a `deletion_pending` token (docs/decisions.md "Account deletion").
 */
export const canSignIn = (u: Pick<LoginUser, 'is_active' | 'is_banned' | 'deleted_at' | 'deletion_scheduled_at'>): boolean =>
  (u.is_active || u.deletion_scheduled_at !== null) && !u.is_banned && u.deleted_at === null;

/** The account waits for its deletion: a sign-in gets a `deletion_pending` token and no refresh token. */
export const isDeletionPending = (u: Pick<LoginUser, 'deletion_scheduled_at'>): boolean => u.deletion_scheduled_at !== null;

/** Why an account cannot sign in, as its login attempt records it. */
export const failureReasonOf = (u: Pick<LoginUser, 'is_banned' | 'deleted_at'>) =>
  u.is_banned ? 'banned' : u.deleted_at !== null ? 'deleted' : 'inactive';
