import { sql } from 'kysely';
import type { Executor, NewRow } from '../../db/database.js';

/** What a stored key signs: access tokens, or the OpenID Provider's tokens (docs/resource-servers.md). */
/** What a stored key signs: access tokens, the OpenID Provider's tokens, or (under HS256) the agent trail's checkpoints. */
export type KeyPurpose = 'access' | 'oauth' | 'trail';
export const KEY_PURPOSES: readonly KeyPurpose[] = ['access', 'oauth', 'trail'];

const KEY_COLUMNS = ['kid', 'algorithm', 'purpose', 'public_jwk', 'private_key_sealed', 'created_at', 'activated_at', 'superseded_at',
  'verifies_until'] as const;

/** Every stored key of one purpose, oldest first, with its sealed private part (read only by the key service, to sign). */
export const listSigningKeys = (db: Executor, purpose: KeyPurpose) =>
  db.selectFrom('signing_keys').select(KEY_COLUMNS).where('purpose', '=', purpose).orderBy('id').execute();

export type SigningKeyRow = Awaited<ReturnType<typeof listSigningKeys>>[number];

/**
 * For each purpose, what changes with every rotation (and when the table is emptied): the number of keys and the
 * signing key's kid. Read often by every instance, so it reads no key material; one query for both sets.
 */
export async function keysVersions(db: Executor): Promise<Record<KeyPurpose, string>> {
  const rows = await db.selectFrom('signing_keys')
    .select((eb) => ['purpose', eb.fn.countAll<number>().as('count'),
      sql<string | null>`max(kid) filter (where superseded_at is null)`.as('active')])
    .groupBy('purpose').execute();
  const versionOf = (purpose: KeyPurpose) => {
    const row = rows.find((r) => r.purpose === purpose);
    return `${Number(row?.count ?? 0)}:${row?.active ?? ''}`;
  };
  return { access: versionOf('access'), oauth: versionOf('oauth'), trail: versionOf('trail') };
}

// An arbitrary constant naming the signing-key lock among the application's advisory locks.
const SIGNING_KEYS_LOCK = 0x6b657973;

/** One key change at a time across instances: the second instance starting at once finds the first one's key. */
export const lockSigningKeys = (trx: Executor) => sql`select pg_advisory_xact_lock(${SIGNING_KEYS_LOCK})`.execute(trx);

export const findActiveKey = (db: Executor, purpose: KeyPurpose) =>
  db.selectFrom('signing_keys').select(KEY_COLUMNS).where('purpose', '=', purpose).where('superseded_at', 'is', null)
    .executeTakeFirst();

/** Ends the signing key's turn: it verifies until `verifiesUntil`. Returns its kid, or undefined when none was signing. */
export const supersedeActiveKey = (trx: Executor, purpose: KeyPurpose, at: Date, verifiesUntil: Date) =>
  trx.updateTable('signing_keys').set({ superseded_at: at, verifies_until: verifiesUntil })
    .where('purpose', '=', purpose).where('superseded_at', 'is', null).returning(['kid']).executeTakeFirst();

export const insertSigningKey = (trx: Executor, row: NewRow<'signing_keys'>) =>
  trx.insertInto('signing_keys').values(row).returning(KEY_COLUMNS).executeTakeFirstOrThrow();
