import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

export type ProvenIdentifier = 'email' | 'phone';

const FLAG = { email: 'is_email_verified', phone: 'is_phone_verified' } as const;

/**
 * Marks the address verified and, when it was unverified on an account with a usable password, removes that password.
 * One statement on the row locked first (`for update` answers its latest version), so of two concurrent first proofs
 * of one account exactly one finds the password. Answers whether it was removed and the account's language; nothing
 * when the account no longer has this address.
 */
export function proveIdentifier(trx: Executor, userId: number, kind: ProvenIdentifier, value: string, now: Date) {
  const flag = sql.ref(FLAG[kind]);
  return trx
    .with('prior', (db) => db.selectFrom('users')
      .select(['id', sql<boolean>`not ${flag} and has_usable_password and password_hash is not null`.as('revoke')])
      .where('id', '=', userId).where(kind, '=', value).forUpdate())
    .updateTable('users')
    .from('prior')
    .set({
      [FLAG[kind]]: true,
      password_hash: sql<string | null>`case when prior.revoke then null else users.password_hash end`,
      has_usable_password: sql<boolean>`users.has_usable_password and not prior.revoke`,
      password_hash_unnormalized: sql<boolean>`users.password_hash_unnormalized and not prior.revoke`,
      updated_at: now,
    })
    .whereRef('users.id', '=', 'prior.id')
    .returning(['prior.revoke', 'users.language'])
    .executeTakeFirst();
}

