import type { Executor } from '../../db/database.js';

const COLUMNS = ['id', 'provider', 'email', 'linked_at', 'last_login_at'] as const;

/** A page of the account's identities, the oldest link first, and their number. */
export async function listIdentities(db: Executor, userId: number, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    db.selectFrom('social_accounts').select(COLUMNS).where('user_id', '=', userId)
      .orderBy('linked_at').orderBy('id').limit(limit).offset(offset).execute(),
    db.selectFrom('social_accounts').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export type IdentityRow = Awaited<ReturnType<typeof listIdentities>>['rows'][number];
