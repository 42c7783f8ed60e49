import { sql } from 'kysely';
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

/**
 * Unlinks one identity of the account, only while the account keeps another way to sign in (a usable password or
 * another identity). Runs in the caller's transaction: the account row is locked first, and the deciding statement
 * starts after the lock is held, so it sees any parallel unlink that committed — two cannot remove the last two.
 * Answers `unlinked`, `last` (refused: it is the only way left) or `missing`.
 */
export async function unlinkIdentity(trx: Executor, userId: number, id: number): Promise<'unlinked' | 'last' | 'missing'> {
  await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  const { rows } = await sql<{ outcome: 'unlinked' | 'last' | 'missing' }>`
    with target as (
      select s.id from social_accounts s where s.id = ${id} and s.user_id = ${userId}
    ), removed as (
      delete from social_accounts s
      where s.id = (select id from target)
        and (exists (select 1 from users u where u.id = ${userId} and u.has_usable_password and u.password_hash is not null)
          or exists (select 1 from social_accounts o where o.user_id = ${userId} and o.id <> s.id))
      returning s.id
    )
    select case when exists (select 1 from removed) then 'unlinked'
      when exists (select 1 from target) then 'last' else 'missing' end as outcome`.execute(trx);
  return rows[0]!.outcome;
}
