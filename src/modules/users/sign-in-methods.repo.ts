import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

/** The ways into an account besides its password, each a table of rows owned by the account. */
const TABLES = { social: 'social_accounts', passkey: 'webauthn_credentials' } as const;

/**
 * Removes one social identity or passkey of the account, only while the account keeps another way to sign in: a
 * usable password, a social identity or an active passkey other than this one (400 LAST_LOGIN_METHOD otherwise). Runs
 * in the caller's transaction: the account row is locked first, and the deciding statement starts after the lock is
 * held, so it sees any parallel removal that committed — two cannot remove the last two. Answers `removed`, `last`
 * (refused: it is the only way left) or `missing` (no such row of this account).
 */
export async function removeSignInMethod(trx: Executor, kind: keyof typeof TABLES, userId: number, id: number):
  Promise<'removed' | 'last' | 'missing'> {
  await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  const { rows } = await sql<{ outcome: 'removed' | 'last' | 'missing' }>`
    with target as (
      select t.id from ${sql.table(TABLES[kind])} t where t.id = ${id} and t.user_id = ${userId}
    ), removed as (
      delete from ${sql.table(TABLES[kind])} t
      where t.id = (select id from target)
        and (exists (select 1 from users u where u.id = ${userId} and u.has_usable_password and u.password_hash is not null)
          or exists (select 1 from social_accounts s where s.user_id = ${userId} and s.id <> ${kind === 'social' ? id : -1})
          or exists (select 1 from webauthn_credentials w where w.user_id = ${userId} and w.is_active
            and w.id <> ${kind === 'passkey' ? id : -1}))
      returning t.id
    )
    select case when exists (select 1 from removed) then 'removed'
      when exists (select 1 from target) then 'last' else 'missing' end as outcome`.execute(trx);
  return rows[0]!.outcome;
}
