import type { Executor } from '../../db/database.js';

export type Purpose = 'register' | 'authenticate';

export const insertChallenge = (db: Executor, row: { challengeHash: string; purpose: Purpose; userId: number | null;
  userHandle?: string; userVerification: 'required' | 'preferred'; applicationId: number | null; expiresAt: Date }) =>
  db.insertInto('webauthn_challenges').values({
    challenge_hash: row.challengeHash, purpose: row.purpose, user_id: row.userId, user_handle: row.userHandle ?? null,
    user_verification: row.userVerification,
    application_id: row.applicationId, expires_at: row.expiresAt,
  }).returning('id').executeTakeFirstOrThrow();

/**
 * Consumes a challenge in one statement: the one whose hash the browser signed, of this ceremony, unexpired, unused,
 * and the `challenge_id` (and, for a registration, the account) given. A second use, a challenge of the other
 * ceremony, of another account or an expired one finds nothing.
 */
export const consumeChallenge = (db: Executor, c: { challengeHash: string; purpose: Purpose; id?: number | undefined;
  userId?: number; now: Date }) => {
  let q = db.updateTable('webauthn_challenges').set({ consumed_at: c.now })
    .where('challenge_hash', '=', c.challengeHash).where('purpose', '=', c.purpose)
    .where('consumed_at', 'is', null).where('expires_at', '>', c.now);
  if (c.id !== undefined) q = q.where('id', '=', c.id);
  if (c.userId !== undefined) q = q.where('user_id', '=', c.userId);
  return q.returning(['id', 'user_id', 'user_handle', 'user_verification', 'application_id']).executeTakeFirst();
};

export type ConsumedChallenge = NonNullable<Awaited<ReturnType<typeof consumeChallenge>>>;
