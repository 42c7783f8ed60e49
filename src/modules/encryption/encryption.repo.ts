import { sql } from 'kysely';
import type { Db, Executor, Row } from '../../db/database.js';
import type { SealedColumns } from './sealers.js';

type ValueName = Row<'sealed_values'>['name'];

// An arbitrary constant naming the encryption-key lock among the application's advisory locks.
const ENCRYPTION_KEY_LOCK = 731_204;

/** Serializes rotations and first writes of the check value, until the transaction ends. */
export const lockEncryptionKey = (trx: Executor) => sql`select pg_advisory_xact_lock(${ENCRYPTION_KEY_LOCK})`.execute(trx);

/** Whether migration 0025 has run (`serve --no-migrate` may start before it). */
export async function hasSealedValues(db: Executor): Promise<boolean> {
  const { rows } = await sql<{ present: boolean }>`select to_regclass('sealed_values') is not null as present`.execute(db);
  return rows[0]?.present === true;
}

export const findSealedValue = (db: Executor, name: ValueName) =>
  db.selectFrom('sealed_values').select('sealed').where('name', '=', name).executeTakeFirst();

/** Writes the value unless one exists (two instances starting at once: the first one wins, the other checks it). */
export const insertSealedValue = (db: Executor, name: ValueName, sealed: string, now: Date) =>
  db.insertInto('sealed_values').values({ name, sealed, updated_at: now }).onConflict((oc) => oc.column('name').doNothing()).execute();

export const saveSealedValue = (db: Executor, name: ValueName, sealed: string, now: Date) =>
  db.insertInto('sealed_values').values({ name, sealed, updated_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ sealed, updated_at: now })).execute();

export const deleteSealedValue = (db: Executor, name: ValueName) => db.deleteFrom('sealed_values').where('name', '=', name).execute();

/** The signing key that signs now (else the latest), with its kid for messages. */
export const latestSigningKey = (db: Db) =>
  db.selectFrom('signing_keys').select(['kid', 'private_key_sealed'])
    .orderBy(sql`superseded_at is null`, 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();

/** One sealed value of a column, to try a key on. */
export async function anySealed(db: Db, table: SealedColumns['table'], column: string): Promise<string | undefined> {
  const { rows } = await sql<{ sealed: string }>`select ${sql.ref(column)} as sealed from ${sql.table(table)}
    where ${sql.ref(column)} is not null limit 1`.execute(db);
  return rows[0]?.sealed;
}

export const countRows = async (db: Executor, table: SealedColumns['table']): Promise<number> =>
  Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]?.n ?? 0);

/** The next rows after `after`, in key order (keyset pagination): the key as `k`, then the sealed columns. */
export async function sealedBatch(trx: Executor, c: SealedColumns, after: number, limit: number)
  : Promise<Array<{ k: number; sealed: Record<string, string | null> }>> {
  const { rows } = await sql<Record<string, string | number | null>>`
    select ${sql.ref(c.key)} as k, ${sql.join(c.columns.map((col) => sql.ref(col)))} from ${sql.table(c.table)}
    where ${sql.ref(c.key)} > ${after} order by ${sql.ref(c.key)} limit ${limit}`.execute(trx);
  return rows.map(({ k, ...sealed }) => ({ k: Number(k), sealed: sealed as Record<string, string | null> }));
}

export async function updateSealedRow(trx: Executor, c: SealedColumns, key: number, values: Record<string, string | null>) {
  const sets = Object.entries(values).map(([col, v]) => sql`${sql.ref(col)} = ${v}`);
  await sql`update ${sql.table(c.table)} set ${sql.join(sets)} where ${sql.ref(c.key)} = ${key}`.execute(trx);
}
