import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { openPGlite, openPostgres, type Database } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { seed } from '../../src/db/seed/seed.js';

/**
 * One database per test process, shared by the apps a test file builds. PGlite loads a prepared,
 * migrated data dir (the test runner builds it once); with TEST_DATABASE_URL each process gets its
 * own fresh PostgreSQL database, dropped when the last user closes it.
 */
let shared: Promise<Database> | undefined;
let users = 0;
let dropDatabase: (() => Promise<void>) | undefined;

export const testDatabaseKind = (): 'postgres' | 'pglite' => (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');

async function open(): Promise<Database> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const name = `gatehouse_test_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = await openPostgres(adminUrl, 1);
    await sql`create database ${sql.id(name)}`.execute(admin.db);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openPostgres(url.toString(), 5);
    dropDatabase = async () => {
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin.db).catch(() => undefined);
      await admin.close();
    };
    await migrateToLatest(database.db);
    await seed(database.db);
    return database;
  }
  const templatePath = process.env.GATEHOUSE_TEST_PGLITE_TEMPLATE;
  const template = templatePath ? new Blob([await readFile(templatePath)]) : undefined;
  const database = await openPGlite('memory://', template);
  await migrateToLatest(database.db);
  await seed(database.db);
  return database;
}

export async function acquireTestDatabase(): Promise<Database> {
  users++;
  shared ??= open();
  return shared;
}

export async function releaseTestDatabase(): Promise<void> {
  users--;
  if (users > 0 || !shared) return;
  const database = await shared;
  shared = undefined;
  await database.close();
  await dropDatabase?.();
  dropDatabase = undefined;
}

/** Empties every table (identities restart) and re-seeds, so each test starts from a fresh install. */
export async function resetDatabase(database: Database): Promise<void> {
  const { rows } = await sql<{ tablename: string }>`
    select tablename from pg_tables where schemaname = current_schema() and tablename not like 'gatehouse_migrations%'`
    .execute(database.db);
  if (rows.length) {
    await sql`truncate table ${sql.join(rows.map((r) => sql.table(r.tablename)))} restart identity cascade`.execute(database.db);
  }
  await seed(database.db);
}
