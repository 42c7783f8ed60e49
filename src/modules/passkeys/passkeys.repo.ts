import { sql } from 'kysely';
import type { Executor, NewRow } from '../../db/database.js';

/** The columns of a passkey as listed (docs/passkeys.md "Managing passkeys"). */
const LISTED = ['id', 'device_name', 'created_at', 'last_used_at', 'authenticator_type', 'is_resident_key', 'is_active'] as const;

export const listCredentials = (db: Executor, userId: number) =>
  db.selectFrom('webauthn_credentials').select(LISTED).where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();

export type ListedCredential = Awaited<ReturnType<typeof listCredentials>>[number];

/** The ids (and transports) of the account's credentials: `excludeCredentials` and `allowCredentials`. */
export const credentialIdsOf = (db: Executor, userId: number, activeOnly: boolean) => {
  let q = db.selectFrom('webauthn_credentials').select(['credential_id', 'transports', 'user_handle']).where('user_id', '=', userId);
  if (activeOnly) q = q.where('is_active', '=', true);
  return q.orderBy('id').execute();
};

/** A credential by the id the browser names it with: what verifying an assertion needs. */
export const findByCredentialId = (db: Executor, credentialId: string) =>
  db.selectFrom('webauthn_credentials').select(['id', 'user_id', 'credential_id', 'public_key', 'user_handle', 'sign_count', 'device_name',
    'device_type', 'is_active']).where('credential_id', '=', credentialId).executeTakeFirst();

export type CredentialRow = NonNullable<Awaited<ReturnType<typeof findByCredentialId>>>;

/** Answers the new row, or undefined when the credential id is already registered (to any account). */
export const insertCredential = (db: Executor, row: NewRow<'webauthn_credentials'>) =>
  db.insertInto('webauthn_credentials').values(row).onConflict((oc) => oc.column('credential_id').doNothing())
    .returning(['id', 'device_name', 'created_at', 'last_used_at', 'device_type', 'is_active']).executeTakeFirst();

/**
 * Records a use, only while the sign counter moves forward (or stays at zero, for authenticators without one): of two
 * parallel uses of one counter value, one wins. Answers whether it was recorded.
 */
export async function recordUse(db: Executor, id: number, counter: number, backedUp: boolean, now: Date): Promise<boolean> {
  const done = await db.updateTable('webauthn_credentials').set({ sign_count: counter, backed_up: backedUp, last_used_at: now })
    .where('id', '=', id).where('is_active', '=', true)
    .where(sql<boolean>`(sign_count < ${counter} or (${counter}::bigint = 0 and sign_count = 0))`)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}
